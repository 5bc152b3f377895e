// PostgresRefundSummarySchema: migration 21 — the refund summaries (RefundSummarySQL) on the
// server: the same tables and meanings as SQLite's (RefundSummarySchema), kept by statement-level
// triggers with transition tables, so a statement that changes many refunds or orders counts them
// in and out once, set-based:
//
// - refunds given, changed (a row whose summarised columns moved) or deleted;
// - orders whose currency, status or customer changed: their refunds move;
// - an order deleted deletes its refunds first (a row trigger before it goes), so that they are
//   counted out while the order is still there to say under what.

import ShopStoreKit

/// The DDL of migration 21 (constant SQL; the schema's name is quoted by the server).
package enum PostgresRefundSummarySchema {
    /// The server's refund summaries: a refund's day is its time's date in UTC.
    package static let summaries = RefundSummarySQL(day: "(r.created_at AT TIME ZONE 'UTC')::date",
                                                    sum: { "sum(\($0))::bigint" }, larger: "GREATEST")

    /// The triggers a seed rests while it writes (then the tables are recounted once).
    static let triggers: [(table: String, name: String)] = [
        ("order_refunds", "order_refunds_summary_insert"), ("order_refunds", "order_refunds_summary_update"),
        ("order_refunds", "order_refunds_summary_delete"), ("orders", "orders_refunds_update"), ("orders", "orders_refunds_delete"),
    ]

    /// `FROM …` of refunds `refunds` (a relation of refunds' columns) with orders `orders` and their lines.
    private static func refunds(_ refunds: String, of orders: String) -> String {
        """
        FROM \(refunds) r JOIN \(orders) o ON o.id = r.order_id
        LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number
        """
    }

    /// Rows of `old_rows` and `new_rows` (joined on `id`) whose `columns` differ, as `side` had them.
    static func moved(_ side: String, old: String, new: String, columns: [String]) -> String {
        """
        (SELECT \(side).* FROM \(old) o JOIN \(new) n ON n.id = o.id
         WHERE (\(columns.map { "o.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(columns.map { "n.\($0)" }.joined(separator: ", "))))
        """
    }

    package static var statements: [String] {
        let movedRefunds = { (side: String) in moved(side, old: "old_refunds", new: "new_refunds", columns: RefundSummarySQL.refundColumns) }
        let movedOrders = { (side: String) in moved(side, old: "old_orders", new: "new_orders", columns: RefundSummarySQL.orderColumns) }
        var all = [
            """
            CREATE TABLE refund_days (
                day      DATE NOT NULL,
                currency TEXT NOT NULL,
                status   TEXT NOT NULL,
                refunds  BIGINT NOT NULL,
                units    BIGINT NOT NULL,
                amount   BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status)
            )
            """,
            """
            CREATE TABLE refund_day_products (
                day        DATE NOT NULL,
                currency   TEXT NOT NULL,
                status     TEXT NOT NULL,
                product_id BIGINT NOT NULL,
                sku        TEXT NOT NULL,
                title      TEXT NOT NULL,
                refunds    BIGINT NOT NULL,
                units      BIGINT NOT NULL,
                amount     BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, product_id, sku)
            )
            """,
            """
            CREATE TABLE refund_day_customers (
                day      DATE NOT NULL,
                currency TEXT NOT NULL,
                status   TEXT NOT NULL,
                user_id  BIGINT NOT NULL,
                customer TEXT NOT NULL,
                refunds  BIGINT NOT NULL,
                units    BIGINT NOT NULL,
                amount   BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, user_id, customer)
            )
            """,
        ] + summaries.refill
        all += PostgresServerRules.triggerFunction("shopsh_refunds_inserted",
                                                   summaries.count(from: refunds("new_refunds", of: "orders"), sign: 1))
        all += PostgresServerRules.triggerFunction("shopsh_refunds_updated",
                                                   summaries.count(from: refunds(movedRefunds("o"), of: "orders"), sign: -1)
                                                   + summaries.count(from: refunds(movedRefunds("n"), of: "orders"), sign: 1))
        all += PostgresServerRules.triggerFunction("shopsh_refunds_deleted",
                                                   summaries.count(from: refunds("old_refunds", of: "orders"), sign: -1))
        all += PostgresServerRules.triggerFunction("shopsh_refunds_orders_updated",
                                                   summaries.count(from: refunds("order_refunds", of: movedOrders("o")), sign: -1)
                                                   + summaries.count(from: refunds("order_refunds", of: movedOrders("n")), sign: 1))
        all += PostgresServerRules.deletesBeforeTheOrder("shopsh_refunds_order_go", table: "order_refunds")
        all += [
            "CREATE TRIGGER order_refunds_summary_insert AFTER INSERT ON order_refunds REFERENCING NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION shopsh_refunds_inserted()",
            "CREATE TRIGGER order_refunds_summary_update AFTER UPDATE ON order_refunds REFERENCING OLD TABLE AS old_refunds NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION shopsh_refunds_updated()",
            "CREATE TRIGGER order_refunds_summary_delete AFTER DELETE ON order_refunds REFERENCING OLD TABLE AS old_refunds FOR EACH STATEMENT EXECUTE FUNCTION shopsh_refunds_deleted()",
            "CREATE TRIGGER orders_refunds_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION shopsh_refunds_orders_updated()",
            "CREATE TRIGGER orders_refunds_delete BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION shopsh_refunds_order_go()",
        ]
        return all
    }

    /// Before a seed's rows (the owner's, into an empty store): the triggers rest.
    package static let beforeSeed = triggers.map { "ALTER TABLE \($0.table) DISABLE TRIGGER \($0.name)" }

    /// After a seed's rows: every summary counted once, and the triggers back.
    package static let afterSeed = summaries.refill + triggers.map { "ALTER TABLE \($0.table) ENABLE TRIGGER \($0.name)" }
}
