// CategorySummarySchema: Schema v16 — the category summary (CategorySummarySQL) in SQLite: its
// table, and the triggers that keep it equal to a recount from the orders' lines through any change
// (shopsh's, or a statement at sqlite3). Each recounts the orders a row touches — the difference
// between their lines as they stand after the change and as they stood before it, in one
// statement: a line added, changed or deleted; an order whose day, currency or status changes; a
// product whose category changes (the orders holding it); a product deleted (before it goes,
// while its lines still name it: they count as having no product; losing the id then moves
// nothing more).

import ShopStoreKit

extension Schema {
    /// SQLite's category summary: an order's day is the date its `created_at` text starts with.
    static let categorySummary = CategorySummarySQL(day: "substr(o.created_at, 1, 10)")

    /// The table's DDL (v16).
    static let categorySummaryTable = """
        CREATE TABLE sales_day_categories (
            day        TEXT NOT NULL,
            currency   TEXT NOT NULL,
            status     TEXT NOT NULL,
            no_product INTEGER NOT NULL,   -- 1: lines whose product was deleted (category '')
            category   TEXT NOT NULL,      -- the product's, as it is now
            orders     INTEGER NOT NULL,   -- orders holding such lines, each once
            items      INTEGER NOT NULL,
            gross      INTEGER NOT NULL,
            net        INTEGER NOT NULL,
            PRIMARY KEY (day, currency, status, no_product, category)
        ) WITHOUT ROWID;
        """

    /// The summary recounted from the orders' lines (v16, and after a seed, which writes without the triggers).
    static var refillCategorySummary: String { categorySummary.refill.map { $0 + ";" }.joined(separator: "\n") }

    /// A trigger's body recounting orders (CategorySummarySQL.recount).
    private static func recounted(_ statement: String) -> String { statement + ";" }

    /// The triggers that keep the summary (a seed drops them and refills once).
    static let categorySummaryTriggers: [(name: String, sql: String)] = {
        let lines = CategorySummarySQL.lines
        let orderAsItWas = "(SELECT " + (["id"] + CategorySummarySQL.orderColumns).map { "OLD.\($0) AS \($0)" }.joined(separator: ", ") + ")"
        let holding = { (product: String) in "(SELECT order_id FROM order_lines WHERE product_id = \(product).id)" }
        return [
            ("order_lines_category_summary_insert", """
                CREATE TRIGGER order_lines_category_summary_insert AFTER INSERT ON order_lines BEGIN
                \(recounted(categorySummary.recount(before: lines("(NEW.order_id)", "(SELECT NEW.order_id, NEW.line_number)", nil),
                                                     after: lines("(NEW.order_id)", nil, nil)))) END
                """),
            ("order_lines_category_summary_update", """
                CREATE TRIGGER order_lines_category_summary_update AFTER UPDATE OF \(CategorySummarySQL.lineColumns.joined(separator: ", ")) ON order_lines BEGIN
                \(recounted(categorySummary.recount(
                    before: lines("(OLD.order_id, NEW.order_id)", "(SELECT NEW.order_id, NEW.line_number)", CategorySummarySQL.line("OLD")),
                    after: lines("(OLD.order_id, NEW.order_id)", nil, nil)))) END
                """),
            ("order_lines_category_summary_delete", """
                CREATE TRIGGER order_lines_category_summary_delete AFTER DELETE ON order_lines BEGIN
                \(recounted(categorySummary.recount(before: lines("(OLD.order_id)", nil, CategorySummarySQL.line("OLD")),
                                                     after: lines("(OLD.order_id)", nil, nil)))) END
                """),
            ("orders_category_summary_update", """
                CREATE TRIGGER orders_category_summary_update AFTER UPDATE OF \(CategorySummarySQL.orderColumns.joined(separator: ", ")) ON orders BEGIN
                \(recounted(categorySummary.recount(before: lines("(OLD.id)", nil, nil), after: lines("(NEW.id)", nil, nil),
                                                     beforeOrders: orderAsItWas))) END
                """),
            ("products_category_summary_update", """
                CREATE TRIGGER products_category_summary_update AFTER UPDATE OF category ON products
                WHEN OLD.category IS NOT NEW.category BEGIN
                \(recounted(categorySummary.recount(before: lines(holding("NEW"), nil, nil), after: lines(holding("NEW"), nil, nil),
                                                     beforeCategory: "CASE WHEN l.product_id = NEW.id THEN OLD.category ELSE p.category END"))) END
                """),
            ("products_category_summary_delete", """
                CREATE TRIGGER products_category_summary_delete BEFORE DELETE ON products BEGIN
                \(recounted(categorySummary.recount(before: lines(holding("OLD"), nil, nil), after: lines(holding("OLD"), nil, nil),
                                                     afterGone: "p.id IS NULL OR l.product_id = OLD.id"))) END
                """),
        ]
    }()
}
