// PostgresSalesSchema: migration v9 — what sales reports read without touching every order: each
// order's units (`orders.items`, kept by the server from the lines it gets) and `sales_days`,
// every day's figures per currency and status, kept by the server's triggers on orders. Nobody
// but those triggers writes it; every role reads it.

/// The statements of migration v9.
package enum PostgresSalesSchema {
    package static let statements: [String] = [
        "ALTER TABLE orders ADD COLUMN items BIGINT NOT NULL DEFAULT 0",
        // Filling the new column is no operator's change: the audit triggers leave it out.
        "INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id())",
        """
        UPDATE orders o SET items = t.items
        FROM (SELECT order_id, sum(quantity) AS items FROM order_lines GROUP BY order_id) t WHERE t.order_id = o.id
        """,
        "DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id()",
        // Order lines are only ever inserted (by checkout, or a seed as the owner): the units an
        // order's lines bring are added once per statement.
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_count_order_items() RETURNS trigger
            LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
                UPDATE orders o SET items = o.items + n.items
                FROM (SELECT order_id, sum(quantity) AS items FROM new_lines GROUP BY order_id) n
                WHERE o.id = n.order_id;
                RETURN NULL;
            END
            $body$
            """),
        "REVOKE ALL ON FUNCTION shopsh_count_order_items() FROM PUBLIC",
        """
        CREATE TRIGGER order_lines_count_items AFTER INSERT ON order_lines
        REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_count_order_items()
        """,
        """
        CREATE TABLE sales_days (
            day      DATE NOT NULL,
            currency TEXT NOT NULL,
            status   TEXT NOT NULL,
            orders   BIGINT NOT NULL,
            items    BIGINT NOT NULL,
            gross    BIGINT NOT NULL,
            net      BIGINT NOT NULL,
            PRIMARY KEY (day, currency, status)
        )
        """,
        refillSalesDays,
        // An order counts on its day (UTC), in its currency and status; a change takes it out of
        // its old row and adds it to the new one.
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_count_sales() RETURNS trigger
            LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE sales_days s SET orders = s.orders - 1, items = s.items - OLD.items,
                                            gross = s.gross - OLD.total_minor, net = s.net - OLD.discounted_total_minor
                    WHERE s.day = (OLD.created_at AT TIME ZONE 'UTC')::date AND s.currency = OLD.currency AND s.status = OLD.status;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    INSERT INTO sales_days AS s (day, currency, status, orders, items, gross, net)
                    VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.currency, NEW.status, 1, NEW.items,
                            NEW.total_minor, NEW.discounted_total_minor)
                    ON CONFLICT (day, currency, status) DO UPDATE SET orders = s.orders + 1, items = s.items + EXCLUDED.items,
                        gross = s.gross + EXCLUDED.gross, net = s.net + EXCLUDED.net;
                END IF;
                RETURN NULL;
            END
            $body$
            """),
        "REVOKE ALL ON FUNCTION shopsh_count_sales() FROM PUBLIC",
        """
        CREATE TRIGGER orders_count_sales
        AFTER INSERT OR DELETE OR UPDATE OF created_at, currency, status, items, total_minor, discounted_total_minor ON orders
        FOR EACH ROW EXECUTE FUNCTION shopsh_count_sales()
        """,
    ]

    /// `sales_days` rebuilt from the orders (v9, and after a seed, which writes without the triggers
    /// of migration 19, PostgresSalesSummarySchema, that keep it since).
    package static let refillSalesDays = """
        INSERT INTO sales_days (day, currency, status, orders, items, gross, net)
        SELECT (created_at AT TIME ZONE 'UTC')::date, currency, status, count(*), sum(items), sum(total_minor),
               sum(discounted_total_minor)
        FROM orders GROUP BY 1, 2, 3
        """
}
