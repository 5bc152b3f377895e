// SalesSummarySchema: Schema v14 — what reports and listings read instead of every row (issue 40).
// `basket_summaries`: each non-empty basket's lines, items, totals at today's prices and last
// change, kept by triggers on basket lines and on products' prices and discounts, so that
// `basket list --idle/--min-total/--sort` reads a page of them. For the product and customer
// reports: `sales_day_products`, each day's figures per product (as the line named
// it), currency and status, and `sales_day_customers`, the same per customer. Triggers keep both
// equal to a recount from the orders and their lines, through any change (shopsh's, or a
// statement at sqlite3): a line added, changed or taken away, an order whose day, currency,
// status, customer or figures change, a product or user deleted (their lines and orders lose the
// id). A seed fills them once at its end (`refillSalesSummaries`).

import ShopStoreKit

extension Schema {
    /// The tables' DDL (v14).
    static let salesSummaryTables = """
        CREATE TABLE sales_day_products (
            day        TEXT NOT NULL,
            currency   TEXT NOT NULL,
            status     TEXT NOT NULL,
            product_id INTEGER NOT NULL,   -- the line's product, 0 once it was deleted
            sku        TEXT NOT NULL,
            title      TEXT NOT NULL,
            orders     INTEGER NOT NULL,   -- lines (an order holds a product on one line)
            items      INTEGER NOT NULL,
            gross      INTEGER NOT NULL,
            net        INTEGER NOT NULL,
            PRIMARY KEY (day, product_id, sku, currency, status)
        ) WITHOUT ROWID;
        CREATE TABLE sales_day_customers (
            day      TEXT NOT NULL,
            currency TEXT NOT NULL,
            status   TEXT NOT NULL,
            user_id  INTEGER NOT NULL,     -- the order's customer, 0 once they were deleted
            customer TEXT NOT NULL,
            orders   INTEGER NOT NULL,
            items    INTEGER NOT NULL,
            gross    INTEGER NOT NULL,
            net      INTEGER NOT NULL,
            PRIMARY KEY (day, user_id, customer, currency, status)
        ) WITHOUT ROWID;
        """

    /// The basket summaries' DDL (v14).
    static let basketSummaryTable = """
        CREATE TABLE basket_summaries (
            user_id          INTEGER PRIMARY KEY,
            lines            INTEGER NOT NULL,
            items            INTEGER NOT NULL,
            total            INTEGER NOT NULL,   -- at today's prices, before discounts
            discounted_total INTEGER NOT NULL,   -- each line's discount rounded once (LineTotalSQL)
            last_change      TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX basket_summaries_by_last_change ON basket_summaries(last_change, user_id);
        CREATE INDEX basket_summaries_by_total ON basket_summaries(total, user_id);
        """

    /// The baskets of `users` (an SQL list or subquery of user ids) recounted from their lines.
    static func recountBaskets(_ users: String) -> String {
        """
        DELETE FROM basket_summaries WHERE user_id IN \(users);
        INSERT INTO basket_summaries (user_id, lines, items, total, discounted_total, last_change)
        SELECT b.user_id, count(*), sum(b.quantity), sum(p.price_minor * b.quantity),
               sum(\(LineTotalSQL.discounted(unitPrice: "p.price_minor", quantity: "b.quantity", discount: "p.discount_hundredths"))),
               max(coalesce(b.changed_at, b.added_at))
        FROM basket_lines b JOIN products p ON p.id = b.product_id
        WHERE b.user_id IN \(users) GROUP BY b.user_id;
        """
    }

    /// v18: a product's price or discount recounts the baskets holding it, and only when some
    /// basket does: v14's trigger ran its recount (a DELETE and an INSERT, each with its own
    /// look-up) for every product changed, and a bulk change of 100,000 prices spent 2.8 of its
    /// 3.2 s at sqlite3 there. Same baskets recounted, same figures.
    static let basketPriceTrigger: (name: String, sql: String) = ("products_basket_summary_update", """
        CREATE TRIGGER products_basket_summary_update AFTER UPDATE OF price_minor, discount_hundredths ON products
        WHEN EXISTS (SELECT 1 FROM basket_lines WHERE product_id = NEW.id) BEGIN
        \(recountBaskets("(SELECT user_id FROM basket_lines WHERE product_id = NEW.id)")) END
        """)

