// PostgresCategorySummarySchema: migration 28 — the category summary (CategorySummarySQL) on the
// server: the same table and meaning as SQLite's (CategorySummarySchema), kept by statement-level
// triggers with transition tables, so that a statement changing many lines, orders or products
// recounts the orders it touched once, set-based:
//
// - lines inserted, changed (a row whose counted columns moved) or deleted: the difference between
//   their orders' lines as they stand and as they stood (the table without the statement's new
//   rows, with its old ones) is added, in one statement;
// - orders whose day, currency or status changed: their lines move from the old to the new;
// - products whose category changed: the orders holding them are recounted under the products as
//   they stood (`old_products`) and as they stand;
// - a product deleted (a row trigger before it goes, while its lines still name it): the orders
//   holding it are recounted with its lines as having no product. Its lines then lose the id (the
//   foreign key's SET NULL), which moves nothing more.
// An order deleted deletes its lines first (migration 19's row trigger), so they are counted out.

import ShopStoreKit

/// The DDL of migration 28 (constant SQL; the schema's name is quoted by the server).
package enum PostgresCategorySummarySchema {
    /// The server's category summary: an order's day is its creation's date in UTC.
    package static let summary = CategorySummarySQL(day: PostgresSalesSummarySchema.day("o"), sum: { "sum(\($0))::bigint" })

    /// The triggers a seed rests while it writes (then the table is recounted once).
    static let triggers: [(table: String, name: String)] = [
        ("order_lines", "order_lines_category_summary_insert"), ("order_lines", "order_lines_category_summary_update"),
        ("order_lines", "order_lines_category_summary_delete"), ("orders", "orders_category_summary_update"),
        ("products", "products_category_summary_update"), ("products", "products_category_summary_delete"),
    ]

    /// `rows` (a transition table) projected on the lines' counted columns.
    private static func lineRows(_ rows: String) -> String {
        "SELECT \(CategorySummarySQL.lineColumns.joined(separator: ", ")) FROM \(rows)"
    }

    package static var statements: [String] {
        let lines = CategorySummarySQL.lines
        // A line UPDATE's rows that changed a counted column, as they were and as they are, and their orders.
        let changedLines = """
            changed_old AS (\(lineRows("old_lines")) EXCEPT ALL \(lineRows("new_lines"))),
            changed_new AS (\(lineRows("new_lines")) EXCEPT ALL \(lineRows("old_lines"))),
            touched AS (SELECT order_id FROM changed_old UNION SELECT order_id FROM changed_new)
            """
        // An orders UPDATE's rows whose day, currency or status moved, with the old values.
        let day = { (alias: String) in "\(PostgresSalesSummarySchema.day(alias)), \(alias).currency, \(alias).status" }
        let movedOrders = """
            moved AS (SELECT n.id, n.created_at, n.currency, n.status, o.created_at AS old_created_at,
                             o.currency AS old_currency, o.status AS old_status
                      FROM old_orders o JOIN new_orders n ON n.id = o.id WHERE (\(day("o"))) IS DISTINCT FROM (\(day("n")))),
            moved_before AS (SELECT id, old_created_at AS created_at, old_currency AS currency, old_status AS status FROM moved)
            """
        // A products UPDATE's recategorised products, the orders holding them, and every product
        // as it stood before the statement.
        let recategorised = """
            holding AS (SELECT l.order_id FROM order_lines l WHERE l.product_id IN
                (SELECT o.id FROM old_products o JOIN new_products n ON n.id = o.id WHERE o.category IS DISTINCT FROM n.category)),
            products_before AS (SELECT id, category FROM old_products
                                UNION ALL SELECT id, category FROM products WHERE id NOT IN (SELECT id FROM new_products))
            """
        let holdingOld = "(SELECT order_id FROM order_lines WHERE product_id = OLD.id)"
        var all = [
            """
            CREATE TABLE sales_day_categories (
                day        DATE NOT NULL,
                currency   TEXT NOT NULL,
                status     TEXT NOT NULL,
                no_product INTEGER NOT NULL,
                category   TEXT NOT NULL,
                orders     BIGINT NOT NULL,
                items      BIGINT NOT NULL,
                gross      BIGINT NOT NULL,
                net        BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, no_product, category)
            )
            """,
        ] + summary.refill
        all += PostgresServerRules.triggerFunction("shopsh_categories_lines_inserted", [summary.recount(
            before: lines("(SELECT order_id FROM new_lines)", "(SELECT order_id, line_number FROM new_lines)", nil),
            after: lines("(SELECT order_id FROM new_lines)", nil, nil))])
        all += PostgresServerRules.triggerFunction("shopsh_categories_lines_updated", [summary.recount(
            before: lines("(SELECT order_id FROM touched)", "(SELECT order_id, line_number FROM changed_new)", "SELECT * FROM changed_old"),
            after: lines("(SELECT order_id FROM touched)", nil, nil), with: changedLines)])
        all += PostgresServerRules.triggerFunction("shopsh_categories_lines_deleted", [summary.recount(
            before: lines("(SELECT order_id FROM old_lines)", nil, lineRows("old_lines")),
            after: lines("(SELECT order_id FROM old_lines)", nil, nil))])
        all += PostgresServerRules.triggerFunction("shopsh_categories_orders_updated", [summary.recount(
            before: lines("(SELECT id FROM moved)", nil, nil), after: lines("(SELECT id FROM moved)", nil, nil),
            beforeOrders: "moved_before", afterOrders: "moved", with: movedOrders)])
        all += PostgresServerRules.triggerFunction("shopsh_categories_products_updated", [summary.recount(
            before: lines("(SELECT order_id FROM holding)", nil, nil), after: lines("(SELECT order_id FROM holding)", nil, nil),
            beforeProducts: "products_before", with: recategorised)])
        all += [
            PostgresServerRules.inThisSchema("""
                CREATE FUNCTION shopsh_categories_product_go() RETURNS trigger
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                BEGIN
                -- Its lines still name it: the orders holding it are recounted with them as having no product.
                \(PostgresServerRules.formatted(summary.recount(before: lines(holdingOld, nil, nil), after: lines(holdingOld, nil, nil),
                                                               afterGone: "p.id IS NULL OR l.product_id = OLD.id")));
                RETURN OLD;
                END
                $body$
                """),
            "REVOKE ALL ON FUNCTION shopsh_categories_product_go() FROM PUBLIC",
            "CREATE TRIGGER order_lines_category_summary_insert AFTER INSERT ON order_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_categories_lines_inserted()",
            "CREATE TRIGGER order_lines_category_summary_update AFTER UPDATE ON order_lines REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_categories_lines_updated()",
            "CREATE TRIGGER order_lines_category_summary_delete AFTER DELETE ON order_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_categories_lines_deleted()",
            "CREATE TRIGGER orders_category_summary_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION shopsh_categories_orders_updated()",
            "CREATE TRIGGER products_category_summary_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION shopsh_categories_products_updated()",
            "CREATE TRIGGER products_category_summary_delete BEFORE DELETE ON products FOR EACH ROW EXECUTE FUNCTION shopsh_categories_product_go()",
        ]
        return all
    }

    /// Before a seed's rows (the owner's, into an empty store): the triggers rest.
    package static let beforeSeed = triggers.map { "ALTER TABLE \($0.table) DISABLE TRIGGER \($0.name)" }

    /// After a seed's rows: the summary counted once, and the triggers back.
    package static let afterSeed = summary.refill + triggers.map { "ALTER TABLE \($0.table) ENABLE TRIGGER \($0.name)" }
}
