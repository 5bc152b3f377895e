// PostgresSchemaTrigger: one trigger a migration makes and a seed rests — its table, its name and
// its `CREATE TRIGGER` — written once, so that the seed's list cannot drift from what was made.

/// A trigger of the shop's schema (constant SQL).
struct PostgresSchemaTrigger: Sendable {
    let table: String
    let name: String
    /// Its `CREATE TRIGGER` statement.
    let sql: String

    /// An AFTER `event` (INSERT, UPDATE or DELETE) statement trigger on `table` calling
    /// `function()`, naming the statement's transition tables `old_<rows>` and `new_<rows>` (those
    /// the event has).
    static func statement(_ name: String, after event: String, on table: String, rows: String, function: String) -> Self {
        let transition = [event != "INSERT" ? "OLD TABLE AS old_\(rows)" : nil, event != "DELETE" ? "NEW TABLE AS new_\(rows)" : nil]
            .compactMap { $0 }.joined(separator: " ")
        return Self(table: table, name: name, sql: """
            CREATE TRIGGER \(name) AFTER \(event) ON \(table) REFERENCING \(transition) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
            """)
    }

    /// A BEFORE DELETE row trigger on `table` calling `function()` (which returns `OLD`).
    static func beforeDelete(_ name: String, on table: String, function: String) -> Self {
        Self(table: table, name: name, sql: "CREATE TRIGGER \(name) BEFORE DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)()")
    }

    /// The statement that rests it while a seed writes.
    var disable: String { "ALTER TABLE \(table) DISABLE TRIGGER \(name)" }
    /// The statement that brings it back.
    var enable: String { "ALTER TABLE \(table) ENABLE TRIGGER \(name)" }
}