    /// Both summaries recounted from the orders (v14, and after a seed, which writes without the triggers).
    static let refillSalesSummaries = """
        DELETE FROM sales_day_products;
        INSERT INTO sales_day_products (day, currency, status, product_id, sku, title, orders, items, gross, net)
        SELECT substr(o.created_at, 1, 10), o.currency, o.status, coalesce(l.product_id, 0), l.sku, max(l.title),
               count(*), sum(l.quantity), sum(l.unit_price_minor * l.quantity), sum(\(LineTotalSQL.orderLinePaid("l")))
        FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
        GROUP BY 1, 2, 3, 4, 5;
        DELETE FROM sales_day_customers;
        INSERT INTO sales_day_customers (day, currency, status, user_id, customer, orders, items, gross, net)
        SELECT substr(created_at, 1, 10), currency, status, coalesce(user_id, 0), customer, count(*), sum(items),
               sum(total_minor), sum(discounted_total_minor)
        FROM orders GROUP BY 1, 2, 3, 4, 5;
        DELETE FROM basket_summaries;
        """ + recountBaskets("(SELECT user_id FROM basket_lines)")

    /// Lines' figures counted into (`sign` 1) or out of (-1) the product summary, under their
    /// order's day, currency and status, added up per summary row first. `line` and `order` are
    /// the row aliases (`NEW`, `OLD`, `l`, `o`) that `from` (a FROM … WHERE …) binds.
    private static func countLines(_ line: String, order: String, from: String, sign: Int) -> String {
        let select = """
            SELECT substr(\(order).created_at, 1, 10) AS k_day, \(order).currency AS k_currency, \(order).status AS k_status,
                   coalesce(\(line).product_id, 0) AS k_product, \(line).sku AS k_sku, max(\(line).title) AS x_title,
                   count(*) AS x_orders, sum(\(line).quantity) AS x_items, sum(\(line).unit_price_minor * \(line).quantity) AS x_gross,
                   sum(\(LineTotalSQL.orderLinePaid(line))) AS x_net
            \(from) GROUP BY 1, 2, 3, 4, 5
            """
        if sign > 0 {
            return """
                INSERT INTO sales_day_products (day, currency, status, product_id, sku, title, orders, items, gross, net)
                SELECT * FROM (\(select)) WHERE true
                ON CONFLICT (day, product_id, sku, currency, status) DO UPDATE SET orders = orders + excluded.orders,
                    items = items + excluded.items, gross = gross + excluded.gross, net = net + excluded.net,
                    title = max(title, excluded.title);
                """
        }
        return """
            UPDATE sales_day_products SET orders = orders - x.x_orders, items = items - x.x_items, gross = gross - x.x_gross,
                                          net = net - x.x_net
            FROM (\(select)) x
            WHERE day = x.k_day AND currency = x.k_currency AND status = x.k_status AND product_id = x.k_product AND sku = x.k_sku;
            """
    }

    /// An order's figures counted into (`sign` 1) or out of (-1) the customer summary.
    private static func countOrder(_ order: String, sign: Int) -> String {
        if sign > 0 {
            return """
                INSERT INTO sales_day_customers (day, currency, status, user_id, customer, orders, items, gross, net)
                VALUES (substr(\(order).created_at, 1, 10), \(order).currency, \(order).status, coalesce(\(order).user_id, 0),
                        \(order).customer, 1, \(order).items, \(order).total_minor, \(order).discounted_total_minor)
                ON CONFLICT (day, user_id, customer, currency, status) DO UPDATE SET orders = orders + 1,
                    items = items + excluded.items, gross = gross + excluded.gross, net = net + excluded.net;
                """
        }
        return """
            UPDATE sales_day_customers SET orders = orders - 1, items = items - \(order).items, gross = gross - \(order).total_minor,
                                           net = net - \(order).discounted_total_minor
            WHERE day = substr(\(order).created_at, 1, 10) AND currency = \(order).currency AND status = \(order).status
              AND user_id = coalesce(\(order).user_id, 0) AND customer = \(order).customer;
            """
    }

