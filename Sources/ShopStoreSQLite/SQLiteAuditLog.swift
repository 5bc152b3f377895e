// SQLiteAuditLog: writes one audit row per change inside the change's own transaction, and reads
// the log for `audit list` / `audit show` (AuditService). Rows cannot be changed or deleted
// (triggers of schema v3).

import Foundation
import GRDB
import Synchronization
import ShopCore
import ShopStoreKit

/// Writing the audit log; every service calls `record` in the transaction of its change.
enum SQLiteAuditLog {
    /// Records `change` at `time` for the command the shell is running (`AuditContext.current`);
    /// without one (a test, a tool) the operator is the OS login and the command is empty.
    static func record(_ change: AuditChange, in db: Database, at time: String) throws {
        try record([change], in: db, at: time)
    }

    /// Records `changes` at `time`, in their order, as `record` records one, by INSERTs of many
    /// rows each (a bulk change writes 100,000 of them: one INSERT each took 0.8 s).
    static func record(_ changes: [AuditChange], in db: Database, at time: String) throws {
        guard changes.contains(where: { !$0.changesNothing }) else { return }
        try insert(batches(changes, sharing: try shared(in: db, at: time)), in: db)
    }

    /// The values every audit row of this transaction shares (?1…?5 of each INSERT): `time`, the
    /// operator and role of the command the shell is running (`AuditContext.current`; without one,
    /// a test or a tool, the OS login as an admin), the command, the change set.
    static func shared(in db: Database, at time: String) throws -> [DatabaseValue] {
        let context = AuditContext.current
        let identity = context?.operatorIdentity ?? OperatorIdentity(name: OperatorLogin.current, role: .admin)
        return [time.databaseValue, identity.name.databaseValue, identity.role.rawValue.databaseValue,
                (context?.command ?? "").databaseValue, try changeSet(db).databaseValue]
    }

    /// One INSERT's worth of audit rows: how many, and the arguments (`shared` first, then five
    /// values a row). Works without the database: a bulk change makes them on another thread.
    struct Batch: Sendable {
        let rows: Int
        let arguments: StatementArguments
    }

    /// `changes` that change something, as batches of `rowsPerInsert` rows sharing `shared`.
    static func batches(_ changes: [AuditChange], sharing shared: [DatabaseValue]) -> [Batch] {
        let kept = changes.filter { !$0.changesNothing }
        return stride(from: kept.startIndex, to: kept.endIndex, by: rowsPerInsert).map { start in
            let rows = kept[start..<min(start + rowsPerInsert, kept.endIndex)]
            // Values, not existentials: 500,000 of them.
            var arguments = shared
            arguments.reserveCapacity(shared.count + 5 * rows.count)
            for change in rows {
                arguments.append(change.entity.rawValue.databaseValue)
                arguments.append(change.entityID.databaseValue)
                arguments.append(change.action.databaseValue)
                arguments.append(change.before?.jsonText.databaseValue ?? .null)
                arguments.append(change.after?.jsonText.databaseValue ?? .null)
            }
            return Batch(rows: rows.count, arguments: StatementArguments(arguments))
        }
    }

    /// Writes `batches`, in their order.
    static func insert(_ batches: [Batch], in db: Database) throws {
        for batch in batches {
            let values = (0..<batch.rows).map { row in
                let first = 6 + 5 * row
                return "(?1, ?2, ?3, ?4, ?\(first), ?\(first + 1), ?\(first + 2), ?\(first + 3), ?\(first + 4), ?5)"
            }
            try db.cachedStatement(sql: """
                INSERT INTO audit_log (at, operator, role, command, entity, entity_id, action, before, after, change_set)
                VALUES \(values.joined(separator: ", "))
                """).execute(arguments: batch.arguments)
        }
    }

    /// How many audit rows one INSERT of `record(_ changes:)` writes (5 values each, 5 shared:
    /// within SQLite's 32,766 variables).
    static let rowsPerInsert = 500

    /// The change set of the transaction `db` is in: the id of its first audit row (the id the
    /// next row takes, when it writes none yet), remembered until the transaction ends.
    static func changeSet(_ db: Database) throws -> Int64 {
        let connection = ObjectIdentifier(db)
        if let known = openChangeSets.withLock({ $0[connection] }) { return known }
        let next = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) + 1 FROM audit_log") ?? 1
        openChangeSets.withLock { $0[connection] = next }
        db.afterNextTransaction { _ in
            openChangeSets.withLock { _ = $0.removeValue(forKey: connection) }
        } onRollback: { _ in
            openChangeSets.withLock { _ = $0.removeValue(forKey: connection) }
        }
        return next
    }

    /// Each open transaction's change set, by connection.
    private static let openChangeSets = Mutex<[ObjectIdentifier: Int64]>([:])
}

/// The operator of a SQLite store: the OS login that runs shopsh.
enum OperatorLogin {
    /// The login name of the effective user (`getpwuid`), else `$USER`, else `uid N`.
    static var current: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name, let text = String(validatingCString: name), !text.isEmpty {
            return text
        }
        if let user = ProcessInfo.processInfo.environment["USER"], !user.isEmpty { return user }
        return "uid \(geteuid())"
    }
}

/// `AuditService` on a SQLite store.
struct SQLiteAuditService: AuditService {
    let database: DatabaseQueue

    private static let columns = "id, at, operator, role, command, entity, entity_id, action, before, after, change_set"

    func listAudit(_ filter: AuditFilter, page: Page, _ body: (AuditEntry) throws -> Void) async throws {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        for (condition, value) in [("operator = ?", filter.operatorName), ("entity = ?", filter.entity?.rawValue),
                                   ("entity_id = ?", filter.entityID), ("at >= ?", filter.since), ("at <= ?", filter.until)] {
            SQLConditions.add(condition, value, to: &conditions, &arguments)
        }
        SQLConditions.add("change_set = ?", filter.changeSet, to: &conditions, &arguments)
        SQLConditions.add("id > ?", filter.afterID, to: &conditions, &arguments)
        let where_ = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // Newest first unless a sort is asked for.
        let paging = try SQLPaging.clause(page, sortColumns: AuditListing.sortColumns, tieBreaker: page.sort.isEmpty ? "id DESC" : "id")
        try database.shopRead { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM audit_log" + where_ + paging,
                                             arguments: StatementArguments(arguments))
            while let row = try cursor.next() { try body(Self.entry(row)) }
        }
    }

    func auditEntry(_ id: Int64) async throws -> AuditEntry {
        try database.shopRead { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM audit_log WHERE id = ?", arguments: [id]) else {
                throw AuditListing.notFound(id)
            }
            return Self.entry(row)
        }
    }

    func auditOperators() async throws -> [String] {
        try database.shopRead { db in try String.fetchAll(db, sql: "SELECT DISTINCT operator FROM audit_log ORDER BY operator") }
    }

    private static func entry(_ row: Row) -> AuditEntry {
        AuditEntry(id: row[0], time: row[1], operatorName: row[2], role: row[3], command: row[4], entity: row[5],
                   entityID: row[6], action: row[7], before: (row[8] as String?).flatMap(AuditFields.init(jsonText:)),
                   after: (row[9] as String?).flatMap(AuditFields.init(jsonText:)), changeSet: row[10])
    }
}
