// SQLiteStockContext: what the stock ledger's triggers (Schema v9) record about the stock changes
// of the current transaction — why, the order, a note, who and when. A service sets it before it
// changes stock and clears it after, inside its own transaction, so a change made by another
// client (sqlite3) finds none and is recorded as `outside`.

import GRDB
import ShopCore

enum SQLiteStockContext {
    /// Runs `body` with the ledger's context set to `reason` (and `order`, `note`), at `time`.
    /// `operator`: who the rows name (the audit log's operator when nil).
    static func with<T>(_ reason: StockReason, order: Int64? = nil, note: String? = nil, at time: String,
                        operator given: String? = nil, in db: Database, _ body: () throws -> T) throws -> T {
        let name = given ?? AuditContext.current?.operatorIdentity.name ?? OperatorLogin.current
        try db.execute(sql: """
            INSERT OR REPLACE INTO stock_context (id, reason, order_id, note, operator, at) VALUES (1, ?, ?, ?, ?, ?)
            """, arguments: [reason.rawValue, order, note, name, time])
        let value = try body()
        try db.execute(sql: "DELETE FROM stock_context")
        return value
    }

    /// The reason of a product update: a revert's when the command is `audit revert`.
    static var updateReason: StockReason {
        (AuditContext.current?.command ?? "").hasPrefix("audit revert") ? .revert : .update
    }
}