    /// The triggers that keep both summaries and the baskets' (v14's, as released: v18 replaced
    /// the one on prices, `basketPriceTrigger`).
    static let salesSummaryTriggers: [(name: String, sql: String)] = {
        let orderOf = { (line: String) in "FROM orders o WHERE o.id = \(line).order_id" }
        let linesOf = { (order: String) in "FROM order_lines l WHERE l.order_id = \(order).id" }
        let lineColumns = "order_id, product_id, sku, title, unit_price_minor, discount_hundredths, quantity, coupon_minor"
        return [
            ("order_lines_summary_insert", """
                CREATE TRIGGER order_lines_summary_insert AFTER INSERT ON order_lines BEGIN
                \(countLines("NEW", order: "o", from: orderOf("NEW"), sign: 1)) END
                """),
            ("order_lines_summary_update", """
                CREATE TRIGGER order_lines_summary_update AFTER UPDATE OF \(lineColumns) ON order_lines BEGIN
                \(countLines("OLD", order: "o", from: "FROM orders o WHERE o.id = OLD.order_id", sign: -1))
                \(countLines("NEW", order: "o", from: orderOf("NEW"), sign: 1)) END
                """),
            ("order_lines_summary_delete", """
                CREATE TRIGGER order_lines_summary_delete AFTER DELETE ON order_lines BEGIN
                \(countLines("OLD", order: "o", from: orderOf("OLD"), sign: -1)) END
                """),
            // An order's lines move with its day, currency and status (as they stood before and after).
            ("orders_summary_lines_update", """
                CREATE TRIGGER orders_summary_lines_update AFTER UPDATE OF created_at, currency, status ON orders BEGIN
                \(countLines("l", order: "OLD", from: linesOf("OLD"), sign: -1))
                \(countLines("l", order: "NEW", from: linesOf("NEW"), sign: 1)) END
                """),
            ("basket_lines_summary_insert", """
                CREATE TRIGGER basket_lines_summary_insert AFTER INSERT ON basket_lines BEGIN \(recountBaskets("(NEW.user_id)")) END
                """),
            ("basket_lines_summary_update", """
                CREATE TRIGGER basket_lines_summary_update AFTER UPDATE ON basket_lines BEGIN
                \(recountBaskets("(OLD.user_id, NEW.user_id)")) END
                """),
            ("basket_lines_summary_delete", """
                CREATE TRIGGER basket_lines_summary_delete AFTER DELETE ON basket_lines BEGIN \(recountBaskets("(OLD.user_id)")) END
                """),
            ("products_basket_summary_update", """
                CREATE TRIGGER products_basket_summary_update AFTER UPDATE OF price_minor, discount_hundredths ON products BEGIN
                \(recountBaskets("(SELECT user_id FROM basket_lines WHERE product_id = NEW.id)")) END
                """),
            ("orders_summary_insert", "CREATE TRIGGER orders_summary_insert AFTER INSERT ON orders BEGIN \(countOrder("NEW", sign: 1)) END"),
            ("orders_summary_update", """
                CREATE TRIGGER orders_summary_update
                AFTER UPDATE OF created_at, currency, status, user_id, customer, items, total_minor, discounted_total_minor ON orders
                BEGIN \(countOrder("OLD", sign: -1)) \(countOrder("NEW", sign: 1)) END
                """),
            // An order deletes its lines first, so that their trigger counts them out while the
            // order is still there to say under which day.
            ("orders_summary_delete", """
                CREATE TRIGGER orders_summary_delete BEFORE DELETE ON orders BEGIN
                \(countOrder("OLD", sign: -1))
                DELETE FROM order_lines WHERE order_id = OLD.id; END
                """),
        ]
    }()
}
