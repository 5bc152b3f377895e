// SQLiteStockContext: what the stock ledger's triggers (Schema v9) record about the stock changes
// of the current transaction — why, the order, a note, who and when. A service sets it before it
// changes stock and puts back what was there after (none, or an enclosing context such as a
// seed's), inside its own transaction, so a change made by another client (sqlite3) finds none
// and is recorded as `outside`.

import GRDB
import ShopCore

enum SQLiteStockContext {
    /// Runs `body` with the ledger's context set to `reason` (and `order`, `note`), at `time`.
    /// `operator`: who the rows name (the audit log's operator when nil).
    static func with<T>(_ reason: StockReason, order: Int64? = nil, note: String? = nil, at time: String,
                        operator given: String? = nil, in db: Database, _ body: () throws -> T) throws -> T {
        let name = given ?? AuditContext.current?.operatorIdentity.name ?? OperatorLogin.current
        let enclosing = try Row.fetchOne(db, sql: "SELECT reason, order_id, note, operator, at FROM stock_context")
        try set([reason.rawValue, order, note, name, time], in: db)
        let value = try body()
        if let enclosing {
            try set(StatementArguments(enclosing.databaseValues), in: db)
        } else {
            try db.execute(sql: "DELETE FROM stock_context")
        }
        return value
    }

    private static func set(_ values: StatementArguments, in db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO stock_context (id, reason, order_id, note, operator, at) VALUES (1, ?, ?, ?, ?, ?)
            """, arguments: values)
    }

    /// Runs `body` with the ledger's context set to a product update's reason and note.
    static func with<T>(_ update: StockChangeNote, at time: String, in db: Database, _ body: () throws -> T) throws -> T {
        try with(update.reason, note: update.note, at: time, in: db, body)
    }
}
