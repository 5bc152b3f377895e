// RefundCategorySummarySchema: Schema v17 — the refunds' category summary (RefundSummarySQL's
// `refund_day_categories`) in SQLite: its table, and the triggers that keep it equal to a recount
// from the refunds through any change (shopsh's, or a statement at sqlite3): a refund given,
// changed or deleted; an order whose currency or status changes (its refunds move); a product whose
// category changes (its returns move from the old category to the new); a product deleted (before
// it goes, while its returns still name it: they move to "no product"; losing the id then moves
// nothing more). An order deleted deletes its refunds first (v15's trigger), counting them out.

import ShopStoreKit

extension Schema {
    /// The table's DDL (v17).
    static let refundCategorySummaryTable = """
        CREATE TABLE refund_day_categories (
            day        TEXT NOT NULL,
            currency   TEXT NOT NULL,
            status     TEXT NOT NULL,      -- the order's, as it stands now
            no_product INTEGER NOT NULL,   -- 1: returns of a product deleted since (category '')
            category   TEXT NOT NULL,      -- the returned product's, as it is now
            refunds    INTEGER NOT NULL,
            units      INTEGER NOT NULL,
            amount     INTEGER NOT NULL,
            PRIMARY KEY (day, currency, status, no_product, category)
        ) WITHOUT ROWID;
        """

    /// The summary recounted from the refunds (v17, and after a seed, which writes without the triggers).
    static var refillRefundCategorySummary: String { refundSummaries.refillCategories.map { $0 + ";" }.joined(separator: "\n") }

    /// The refunds `from` binds (and `condition` keeps), with their products, counted into (`sign`
    /// 1) or out of (-1) the summary under `table`'s categories, as a trigger's body.
    private static func countedByCategory(_ from: String, where condition: String? = nil, sign: Int,
                                          _ table: RefundSummaryTable = RefundSummarySQL.categories()) -> String {
        refundSummaries.count(from: RefundSummarySQL.withProducts(from), where: condition, sign: sign, tables: [table])
            .map { $0 + ";" }.joined(separator: "\n")
    }

    /// The triggers that keep the summary (a seed drops them and refills once).
    static let refundCategorySummaryTriggers: [(name: String, sql: String)] = {
        let refund = { (row: String) in
            "FROM (SELECT " + (["id"] + RefundSummarySQL.refundColumns).map { "\(row).\($0) AS \($0)" }.joined(separator: ", ")
                + ") r JOIN orders o ON o.id = r.order_id"
        }
        let ofOrder = { (row: String) in
            "FROM order_refunds r JOIN (SELECT " + ["id", "currency", "status"].map { "\(row).\($0) AS \($0)" }.joined(separator: ", ")
                + ") o ON o.id = r.order_id"
        }
        let allRefunds = "FROM order_refunds r JOIN orders o ON o.id = r.order_id"
        return [
            ("order_refunds_category_summary_insert", """
                CREATE TRIGGER order_refunds_category_summary_insert AFTER INSERT ON order_refunds BEGIN
                \(countedByCategory(refund("NEW"), sign: 1)) END
                """),
            ("order_refunds_category_summary_update", """
                CREATE TRIGGER order_refunds_category_summary_update
                AFTER UPDATE OF \(RefundSummarySQL.refundColumns.joined(separator: ", ")) ON order_refunds BEGIN
                \(countedByCategory(refund("OLD"), sign: -1))
                \(countedByCategory(refund("NEW"), sign: 1)) END
                """),
            ("order_refunds_category_summary_delete", """
                CREATE TRIGGER order_refunds_category_summary_delete AFTER DELETE ON order_refunds BEGIN
                \(countedByCategory(refund("OLD"), sign: -1)) END
                """),
            ("orders_refund_category_summary_update", """
                CREATE TRIGGER orders_refund_category_summary_update AFTER UPDATE OF currency, status ON orders BEGIN
                \(countedByCategory(ofOrder("OLD"), sign: -1))
                \(countedByCategory(ofOrder("NEW"), sign: 1)) END
                """),
            ("products_refund_category_summary_update", """
                CREATE TRIGGER products_refund_category_summary_update AFTER UPDATE OF category ON products
                WHEN OLD.category IS NOT NEW.category BEGIN
                \(countedByCategory(allRefunds, where: "r.product_id = NEW.id", sign: -1, RefundSummarySQL.categories(category: "OLD.category")))
                \(countedByCategory(allRefunds, where: "r.product_id = NEW.id", sign: 1)) END
                """),
            ("products_refund_category_summary_delete", """
                CREATE TRIGGER products_refund_category_summary_delete BEFORE DELETE ON products BEGIN
                \(countedByCategory(allRefunds, where: "r.product_id = OLD.id", sign: -1))
                \(countedByCategory(allRefunds, where: "r.product_id = OLD.id", sign: 1, RefundSummarySQL.categories(gone: "1 = 1"))) END
                """),
        ]
    }()
}
