// PostgresRefundCategorySummarySchema: migration 29 — the refunds' category summary
// (RefundSummarySQL's `refund_day_categories`) on the server: the same table and meaning as
// SQLite's (RefundCategorySummarySchema), kept by statement-level triggers with transition tables,
// so a statement that changes many refunds, orders or products moves them once, set-based (a move
// is one statement adding the difference between the refunds as they stand and as they stood,
// RefundSummarySQL.difference, over a `WITH` list computed once):
//
// - refunds given, changed (a row whose summarised columns moved) or deleted;
// - orders whose currency or status changed: their refunds move;
// - products whose category changed: their returns move from the category they had
//   (`old_products`) to the one they have;
// - a product deleted (a row trigger before it goes, while its returns still name it): they move to
//   "no product". They then lose the id (the foreign key's SET NULL), which moves nothing more.
// An order deleted deletes its refunds first (migration 21's row trigger), counting them out.

import ShopStoreKit

/// The DDL of migration 29 (constant SQL; the schema's name is quoted by the server).
package enum PostgresRefundCategorySummarySchema {
    private static let summaries = PostgresRefundSummarySchema.summaries

    /// The summary's triggers (a seed rests them while it writes, then the table is recounted once).
    static let triggers: [PostgresSchemaTrigger] = [
        .statement("order_refunds_category_summary_insert", after: "INSERT", on: "order_refunds", rows: "refunds",
                   function: "shopsh_refund_categories_inserted"),
        .statement("order_refunds_category_summary_update", after: "UPDATE", on: "order_refunds", rows: "refunds",
                   function: "shopsh_refund_categories_updated"),
        .statement("order_refunds_category_summary_delete", after: "DELETE", on: "order_refunds", rows: "refunds",
                   function: "shopsh_refund_categories_deleted"),
        .statement("orders_refund_category_summary_update", after: "UPDATE", on: "orders", rows: "orders",
                   function: "shopsh_refund_categories_orders_updated"),
        .statement("products_refund_category_summary_update", after: "UPDATE", on: "products", rows: "products",
                   function: "shopsh_refund_categories_products_updated"),
        .beforeDelete("products_refund_category_summary_delete", on: "products", function: "shopsh_refund_categories_product_go"),
    ]

    /// The refunds `from` binds (and `condition` keeps), with their products, counted into (`sign`
    /// 1) or out of (-1) the summary under `table`'s categories.
    private static func counted(_ from: String, where condition: String? = nil, sign: Int,
                                _ table: RefundSummaryTable = RefundSummarySQL.categories()) -> [String] {
        summaries.count(from: RefundSummarySQL.withProducts(from), where: condition, sign: sign, tables: [table])
    }

    package static var statements: [String] {
        let category = RefundSummarySQL.categories()
        let refunds = { (rows: String) in "FROM \(rows) r JOIN orders o ON o.id = r.order_id" }
        // A refunds UPDATE's rows whose summarised columns moved, as they were and as they are.
        let changed = { (side: String) in
            PostgresRefundSummarySchema.moved(side, old: "old_refunds", new: "new_refunds", columns: RefundSummarySQL.refundColumns)
        }
        let changedRefunds = "changed_old AS \(changed("o")), changed_new AS \(changed("n"))"
        // An orders UPDATE's rows holding returns whose currency or status moved, with the old
        // values (the returns' few orders first: an UPDATE of 500,000 orders pairs 0.95 s, not 1.26).
        let movedOrders = """
            moved AS (SELECT n.id, n.currency, n.status, o.currency AS old_currency, o.status AS old_status
                      FROM old_orders o JOIN new_orders n ON n.id = o.id
                      WHERE o.id IN (SELECT order_id FROM order_refunds WHERE line_number IS NOT NULL)
                        AND (o.currency, o.status) IS DISTINCT FROM (n.currency, n.status))
            """
        // A products UPDATE's recategorised products, with the category each had.
        let recategorised = """
            was AS (SELECT o.id, o.category FROM old_products o JOIN new_products n ON n.id = o.id
                    WHERE o.category IS DISTINCT FROM n.category)
            """
        let ofRecategorised = RefundSummarySQL.withProducts("FROM order_refunds r JOIN orders o ON o.id = r.order_id JOIN was ON was.id = r.product_id")
        let allRefunds = "FROM order_refunds r JOIN orders o ON o.id = r.order_id"
        var all = [
            """
            CREATE TABLE refund_day_categories (
                day        DATE NOT NULL,
                currency   TEXT NOT NULL,
                status     TEXT NOT NULL,
                no_product INTEGER NOT NULL,
                category   TEXT NOT NULL,
                refunds    BIGINT NOT NULL,
                units      BIGINT NOT NULL,
                amount     BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, no_product, category)
            )
            """,
        ] + summaries.refillCategories
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_inserted", counted(refunds("new_refunds"), sign: 1))
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_updated", [summaries.difference(
            before: RefundSummarySQL.withProducts(refunds("changed_old")), as: category,
            after: RefundSummarySQL.withProducts(refunds("changed_new")), as: category, with: changedRefunds)])
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_deleted", counted(refunds("old_refunds"), sign: -1))
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_orders_updated", [summaries.difference(
            before: RefundSummarySQL.withProducts("""
                FROM order_refunds r JOIN (SELECT id, old_currency AS currency, old_status AS status FROM moved) o ON o.id = r.order_id
                """), as: category,
            after: RefundSummarySQL.withProducts("FROM order_refunds r JOIN moved o ON o.id = r.order_id"), as: category,
            with: movedOrders)])
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_products_updated", [summaries.difference(
            before: ofRecategorised, as: RefundSummarySQL.categories(category: "was.category"), after: ofRecategorised, as: category,
            with: recategorised)])
        // Its returns still name it: they move to "no product".
        all += PostgresServerRules.triggerFunction("shopsh_refund_categories_product_go", [summaries.difference(
            before: RefundSummarySQL.withProducts(allRefunds), as: category,
            after: RefundSummarySQL.withProducts(allRefunds), as: RefundSummarySQL.categories(gone: "true"), where: "r.product_id = OLD.id")],
            returning: "OLD")
        all += triggers.map(\.sql)
        return all
    }

    /// Before a seed's rows (the owner's, into an empty store): the triggers rest.
    package static let beforeSeed = triggers.map(\.disable)

    /// After a seed's rows: the summary counted once, and the triggers back.
    package static let afterSeed = summaries.refillCategories + triggers.map(\.enable)
}
