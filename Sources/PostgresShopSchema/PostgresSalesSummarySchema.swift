// PostgresSalesSummarySchema: migration 19 — what the product and customer reports read instead of
// every order line (issue 40), and `sales_days` kept per statement:
//
// - `sales_day_products`: each day's figures per product (as the line named it; 0 once the product
//   was deleted), currency and status; `sales_day_customers`: the same per customer (0 once the
//   user was deleted). The same tables and meanings as SQLite's (SalesSummarySchema).
// - Statement-level triggers with transition tables keep them and `sales_days`: a statement that
//   changes 500,000 orders adds and takes away grouped sums once, set-based, instead of running a
//   function per row. An UPDATE trigger cannot name columns when it has transition tables: it
//   compares each row's old and new values and counts only rows whose figures moved.
// - Rows are upserted in key order, so two statements never lock two summary rows in opposite orders.
// - An order deleted deletes its lines first (a row trigger before it goes), so that they are
//   counted out under its day; by the time a statement trigger on orders runs they are gone.

import ShopStoreKit

/// The DDL of migration 19 (constant SQL; the schema's name is quoted by the server).
package enum PostgresSalesSummarySchema {
    /// The triggers a seed rests while it writes (then the tables are recounted once).
    static let triggers: [(table: String, name: String)] = [
        ("orders", "orders_sales_insert"), ("orders", "orders_sales_update"), ("orders", "orders_sales_delete"),
        ("orders", "orders_lines_delete"),
        ("order_lines", "order_lines_sales_insert"), ("order_lines", "order_lines_sales_update"), ("order_lines", "order_lines_sales_delete"),
    ]

    /// An order's day: its creation's date in UTC.
    static func day(_ order: String) -> String { "(\(order).created_at AT TIME ZONE 'UTC')::date" }

    /// The three summaries of orders `rows` (an alias over orders' columns), grouped, added with `sign`.
    private static func countOrders(_ rows: String, sign: String) -> [String] {
        [
            apply(table: "sales_days", key: ["day", "currency", "status"], sign: sign, select: """
                SELECT \(day("r")), r.currency, r.status, count(*), sum(r.items), sum(r.total_minor), sum(r.discounted_total_minor)
                FROM \(rows) r GROUP BY 1, 2, 3
                """),
            apply(table: "sales_day_customers", key: ["day", "currency", "status", "user_id", "customer"], sign: sign, select: """
                SELECT \(day("r")), r.currency, r.status, COALESCE(r.user_id, 0), r.customer, count(*), sum(r.items),
                       sum(r.total_minor), sum(r.discounted_total_minor)
                FROM \(rows) r GROUP BY 1, 2, 3, 4, 5
                """),
        ]
    }

    /// Lines `lines` (an alias over order lines' columns) of orders `orders` (over orders'
    /// columns), counted into the product summary with `sign`.
    private static func countLines(_ lines: String, of orders: String, sign: String) -> String {
        apply(table: "sales_day_products", key: ["day", "currency", "status", "product_id", "sku"], sign: sign, extra: "title", select: """
            SELECT \(day("o")), o.currency, o.status, COALESCE(l.product_id, 0), l.sku, count(*), sum(l.quantity)::bigint,
                   sum(l.unit_price_minor * l.quantity)::bigint, sum(\(LineTotalSQL.orderLinePaid("l")))::bigint, max(l.title)
            FROM \(lines) l JOIN \(orders) o ON o.id = l.order_id GROUP BY 1, 2, 3, 4, 5
            """)
    }

    /// `select` (the key columns, orders, items, gross, net and `extra`) added to (`+`) or taken
    /// from (`-`) `table`, in key order.
    private static func apply(table: String, key: [String], sign: String, extra: String? = nil, select: String) -> String {
        let figures = ["orders", "items", "gross", "net"]
        let columns = key + figures + (extra.map { [$0] } ?? [])
        if sign == "+" {
            let updates = figures.map { "\($0) = t.\($0) + EXCLUDED.\($0)" } + (extra.map { ["\($0) = GREATEST(t.\($0), EXCLUDED.\($0))"] } ?? [])
            return """
                INSERT INTO \(table) AS t (\(columns.joined(separator: ", ")))
                SELECT * FROM (\(select)) c ORDER BY \((1...key.count).map(String.init).joined(separator: ", "))
                ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))
                """
        }
        let named = columns.enumerated().map { "c\($0.offset)" }
        return """
            UPDATE \(table) t SET \(figures.enumerated().map { "\($0.element) = t.\($0.element) - c.c\(key.count + $0.offset)" }.joined(separator: ", "))
            FROM (SELECT * FROM (\(select)) x(\(named.joined(separator: ", "))) ORDER BY \((1...key.count).map(String.init).joined(separator: ", "))) c
            WHERE \(key.enumerated().map { "t.\($0.element) = c.c\($0.offset)" }.joined(separator: " AND "))
            """
    }

    /// Orders whose summarised values differ between `old_orders` and `new_orders`, as `side` had them.
    private static func movedOrders(_ side: String, linesOnly: Bool) -> String {
        let columns = linesOnly ? ["created_at", "currency", "status"]
            : ["created_at", "currency", "status", "user_id", "customer", "items", "total_minor", "discounted_total_minor"]
        return """
            (SELECT \(side).* FROM old_orders o JOIN new_orders n ON n.id = o.id
             WHERE (\(columns.map { "o.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(columns.map { "n.\($0)" }.joined(separator: ", "))))
            """
    }

    /// Order lines whose summarised values differ between `old_lines` and `new_lines`, as `side` had them.
    private static func movedLines(_ side: String) -> String {
        let columns = ["order_id", "product_id", "sku", "title", "unit_price_minor", "discount_hundredths", "quantity", "coupon_minor"]
        return """
            (SELECT \(side).* FROM old_lines o JOIN new_lines n ON n.order_id = o.order_id AND n.line_number = o.line_number
             WHERE (\(columns.map { "o.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(columns.map { "n.\($0)" }.joined(separator: ", "))))
            """
    }

    /// The products' and customers' summaries recounted from the orders (migration 19, and after a seed).
    package static let refill: [String] = [
        "DELETE FROM sales_day_products",
        """
        INSERT INTO sales_day_products (day, currency, status, product_id, sku, orders, items, gross, net, title)
        SELECT \(day("o")), o.currency, o.status, COALESCE(l.product_id, 0), l.sku, count(*), sum(l.quantity)::bigint,
               sum(l.unit_price_minor * l.quantity)::bigint, sum(\(LineTotalSQL.orderLinePaid("l")))::bigint, max(l.title)
        FROM order_lines l JOIN orders o ON o.id = l.order_id GROUP BY 1, 2, 3, 4, 5
        """,
        "DELETE FROM sales_day_customers",
        """
        INSERT INTO sales_day_customers (day, currency, status, user_id, customer, orders, items, gross, net)
        SELECT \(day("o")), o.currency, o.status, COALESCE(o.user_id, 0), o.customer, count(*), sum(o.items),
               sum(o.total_minor), sum(o.discounted_total_minor)
        FROM orders o GROUP BY 1, 2, 3, 4, 5
        """,
    ]

    package static var statements: [String] {
        var all = [
            """
            CREATE TABLE sales_day_products (
                day        DATE NOT NULL,
                currency   TEXT NOT NULL,
                status     TEXT NOT NULL,
                product_id BIGINT NOT NULL,
                sku        TEXT NOT NULL,
                title      TEXT NOT NULL,
                orders     BIGINT NOT NULL,
                items      BIGINT NOT NULL,
                gross      BIGINT NOT NULL,
                net        BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, product_id, sku)
            )
            """,
            """
            CREATE TABLE sales_day_customers (
                day      DATE NOT NULL,
                currency TEXT NOT NULL,
                status   TEXT NOT NULL,
                user_id  BIGINT NOT NULL,
                customer TEXT NOT NULL,
                orders   BIGINT NOT NULL,
                items    BIGINT NOT NULL,
                gross    BIGINT NOT NULL,
                net      BIGINT NOT NULL,
                PRIMARY KEY (day, currency, status, user_id, customer)
            )
            """,
            // Per statement from now on: the row trigger of migration 9 goes.
            "DROP TRIGGER orders_count_sales ON orders",
        ] + refill
        all += PostgresServerRules.triggerFunction("shopsh_sales_orders_inserted", countOrders("new_orders", sign: "+"))
        all += PostgresServerRules.triggerFunction("shopsh_sales_orders_updated",
                        countOrders(movedOrders("o", linesOnly: false), sign: "-") + countOrders(movedOrders("n", linesOnly: false), sign: "+")
                        + [countLines("order_lines", of: movedOrders("o", linesOnly: true), sign: "-"),
                           countLines("order_lines", of: movedOrders("n", linesOnly: true), sign: "+")])
        all += PostgresServerRules.triggerFunction("shopsh_sales_orders_deleted", countOrders("old_orders", sign: "-"))
        all += PostgresServerRules.triggerFunction("shopsh_sales_lines_inserted", [countLines("new_lines", of: "orders", sign: "+")])
        all += PostgresServerRules.triggerFunction("shopsh_sales_lines_updated", [countLines(movedLines("o"), of: "orders", sign: "-"),
                                                       countLines(movedLines("n"), of: "orders", sign: "+")])
        all += PostgresServerRules.triggerFunction("shopsh_sales_lines_deleted", [countLines("old_lines", of: "orders", sign: "-")])
        // An order's lines, counted out while the order is still there to say under which day.
        all += PostgresServerRules.deletesBeforeTheOrder("shopsh_sales_order_lines_go", table: "order_lines")
        all += [
            "CREATE TRIGGER orders_sales_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_orders_inserted()",
            "CREATE TRIGGER orders_sales_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_orders_updated()",
            "CREATE TRIGGER orders_sales_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_orders_deleted()",
            "CREATE TRIGGER orders_lines_delete BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION shopsh_sales_order_lines_go()",
            "CREATE TRIGGER order_lines_sales_insert AFTER INSERT ON order_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_lines_inserted()",
            "CREATE TRIGGER order_lines_sales_update AFTER UPDATE ON order_lines REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_lines_updated()",
            "CREATE TRIGGER order_lines_sales_delete AFTER DELETE ON order_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION shopsh_sales_lines_deleted()",
        ]
        return all
    }

    /// Before a seed's rows (the owner's, into an empty store): the triggers rest.
    package static let beforeSeed = triggers.map { "ALTER TABLE \($0.table) DISABLE TRIGGER \($0.name)" }

    /// After a seed's rows: every summary counted once, and the triggers back.
    package static let afterSeed = ["DELETE FROM sales_days", PostgresSalesSchema.refillSalesDays] + refill
        + triggers.map { "ALTER TABLE \($0.table) ENABLE TRIGGER \($0.name)" }
}
