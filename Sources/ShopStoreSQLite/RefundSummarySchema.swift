// RefundSummarySchema: Schema v15 — the refund summaries (RefundSummarySQL) in SQLite: their
// tables, and the triggers that keep them equal to a recount from the refunds through any change
// (shopsh's, or a statement at sqlite3): a refund given, changed or deleted, an order whose
// currency, status or customer changes (its refunds move), an order, product or user deleted.

import ShopStoreKit

extension Schema {
    /// SQLite's refund summaries: a refund's day is the date its `created_at` text starts with.
    static let refundSummaries = RefundSummarySQL(day: "substr(r.created_at, 1, 10)", larger: "max")

    /// The tables' DDL (v15).
    static let refundSummaryTables = """
        CREATE TABLE refund_days (
            day      TEXT NOT NULL,
            currency TEXT NOT NULL,
            status   TEXT NOT NULL,      -- the order's, as it stands now
            refunds  INTEGER NOT NULL,
            units    INTEGER NOT NULL,
            amount   INTEGER NOT NULL,
            PRIMARY KEY (day, currency, status)
        ) WITHOUT ROWID;
        CREATE TABLE refund_day_products (
            day        TEXT NOT NULL,
            currency   TEXT NOT NULL,
            status     TEXT NOT NULL,
            product_id INTEGER NOT NULL,   -- the returned product, 0 once it was deleted
            sku        TEXT NOT NULL,
            title      TEXT NOT NULL,      -- the order line's
            refunds    INTEGER NOT NULL,
            units      INTEGER NOT NULL,
            amount     INTEGER NOT NULL,
            PRIMARY KEY (day, product_id, sku, currency, status)
        ) WITHOUT ROWID;
        CREATE TABLE refund_day_customers (
            day      TEXT NOT NULL,
            currency TEXT NOT NULL,
            status   TEXT NOT NULL,
            user_id  INTEGER NOT NULL,     -- the order's customer, 0 once they were deleted
            customer TEXT NOT NULL,
            refunds  INTEGER NOT NULL,
            units    INTEGER NOT NULL,
            amount   INTEGER NOT NULL,
            PRIMARY KEY (day, user_id, customer, currency, status)
        ) WITHOUT ROWID;
        """

    /// The summaries recounted from the refunds (v15, and after a seed, which writes without the triggers).
    static var refillRefundSummaries: String { refundSummaries.refill.map { $0 + ";" }.joined(separator: "\n") }

    /// A trigger's `OLD` or `NEW` refund as a one-row table `r`, with its order and line.
    private static func refund(_ row: String) -> String {
        let columns = (["id"] + RefundSummarySQL.refundColumns).map { "\(row).\($0) AS \($0)" }
        return """
            FROM (SELECT \(columns.joined(separator: ", "))) r JOIN orders o ON o.id = r.order_id
            LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number
            """
    }

    /// The refunds of a trigger's `OLD` or `NEW` order, with the order as that row has it.
    private static func refunds(ofOrder row: String) -> String {
        let columns = (["id"] + RefundSummarySQL.orderColumns).map { "\(row).\($0) AS \($0)" }
        return """
            FROM order_refunds r JOIN (SELECT \(columns.joined(separator: ", "))) o ON o.id = r.order_id
            LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number
            """
    }

    /// The refunds `from` binds counted into (`sign` 1) or out of (-1) the summaries, as a trigger's body.
    private static func counted(_ from: String, sign: Int) -> String {
        refundSummaries.count(from: from, sign: sign).map { $0 + ";" }.joined(separator: "\n")
    }

    /// The triggers that keep the summaries (a seed drops them and refills once).
    static let refundSummaryTriggers: [(name: String, sql: String)] = {
        [
            ("order_refunds_summary_insert", """
                CREATE TRIGGER order_refunds_summary_insert AFTER INSERT ON order_refunds BEGIN
                \(counted(refund("NEW"), sign: 1)) END
                """),
            ("order_refunds_summary_update", """
                CREATE TRIGGER order_refunds_summary_update
                AFTER UPDATE OF \(RefundSummarySQL.refundColumns.joined(separator: ", ")) ON order_refunds BEGIN
                \(counted(refund("OLD"), sign: -1))
                \(counted(refund("NEW"), sign: 1)) END
                """),
            ("order_refunds_summary_delete", """
                CREATE TRIGGER order_refunds_summary_delete AFTER DELETE ON order_refunds BEGIN
                \(counted(refund("OLD"), sign: -1)) END
                """),
            ("orders_refund_summary_update", """
                CREATE TRIGGER orders_refund_summary_update
                AFTER UPDATE OF \(RefundSummarySQL.orderColumns.joined(separator: ", ")) ON orders BEGIN
                \(counted(refunds(ofOrder: "OLD"), sign: -1))
                \(counted(refunds(ofOrder: "NEW"), sign: 1)) END
                """),
            // An order's refunds go first, counted out while the order is there to say under what.
            ("orders_refund_summary_delete", """
                CREATE TRIGGER orders_refund_summary_delete BEFORE DELETE ON orders BEGIN
                DELETE FROM order_refunds WHERE order_id = OLD.id; END
                """),
        ]
    }()
}
