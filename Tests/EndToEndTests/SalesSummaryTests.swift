// SalesSummaryTests: the product, category and customer reports, which read the stores' day
// summaries (issue 40), equal a GROUP BY over the orders and their lines after changes made behind
// shopsh's back at sqlite3 or psql — statuses moved and days shifted in bulk, quantities changed,
// products moved to other categories, an order and its lines inserted and another deleted, a line
// deleted, a product and a customer deleted; and the refunds
// of every report, which read the refund summaries, a GROUP BY over the refunds after refunds
// moved, changed, copied in and deleted with their order, their products moved to other
// categories in bulk, one of them then deleted. Both stores (the PostgreSQL pass runs
// it on the server).

import Foundation
import Testing
import ShopStoreKit

@Suite struct SalesSummaryTests {
    /// A figure of shopsh's JSON in minor units (two decimals in the demo's currency).
    static func cents(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        var scaled = number.decimalValue * 100, rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// `key|orders|gross|net` rows of a client's output, keyed.
    static func rows(_ output: String) -> [String: [Int64]] {
        var rows: [String: [Int64]] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }
            rows[fields[0]] = fields.dropFirst().compactMap { Int64($0) }
        }
        return rows
    }

    @Test func productCategoryAndCustomerReportsEqualAGroupByOverTheOrdersAfterChangesBehindShopsh() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let dayShift = ShopshSandbox.onPostgres ? "created_at - interval '3 days'" : "strftime('%Y-%m-%dT%H:%M:%SZ', created_at, '-3 days')"
        let changes = """
            PRAGMA foreign_keys = ON;
            UPDATE products SET category = 'beauty' WHERE id IN (1, 2, 30, 117);
            UPDATE orders SET status = 'paid' WHERE status = 'placed' AND id % 2 = 0;
            UPDATE orders SET created_at = \(dayShift) WHERE id % 7 = 0;
            UPDATE orders SET status = 'cancelled' WHERE id % 11 = 0 AND status = 'delivered';
            UPDATE order_lines SET quantity = quantity + 1 WHERE order_id % 5 = 0;
            CREATE TEMP TABLE copied_orders AS SELECT * FROM orders WHERE id IN (SELECT min(id) FROM orders WHERE status = 'delivered');
            CREATE TEMP TABLE copied_lines AS SELECT * FROM order_lines WHERE order_id IN (SELECT id FROM copied_orders);
            UPDATE copied_orders SET id = 900001;
            UPDATE copied_lines SET order_id = 900001;
            INSERT INTO orders SELECT * FROM copied_orders;
            INSERT INTO order_lines SELECT * FROM copied_lines;
            UPDATE copied_orders SET id = 900002;
            UPDATE copied_lines SET order_id = 900002;
            INSERT INTO orders SELECT * FROM copied_orders;
            INSERT INTO order_lines SELECT * FROM copied_lines;
            DELETE FROM orders WHERE id = 900002;
            DELETE FROM order_lines WHERE line_number = 2 AND order_id % 9 = 0;
            UPDATE products SET category = CASE WHEN id % 2 = 0 THEN 'groceries' ELSE 'furniture' END WHERE id BETWEEN 40 AND 60;
            DELETE FROM products WHERE id = 117;
            DELETE FROM users WHERE id = 26;
            """
        try await sandbox.writeBehindShopsh(sqlite: changes)
        await #expect(try sandbox.writeBehindShopsh(sqlite: "SELECT count(*) FROM order_lines WHERE product_id IS NULL") != "0",
                "the deleted product's lines lost their id")

        let expectedProducts = await Self.rows(try sandbox.writeBehindShopsh(sqlite: """
            SELECT CASE WHEN l.product_id IS NULL THEN 'sku ' || l.sku ELSE CAST(l.product_id AS TEXT) END, count(*),
                   sum(l.unit_price_minor * l.quantity), sum(\(LineTotalSQL.orderLinePaid("l")))
            FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status <> 'cancelled' GROUP BY 1
            """))
        let expectedCustomers = await Self.rows(try sandbox.writeBehindShopsh(sqlite: """
            SELECT CASE WHEN user_id IS NULL THEN 'name ' || customer ELSE CAST(user_id AS TEXT) END, count(*),
                   sum(total_minor), sum(discounted_total_minor)
            FROM orders WHERE status <> 'cancelled' GROUP BY 1
            """))
        let expectedCategories = await Self.rows(try sandbox.writeBehindShopsh(sqlite: """
            SELECT coalesce(p.category, '(none)'), count(DISTINCT l.order_id), sum(l.unit_price_minor * l.quantity),
                   sum(\(LineTotalSQL.orderLinePaid("l")))
            FROM order_lines l JOIN orders o ON o.id = l.order_id LEFT JOIN products p ON p.id = l.product_id
            WHERE o.status <> 'cancelled' GROUP BY 1
            """))
        #expect(expectedProducts.count > 100 && expectedCustomers.count > 100 && expectedCategories.count > 5)
        #expect(expectedCategories["(none)"] != nil && expectedCategories["beauty"] != nil)
        #expect(expectedProducts.keys.contains { $0.hasPrefix("sku ") } && expectedCustomers.keys.contains { $0.hasPrefix("name ") })

        /// shopsh's report, keyed like the GROUP BY (what was paid: its net with the refunds given back).
        func report(_ grouping: String, id: String, name: String) async throws -> [String: [Int64]] {
            let objects = try await #require(try sandbox.json("orders stats --by \(grouping) -o json") as? [[String: Any]])
            var rows: [String: [Int64]] = [:]
            for object in objects {
                let key = grouping == "category" ? object[name] as? String ?? "(none)"
                    : (object[id] as? Int).map(String.init) ?? "\(grouping == "product" ? "sku" : "name") \(object[name] as? String ?? "")"
                let net = (Self.cents(object["net"]) ?? 0) + (Self.cents(object["refunds"]) ?? 0)
                rows[key] = [Int64(object["orders"] as? Int ?? -1), Self.cents(object["gross"]) ?? -1, net]
            }
            return rows
        }
        await #expect(try report("product", id: "product_id", name: "sku") == expectedProducts)
        await #expect(try report("customer", id: "user_id", name: "customer") == expectedCustomers)
        await #expect(try report("category", id: "", name: "category") == expectedCategories)
    }

    @Test func refundsOfEveryReportEqualAGroupByOverTheRefundsAfterChangesBehindShopsh() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let shift = { (days: Int) in
            ShopshSandbox.onPostgres ? "created_at - interval '\(days) days'"
                : "strftime('%Y-%m-%dT%H:%M:%SZ', created_at, '-\(days) days')"
        }
        let copied = "(SELECT min(order_id) FROM order_refunds WHERE line_number IS NOT NULL)"
        let changes = """
            PRAGMA foreign_keys = ON;
            UPDATE order_refunds SET created_at = \(shift(2)) WHERE id % 3 = 0;
            UPDATE order_refunds SET amount_minor = amount_minor + 7 WHERE id % 4 = 0;
            UPDATE orders SET status = 'delivered' WHERE status = 'refunded' AND id % 2 = 0;
            UPDATE orders SET created_at = \(shift(5)) WHERE id IN (SELECT order_id FROM order_refunds) AND id % 5 = 0;
            DELETE FROM order_refunds WHERE id % 9 = 0;
            CREATE TEMP TABLE copied_orders AS SELECT * FROM orders WHERE id = \(copied);
            CREATE TEMP TABLE copied_lines AS SELECT * FROM order_lines WHERE order_id IN (SELECT id FROM copied_orders);
            CREATE TEMP TABLE copied_refunds AS SELECT * FROM order_refunds WHERE order_id IN (SELECT id FROM copied_orders);
            UPDATE copied_orders SET id = 900001;
            UPDATE copied_lines SET order_id = 900001;
            UPDATE copied_refunds SET order_id = 900001, id = id + 800000;
            INSERT INTO orders SELECT * FROM copied_orders;
            INSERT INTO order_lines SELECT * FROM copied_lines;
            INSERT INTO order_refunds SELECT * FROM copied_refunds;
            UPDATE copied_orders SET id = 900002;
            UPDATE copied_lines SET order_id = 900002;
            UPDATE copied_refunds SET order_id = 900002, id = id + 1000;
            INSERT INTO orders SELECT * FROM copied_orders;
            INSERT INTO order_lines SELECT * FROM copied_lines;
            INSERT INTO order_refunds SELECT * FROM copied_refunds;
            DELETE FROM orders WHERE id = 900002;
            UPDATE orders SET customer = 'someone else', user_id = NULL WHERE id = 900001;
            UPDATE products SET category = 'moved-' || category WHERE id IN (SELECT product_id FROM order_refunds WHERE id % 2 = 0);
            UPDATE products SET category = 'about-to-go' WHERE id = (SELECT max(product_id) FROM order_refunds WHERE id % 2 = 1);
            DELETE FROM products WHERE category = 'about-to-go';
            DELETE FROM products WHERE id = 183;
            DELETE FROM users WHERE id = 164;
            """
        try await sandbox.writeBehindShopsh(sqlite: changes)
        let check = try await sandbox.writeBehindShopsh(sqlite: """
            SELECT (SELECT count(*) FROM order_refunds WHERE product_id IS NULL AND line_number IS NOT NULL),
                   (SELECT count(*) FROM order_refunds r JOIN orders o ON o.id = r.order_id WHERE o.user_id IS NULL),
                   (SELECT count(*) FROM order_refunds WHERE order_id = 900001)
            """)
        let counts = check.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
        #expect(counts.count == 3 && counts.allSatisfy { $0 > 0 },
                "refunds lost their product and customer, and the copied order has refunds: \(check)")

        let day = ShopshSandbox.onPostgres ? "to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')" : "substr(r.created_at, 1, 10)"
        /// A GROUP BY over the refunds with their orders: key → amount given back (minor units).
        func expected(_ key: String, returnsOnly: Bool = false, status: String? = nil) async throws -> [String: Int64] {
            let conditions = (returnsOnly ? ["r.line_number IS NOT NULL"] : []) + (status.map { ["o.status = '\($0)'"] } ?? [])
            let output = try await sandbox.writeBehindShopsh(sqlite: """
                SELECT \(key), sum(r.amount_minor) FROM order_refunds r JOIN orders o ON o.id = r.order_id
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")) GROUP BY 1 HAVING sum(r.amount_minor) > 0
                """)
            var rows: [String: Int64] = [:]
            for line in output.split(separator: "\n") {
                let fields = line.split(separator: "|", omittingEmptySubsequences: false)
                if fields.count == 2, let amount = Int64(fields[1]) { rows[String(fields[0])] = amount }
            }
            return rows
        }
        /// shopsh's report's refunds, keyed like the GROUP BY (`id`'s value, else "`label` name").
        func report(_ grouping: String, id: String?, name: String, label: String, status: String? = nil) async throws -> [String: Int64] {
            let objects = try await #require(try sandbox.json("orders stats --by \(grouping)\(status.map { " --status \($0)" } ?? "") -o json")
                                             as? [[String: Any]])
            var rows: [String: Int64] = [:]
            for object in objects {
                guard let refunds = Self.cents(object["refunds"]), refunds > 0 else { continue }
                let key = id.flatMap { object[$0] as? Int }.map(String.init) ?? "\(label)\(object[name] as? String ?? "")"
                rows[key] = refunds
            }
            return rows
        }
        let byProduct = try await expected("CASE WHEN r.product_id IS NULL THEN 'sku ' || r.sku ELSE CAST(r.product_id AS TEXT) END",
                                           returnsOnly: true)
        #expect(byProduct.count > 20 && byProduct.keys.contains { $0.hasPrefix("sku ") })
        await #expect(try report("product", id: "product_id", name: "sku", label: "sku ") == byProduct)
        let byCustomer = try await expected("CASE WHEN o.user_id IS NULL THEN 'name ' || o.customer ELSE CAST(o.user_id AS TEXT) END")
        #expect(byCustomer.keys.contains { $0.hasPrefix("name ") } && byCustomer.keys.contains("name someone else"))
        await #expect(try report("customer", id: "user_id", name: "customer", label: "name ") == byCustomer)
        await #expect(try report("status", id: nil, name: "status", label: "") == expected("o.status"))
        await #expect(try report("day", id: nil, name: "day", label: "") == expected(day))
        let category = "coalesce((SELECT p.category FROM products p WHERE p.id = r.product_id), '')"
        let byCategory = try await expected(category, returnsOnly: true)
        #expect(byCategory.keys.contains { $0.hasPrefix("moved-") } && byCategory.keys.contains(""),
                "returned products moved to other categories, and returns of a deleted product: \(byCategory.keys.sorted())")
        await #expect(try report("category", id: nil, name: "category", label: "") == byCategory)
        // Orders moved from `refunded` to `delivered` took their returns with them.
        for status in ["delivered", "refunded"] {
            let expectedByCategory = try await expected(category, returnsOnly: true, status: status)
            #expect(!expectedByCategory.isEmpty)
            await #expect(try report("category", id: nil, name: "category", label: "", status: status) == expectedByCategory, "\(status)")
        }
    }

    /// A report of the orders going to one country or city takes away their refunds only.
    @Test func aReportByWhereOrdersGoCountsTheirRefundsOnly() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        try await sandbox.writeBehindShopsh(sqlite: """
            UPDATE order_addresses SET country = 'DE' WHERE order_id IN (SELECT order_id FROM order_refunds WHERE id % 2 = 0);
            UPDATE order_addresses SET city = 'Zwickau' WHERE order_id IN (SELECT order_id FROM order_refunds WHERE id % 4 = 0);
            """)
        func expected(_ place: String) async throws -> [String: Int64] {
            let output = try await sandbox.writeBehindShopsh(sqlite: """
                SELECT o.status, sum(r.amount_minor) FROM order_refunds r JOIN orders o ON o.id = r.order_id
                WHERE o.id IN (SELECT order_id FROM order_addresses WHERE \(place)) GROUP BY 1 HAVING sum(r.amount_minor) > 0
                """)
            var rows: [String: Int64] = [:]
            for line in output.split(separator: "\n") {
                let fields = line.split(separator: "|")
                if fields.count == 2, let amount = Int64(fields[1]) { rows[String(fields[0])] = amount }
            }
            return rows
        }
        func report(_ filter: String) async throws -> [String: Int64] {
            let objects = try await #require(try sandbox.json("orders stats --by status \(filter) -o json") as? [[String: Any]])
            var rows: [String: Int64] = [:]
            for object in objects {
                if let status = object["status"] as? String, let refunds = Self.cents(object["refunds"]), refunds > 0 { rows[status] = refunds }
            }
            return rows
        }
        let germany = try await expected("country = 'DE'")
        #expect(!germany.isEmpty)
        await #expect(try report("--country DE") == germany)
        await #expect(try report("--city zwickau") == expected("lower(city) = 'zwickau'"))
        await #expect(try report("--country FR").isEmpty)
    }
}
