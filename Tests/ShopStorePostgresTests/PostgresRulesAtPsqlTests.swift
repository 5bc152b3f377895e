// PostgresRulesAtPsqlTests: ShopCore's rules hold at psql, where no Swift runs — the line rule in
// `shopsh_checkout` and in the seeders' SQL (LineTotalSQL) for 10,000 random lines with a quarter
// of them half a cent; the status machine's moves, every pair of statuses against
// `OrderStatus.allowedNext`; the coupon's discount and split against CouponRules; each ProductLimits and BasketLimits bound accepted at the bound and
// refused one past it. Each fails when a copy of a rule in SQL no longer says what ShopCore says.

import Foundation
import ShopCore
import ShopStoreKit
import StoreContract
import Testing
import TestSupport
@testable import ShopStorePostgres
import PostgresShopSchema

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresRulesAtPsqlTests {
    /// A new store on a schema of its own, opened by the cluster's superuser (the shop's owner).
    struct Shop {
        let store: PostgresStore
        let schema: String

        static func make() async throws -> Shop {
            let schema = try await PostgresTestServer.makeSchema()
            return Shop(store: try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema), schema: schema)
        }

        /// psql as the owner in this shop's schema: its status, output and errors.
        func psql(_ sql: String) throws -> (status: Int32, output: String, errors: String) {
            var environment = ProcessInfo.processInfo.environment
            environment["PGOPTIONS"] = "-c search_path=\(schema)"
            return try CommandLineClient.outcome(["psql", PostgresTestServer.url ?? "", "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", sql],
                                                 environment: environment)
        }

        /// `sql`'s output; a failure is an error.
        func query(_ sql: String) throws -> String {
            let result = try psql(sql)
            guard result.status == 0 else { throw ShopError.storage("psql: \(result.errors)") }
            return result.output
        }

        /// A long script run from a file (`\i`).
        func script(_ sql: String) throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).sql")
            try sql.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try query("\\i \(file.path)")
        }

        /// Whether psql refuses `sql`, and then with an error (not a crash or a warning).
        func refuses(_ sql: String) throws -> Bool {
            let result = try psql(sql)
            return result.status != 0 && result.errors.contains("ERROR")
        }
    }

    @Test func checkoutAtPsqlAndTheSeedersSQLFollowTheLineRule() async throws {
        let shop = try await Shop.make()
        defer { shop.store.close() }
        let lines = RuleLine.random(10_000)
        let perCustomer = BasketLimits.maxLines
        let customers = (lines.count + perCustomer - 1) / perCustomer
        for number in 0..<customers {
            _ = try await shop.store.services.users.addUser(NewUser(username: "rule\(number)", email: "rule\(number)@example.com"))
        }
        let products = lines.enumerated().map { index, line in
            "(\(index + 1), 'R-\(index)', 'Rule', 'rules', \(line.price), \(line.discount), \(ProductLimits.maxStock))"
        }
        let basket = lines.enumerated().map { index, line in
            "((SELECT id FROM users WHERE username = 'rule\(index / perCustomer)'), \(index + 1), \(line.quantity))"
        }
        try shop.script("""
            INSERT INTO products (id, sku, title, category, price_minor, discount_hundredths, stock) VALUES \(products.joined(separator: ",\n"));
            INSERT INTO basket_lines (user_id, product_id, quantity) VALUES \(basket.joined(separator: ",\n"));
            """)
        for number in 0..<customers {
            _ = try shop.query("SELECT shopsh_checkout((SELECT id FROM users WHERE username = 'rule\(number)'))")
        }
        // Each order's totals as shopsh_checkout stored them.
        let orders = try shop.query("""
            SELECT o.customer, o.total_minor, o.discounted_total_minor FROM orders o ORDER BY o.customer
            """).split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(orders.count == customers)
        for order in orders {
            let number = try #require(Int(order[0].dropFirst(4)))
            let expected = lines[(number * perCustomer)..<min(lines.count, (number + 1) * perCustomer)]
            #expect(Int64(order[1]) == expected.map(\.gross).reduce(0, +), "\(order[0])")
            #expect(Int64(order[2]) == expected.map(\.net).reduce(0, +), "\(order[0])")
        }
        // Each line by the seeders' expression, on the lines checkout wrote.
        let sold = try shop.query("SELECT l.product_id, \(LineTotalSQL.orderLine("l")) FROM order_lines l ORDER BY l.product_id")
            .split(separator: "\n").map { $0.split(separator: "|").compactMap { Int64($0) } }
        #expect(sold.count == lines.count)
        for row in sold where row.count == 2 {
            #expect(row[1] == lines[Int(row[0]) - 1].net, "R-\(row[0] - 1)")
        }
    }

    /// shopsh_return_units' share (RefundSQL) evaluated by the server equals RefundRules.unitsShare.
    @Test func theServersReturnShareIsRefundRulesUnitsShare() async throws {
        let shop = try await Shop.make()
        defer { shop.store.close() }
        var random = SystemRandomNumberGenerator()
        let maxTotal = ProductLimits.maxPriceMinorUnits * Int64(BasketLimits.maxQuantity)
        var samples: [(total: Int64, units: Int, returned: Int, count: Int)] = [(0, 1, 0, 1), (maxTotal, 7, 3, 4), (maxTotal - 1, 10_000, 0, 1)]
        for _ in 0..<3_000 {
            let units = Int.random(in: 1...BasketLimits.maxQuantity, using: &random)
            let returned = Int.random(in: 0..<units, using: &random)
            samples.append((Int64.random(in: 0...maxTotal, using: &random), units, returned, Int.random(in: 1...(units - returned), using: &random)))
        }
        // In chunks: psql takes the statement as an argument.
        var checked = 0
        for start in stride(from: 0, to: samples.count, by: 400) {
            let chunk = samples[start..<min(samples.count, start + 400)]
            let values = chunk.indices.map { "(\($0), \(samples[$0].total)::bigint, \(samples[$0].units), \(samples[$0].returned), \(samples[$0].count))" }
            let answers = try shop.query("""
                SELECT n, \(RefundSQL.unitsShare(total: "t", units: "u", returned: "r", count: "c")) FROM (VALUES \(values.joined(separator: ", "))) v(n, t, u, r, c) ORDER BY n
                """).split(separator: "\n").map { $0.split(separator: "|").compactMap { Int64($0) } }
            for answer in answers where answer.count == 2 {
                let sample = samples[Int(answer[0])]
                #expect(answer[1] == RefundRules.unitsShare(lineTotal: sample.total, units: sample.units, alreadyReturned: sample.returned,
                                                             returning: sample.count), "\(sample)")
                checked += 1
            }
        }
        #expect(checked == samples.count)
    }

    /// The coupon rule in SQL (PostgresCouponSchema: discountSQL and shopsh_coupon_split, which
    /// shopsh_checkout runs) evaluated by the server equals CouponRules.discount and .split, for
    /// 3,000 random eligible totals and baskets of up to 20 lines (some out of scope), up to the limits.
    @Test func theServersCouponDiscountAndSplitAreCouponRules() async throws {
        let shop = try await Shop.make()
        defer { shop.store.close() }
        var random = SystemRandomNumberGenerator()
        let maxLine = ProductLimits.maxPriceMinorUnits * Int64(BasketLimits.maxQuantity)
        var samples: [(totals: [Int64], percent: Int?, amount: Int64?)] = [
            ([1, 1, 1], 3_333, nil), ([3, 0, 7], nil, 5), ([maxLine, maxLine], 10_000, nil), ([1], 5_000, nil), ([3], 5_000, nil),
            // A CI run's: the server's quotient 821580603874000.99995… was rounded to …001 before floor().
            ([979_588_176_790_271, 13_175_282_353_703, 421_492_988_319_768], 8_387, nil),
        ]
        for index in 0..<3_000 {
            let big = index % 5 == 0
            let totals = (0..<Int.random(in: 1...20, using: &random)).map { _ in
                Int.random(in: 0...4, using: &random) == 0 ? 0 : Int64.random(in: 1...(big ? maxLine : 100_000), using: &random)
            }
            let percent = Bool.random(using: &random) ? Int.random(in: 1...10_000, using: &random) : nil
            samples.append((totals, percent, percent == nil ? Int64.random(in: 1...ProductLimits.maxPriceMinorUnits, using: &random) : nil))
        }
        let discount = PostgresCouponSchema.discountSQL(percentHundredths: "p", amountMinor: "a", eligibleTotal: "t")
        var checked = 0
        for start in stride(from: 0, to: samples.count, by: 200) {
            let values = (start..<min(samples.count, start + 200)).map { index in
                let sample = samples[index]
                let total = sample.totals.reduce(0, +)
                return "(\(index), ARRAY[\(sample.totals.map(String.init).joined(separator: ","))]::bigint[], \(total)::numeric, "
                    + "\(sample.percent.map(String.init) ?? "NULL")::integer, \(sample.amount.map(String.init) ?? "NULL")::bigint)"
            }
            let answers = try shop.query("""
                SELECT n, d, array_to_string(shopsh_coupon_split(d, v), ',')
                FROM (SELECT n, v, \(discount) AS d FROM (VALUES \(values.joined(separator: ", "))) x(n, v, t, p, a)) y ORDER BY n
                """).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
            for answer in answers where answer.count == 3 {
                let sample = try #require(Int(answer[0]).map { samples[$0] })
                let eligible = Money(minorUnits: sample.totals.reduce(0, +), currency: .usd)
                let value: CouponValue = sample.percent.map { .percent(Percentage(hundredths: $0)) }
                    ?? .amount(Money(minorUnits: sample.amount ?? 0, currency: .usd))
                let expected = try CouponRules.discount(value, eligibleTotal: eligible).minorUnits
                #expect(Int64(answer[1]) == expected, "\(sample)")
                #expect(answer[2].split(separator: ",").compactMap { Int64($0) } == CouponRules.split(expected, over: sample.totals), "\(sample)")
                checked += 1
            }
        }
        #expect(checked == samples.count)
    }

    @Test func theServersStatusMovesAreOrderStatusAllowedNext() async throws {
        let shop = try await Shop.make()
        defer { shop.store.close() }
        let services = shop.store.services
        _ = try await services.users.addUser(NewUser(username: "mover", email: "mover@example.com"))
        _ = try await services.products.addProduct(NewProduct(sku: "M-1", title: "Mover", category: "rules",
                                                             price: Money(minorUnits: 100, currency: .usd), stock: 1_000))
        /// The moves that take a new order to `status`.
        func path(to status: OrderStatus) -> [OrderStatus] {
            switch status {
            case .placed: return []
            case .cancelled: return [.cancelled]
            case .refunded: return [.paid]   // then refunded whole, below: no move goes there
            default: return path(to: OrderStatus.allCases.first { $0.allowedNext.contains(status) && $0 != .cancelled } ?? .placed) + [status]
            }
        }
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases {
                _ = try await services.baskets.addToBasket("mover", product: "M-1", quantity: 1)
                var order = try await services.baskets.checkout("mover")
                for step in path(to: from) { order = try await services.orders.setOrderStatus(order.id, step) }
                if from == .refunded {
                    _ = try await services.orders.refund(order.id, amount: order.discountedTotal, reason: "all of it")
                    order = try await services.orders.order(order.id)
                }
                #expect(order.status == from)
                let refused = try shop.refuses("SELECT shopsh_set_order_status(\(order.id), '\(to.rawValue)')")
                #expect(refused == !from.allowedNext.contains(to), "\(from) → \(to)")
                #expect(try await services.orders.order(order.id).status == (refused ? from : to), "\(from) → \(to)")
            }
        }
        #expect(try shop.refuses("SELECT shopsh_set_order_status(1, NULL)"))
    }

    @Test func eachLimitIsAcceptedAtItsBoundAndRefusedPastIt() async throws {
        let shop = try await Shop.make()
        defer { shop.store.close() }
        _ = try await shop.store.services.users.addUser(NewUser(username: "lim", email: "lim@example.com"))
        let products = (1...(BasketLimits.maxLines + 2)).map { "(\($0), 'L-\($0)', 'Limit', 'rules', 100, 100)" }
        try shop.script("INSERT INTO products (id, sku, title, category, price_minor, stock) VALUES \(products.joined(separator: ",\n"));")
        /// `column` of product 1 set to `bound` is kept; to one past it (`past`) refused, keeping `bound`.
        func bound(_ table: String, _ column: String, _ bound: String, _ past: String, where row: String) throws {
            #expect(!(try shop.refuses("UPDATE \(table) SET \(column) = \(bound) WHERE \(row)")), "\(table).\(column) at its bound")
            #expect(try shop.refuses("UPDATE \(table) SET \(column) = \(past) WHERE \(row)"), "\(table).\(column) past its bound")
            #expect(try shop.query("SELECT \(column) = \(bound) FROM \(table) WHERE \(row)") == "t", "\(table).\(column) kept")
        }
        try bound("products", "price_minor", "\(ProductLimits.maxPriceMinorUnits)", "\(ProductLimits.maxPriceMinorUnits + 1)", where: "id = 1")
        try bound("products", "stock", "\(ProductLimits.maxStock)", "\(ProductLimits.maxStock + 1)", where: "id = 1")
        try bound("products", "discount_hundredths", "\(Percentage.hundredthsRange.upperBound)", "\(Percentage.hundredthsRange.upperBound + 1)", where: "id = 1")
        try bound("products", "id", "\(ProductLimits.maxID)", "\(ProductLimits.maxID + 1)", where: "sku = 'L-\(BasketLimits.maxLines + 2)'")
        for (column, limit) in [("title", ProductLimits.maxTitleLength), ("description", ProductLimits.maxDescriptionLength),
                                ("category", ProductLimits.maxCategoryLength), ("brand", ProductLimits.maxBrandLength)] {
            // In Unicode scalars, as ShopCore counts: é is two bytes of UTF-8 and one scalar.
            try bound("products", column, "repeat('é', \(limit))", "repeat('é', \(limit + 1))", where: "id = 1")
        }
        // A line's quantity: through the basket function, and by hand.
        let add = { (amount: Int) in
            "SELECT out_quantity FROM shopsh_basket_add(NULL, 'lim', 3, 'L-3', NULL, \(amount), now(), 'test')"
        }
        #expect(try shop.query(add(BasketLimits.maxQuantity)) == "\(BasketLimits.maxQuantity)")
        #expect(try shop.refuses(add(1)))
        try bound("basket_lines", "quantity", "\(BasketLimits.maxQuantity)", "\(BasketLimits.maxQuantity + 1)", where: "product_id = 3")
        // A basket's lines: the last that fits, then one more, by INSERT and through the function.
        _ = try shop.query("""
            INSERT INTO basket_lines (user_id, product_id, quantity)
            SELECT u.id, p.id, 1 FROM users u, products p WHERE u.username = 'lim' AND p.id BETWEEN 4 AND \(BasketLimits.maxLines + 1)
            """)
        #expect(try shop.query("SELECT count(*) FROM basket_lines") == "\(BasketLimits.maxLines - 1)")
        _ = try shop.query("INSERT INTO basket_lines (user_id, product_id, quantity) SELECT id, 1, 1 FROM users WHERE username = 'lim'")
        #expect(try shop.query("SELECT count(*) FROM basket_lines") == "\(BasketLimits.maxLines)")
        #expect(try shop.refuses("INSERT INTO basket_lines (user_id, product_id, quantity) SELECT id, 2, 1 FROM users WHERE username = 'lim'"))
        let refused = try shop.psql("SELECT * FROM shopsh_basket_add(NULL, 'lim', 2, 'L-2', NULL, 1, now(), 'test')")
        #expect(refused.status != 0 && refused.errors.contains(PostgresRefusal.basketFull.serverMessage), "\(refused.errors)")
        #expect(try shop.query("SELECT count(*) FROM basket_lines") == "\(BasketLimits.maxLines)")
    }
}
