// PostgresBasketSummarySchema: migration 19 (with PostgresSalesSummarySchema) — `basket_summaries`,
// each non-empty basket's lines, items, totals at today's prices and last change, so that
// `basket list --idle/--min-total/--sort` reads a page of them instead of every line (issue 40).
// The same table and meanings as SQLite's (SalesSummarySchema). Statement-level triggers recount
// the baskets a statement touched: its basket lines (inserted, changed, deleted — a user or a
// product deleted takes theirs), and the baskets holding a product whose price or discount moved.

import ShopStoreKit

/// The DDL of migration 19's basket summaries (constant SQL; the schema's name is quoted by the server).
package enum PostgresBasketSummarySchema {
    /// The triggers a seed rests while it writes (then the summaries are recounted once).
    static let triggers: [(table: String, name: String)] = [
        ("basket_lines", "basket_lines_summary_insert"), ("basket_lines", "basket_lines_summary_update"),
        ("basket_lines", "basket_lines_summary_delete"), ("products", "products_basket_summary_update"),
    ]

    /// Every basket recounted (migration 19, and after a seed).
    package static let refill = ["DELETE FROM basket_summaries", "SELECT shopsh_recount_baskets(ARRAY(SELECT DISTINCT user_id FROM basket_lines))"]

    /// The statements recounting the baskets of the users in `users` (an array expression) from
    /// their lines, in user order: `shopsh_recount_baskets`'s body (migrations 19 and 26).
    static func recount(_ users: String) -> [String] {
        [
            "DELETE FROM basket_summaries WHERE user_id = ANY(\(users))",
            """
            INSERT INTO basket_summaries (user_id, lines, items, total, discounted_total, last_change)
            SELECT b.user_id, count(*), sum(b.quantity), sum(p.price_minor * b.quantity),
                   sum(\(LineTotalSQL.discounted(unitPrice: "p.price_minor", quantity: "b.quantity", discount: "p.discount_hundredths"))),
                   max(date_trunc('second', COALESCE(b.changed_at, b.added_at)))
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = ANY(\(users)) GROUP BY b.user_id ORDER BY b.user_id
            """,
        ]
    }

    /// A statement-level trigger function recounting the baskets of the users `users` selects.
    private static func recounting(_ name: String, _ users: String) -> [String] {
        PostgresServerRules.triggerFunction(name, ["PERFORM shopsh_recount_baskets(ARRAY(\(users)))"])
    }

    package static var statements: [String] {
        var all = [
            """
            CREATE TABLE basket_summaries (
                user_id          BIGINT PRIMARY KEY,
                lines            BIGINT NOT NULL,
                items            BIGINT NOT NULL,
                total            BIGINT NOT NULL,
                discounted_total BIGINT NOT NULL,
                last_change      TIMESTAMPTZ NOT NULL   -- in whole seconds, as listings show it
            )
            """,
            "CREATE INDEX basket_summaries_by_last_change ON basket_summaries (last_change, user_id)",
            "CREATE INDEX basket_summaries_by_total ON basket_summaries (total, user_id)",
            // The baskets of `users` recounted from their lines, in user order.
            PostgresServerRules.inThisSchema("""
                CREATE FUNCTION shopsh_recount_baskets(users BIGINT[]) RETURNS void
                LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                \(PostgresServerRules.formatted(recount("users").joined(separator: ";\n")));
                $body$
                """),
            "REVOKE ALL ON FUNCTION shopsh_recount_baskets(BIGINT[]) FROM PUBLIC",
        ] + refill
        all += recounting("shopsh_baskets_lines_inserted", "SELECT DISTINCT user_id FROM new_lines")
        all += recounting("shopsh_baskets_lines_updated", "SELECT user_id FROM old_lines UNION SELECT user_id FROM new_lines")
        all += recounting("shopsh_baskets_lines_deleted", "SELECT DISTINCT user_id FROM old_lines")
        all += recounting("shopsh_baskets_prices_moved", """
            SELECT DISTINCT b.user_id FROM old_products o JOIN new_products n ON n.id = o.id
            JOIN basket_lines b ON b.product_id = n.id
            WHERE (o.price_minor, o.discount_hundredths) IS DISTINCT FROM (n.price_minor, n.discount_hundredths)
            """)
        all += [
            "CREATE TRIGGER basket_lines_summary_insert AFTER INSERT ON basket_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_baskets_lines_inserted()",
            "CREATE TRIGGER basket_lines_summary_update AFTER UPDATE ON basket_lines REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_baskets_lines_updated()",
            "CREATE TRIGGER basket_lines_summary_delete AFTER DELETE ON basket_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_baskets_lines_deleted()",
            "CREATE TRIGGER products_basket_summary_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION shopsh_baskets_prices_moved()",
        ]
        return all
    }

    /// Before a seed's rows (the owner's, into an empty store): the triggers rest.
    package static let beforeSeed = triggers.map { "ALTER TABLE \($0.table) DISABLE TRIGGER \($0.name)" }

    /// After a seed's rows: every basket counted once, and the triggers back.
    package static let afterSeed = refill + triggers.map { "ALTER TABLE \($0.table) ENABLE TRIGGER \($0.name)" }
}
