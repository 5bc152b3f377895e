// SalesReportTests: every `orders stats` grouping recomputed independently — the demo's history
// exported with `orders list -o json` and `orders show ID -o json`, the catalogue's categories with
// `products list -o json`, then summed here with Foundation's Decimal — equal to the cent. Runs on
// SQLite, and on PostgreSQL in make test's second pass.

import Foundation
import Orders
import ShopCore
import Testing
import TestSupport

@Suite struct SalesReportTests {
    /// Figures of one group, summed in the test.
    struct Figures: Equatable {
        var orders = Set<Int>()
        var items = 0
        var gross = Decimal(0)
        var net = Decimal(0)
        var refunds = Decimal(0)
    }

    /// An exported order and its lines.
    struct Exported {
        var id: Int
        var userID: Int?
        var customer: String
        var status: String
        var day: String
        var total: Decimal
        var net: Decimal
        /// The coupon the order used, if any.
        var coupon: String?
        var lines: [(productID: Int?, sku: String, quantity: Int, gross: Decimal, net: Decimal)]
        /// Its refunds: the day each was made, the returned product (nil for goodwill), units, amount.
        var refunds: [(day: String, productID: Int?, sku: String?, quantity: Int, amount: Decimal)] = []
    }

    static func decimal(_ value: Any?) -> Decimal? {
        (value as? NSNumber).flatMap { Decimal(string: $0.stringValue) }
    }

    /// The Monday of `day`'s week, computed with Foundation's ISO calendar.
    static func monday(_ day: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = try #require(formatter.date(from: day))
        let start = try #require(calendar.dateInterval(of: .weekOfYear, for: date)?.start)
        return formatter.string(from: start)
    }

    /// The orders placed from `since` on, each with its lines as `orders show` gives them.
    static func export(_ shop: ShellHarness, since: String) async throws -> [Exported] {
        let orders = try #require(try await shop.json("orders list --all --since \(since) -o json") as? [[String: Any]])
        var exported: [Exported] = []
        for order in orders {
            let id = try #require(order["id"] as? Int)
            let shown = try #require(try await shop.json("orders show \(id) -o json") as? [String: Any])
            let lines = try #require(shown["lines"] as? [[String: Any]]).map { line in
                (productID: line["product_id"] as? Int, sku: line["sku"] as? String ?? "", quantity: line["quantity"] as? Int ?? 0,
                 gross: decimal(line["total"]) ?? -1, net: decimal(line["paid_total"]) ?? -1)
            }
            let refunds = try #require(shown["refunds"] as? [[String: Any]]).map { refund in
                (day: String((refund["created_at"] as? String ?? "").prefix(10)), productID: refund["product_id"] as? Int,
                 sku: refund["sku"] as? String, quantity: refund["quantity"] as? Int ?? 0, amount: decimal(refund["amount"]) ?? -1)
            }
            exported.append(Exported(id: id, userID: order["user_id"] as? Int, customer: order["customer"] as? String ?? "",
                                     status: order["status"] as? String ?? "", day: String((order["created_at"] as? String ?? "").prefix(10)),
                                     total: decimal(order["total"]) ?? -1, net: decimal(order["discounted_total"]) ?? -1,
                                     coupon: order["coupon"] as? String, lines: lines, refunds: refunds))
        }
        return exported
    }

    /// The key of the orders without a coupon (`orders stats --by coupon` gives them a null coupon).
    static let noCoupon = "(none)"

    /// `--by grouping` as the test sums it: group key → figures.
    /// Orders placed on or after `since`; refunds made on or after it, whenever their order was placed.
    static func recompute(_ orders: [Exported], by grouping: String, categories: [Int: String], since: String) throws -> [String: Figures] {
        var groups: [String: Figures] = [:]
        for order in orders where (grouping == "status" || order.status != "cancelled") && order.day >= since {
            switch grouping {
            case "category", "product":
                for line in order.lines {
                    let key = grouping == "product" ? (line.productID.map(String.init) ?? line.sku)
                                                    : (line.productID.flatMap { categories[$0] } ?? "")
                    groups[key, default: Figures()].orders.insert(order.id)
                    groups[key, default: Figures()].items += line.quantity
                    groups[key, default: Figures()].gross += line.gross
                    groups[key, default: Figures()].net += line.net
                }
            default:
                let key: String
                switch grouping {
                case "day": key = order.day
                case "week": key = try monday(order.day)
                case "month": key = String(order.day.prefix(7))
                case "status": key = order.status
                case "coupon": key = order.coupon ?? Self.noCoupon
                default: key = order.userID.map(String.init) ?? order.customer
                }
                groups[key, default: Figures()].orders.insert(order.id)
                groups[key, default: Figures()].items += order.lines.reduce(0) { $0 + $1.quantity }
                groups[key, default: Figures()].gross += order.total
                groups[key, default: Figures()].net += order.net
            }
        }
        // Refunds on the day they were made, in the group of their order (or of the returned
        // product: a goodwill refund belongs to no product or category).
        for order in orders {
            for refund in order.refunds where refund.day >= since {
                let key: String
                switch grouping {
                case "day": key = refund.day
                case "week": key = try monday(refund.day)
                case "month": key = String(refund.day.prefix(7))
                case "status": key = order.status
                case "coupon": key = order.coupon ?? Self.noCoupon
                case "product", "category":
                    guard refund.sku != nil else { continue }
                    key = grouping == "product" ? (refund.productID.map(String.init) ?? refund.sku ?? "")
                                                : (refund.productID.flatMap { categories[$0] } ?? "")
                default: key = order.userID.map(String.init) ?? order.customer
                }
                groups[key, default: Figures()].items -= refund.quantity
                groups[key, default: Figures()].net -= refund.amount
                groups[key, default: Figures()].refunds += refund.amount
            }
        }
        return groups
    }

    /// Gives money back on some of the demo's orders placed from `since` on: a return of one unit
    /// (restocked), a goodwill refund, and a whole order refunded (so every status is there).
    static func refundSome(_ shop: ShellHarness, since: String) async throws {
        let delivered = try #require(try await shop.json("orders list --status delivered --since \(since) --limit 3 -o json") as? [[String: Any]])
        try #require(delivered.count == 3)
        let ids = delivered.compactMap { $0["id"] as? Int }
        let first = try #require(try await shop.json("orders show \(ids[0]) -o json") as? [String: Any])
        let line = try #require((first["lines"] as? [[String: Any]])?.first)
        let product = try #require(line["sku"] as? String)
        _ = try await shop.json("orders return \(ids[0]) \(product) --qty 1 --restock --reason 'cracked' -o json")
        _ = try await shop.json("orders refund \(ids[1]) --amount 1.00 --reason 'late' -o json")
        let whole = try #require(decimal(delivered[2]["discounted_total"]))
        _ = try await shop.json("orders refund \(ids[2]) --amount \(whole) --reason 'lost in the post' -o json")
    }

    /// Net over orders, rounded half up to the cent (amounts are positive).
    static func average(_ net: Decimal, _ orders: Int) -> Decimal {
        var exact = net / Decimal(orders)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 2, .plain)
        return rounded
    }

    @Test func everyGroupingEqualsTheOrdersSummedWithDecimal() async throws {
        let shop = try await ordersShell()
        _ = try await shop.placeOrder("emilys")   // today's order, inside the window too
        // Two of today's orders use a coupon (the rest of the window none): `--by coupon` has both groups,
        // and the lines' nets are after their part of the coupon.
        _ = try await shop.services.coupons.addCoupons([CouponDefinition(code: "STATS15", value: .percent(Percentage(hundredths: 1_500)))])
        for customer in ["michaelw", "sophiab"] {
            _ = try await shop.services.baskets.clearBasket(customer)
            _ = try await shop.services.baskets.addToBasket(customer, product: "1", quantity: 2)
            _ = try await shop.services.baskets.addToBasket(customer, product: "2", quantity: 1)
            _ = try await shop.services.coupons.setBasketCoupon(customer, code: "stats15")
            #expect(try await shop.placeOrder(customer).coupon?.code == "STATS15")
        }
        let since = "2026-01-01"
        try await Self.refundSome(shop, since: since)
        // Every order: one placed before `since` may have been refunded after it.
        let all = try await Self.export(shop, since: "2000-01-01")
        let orders = all.filter { $0.day >= since }
        #expect(orders.count > 300, "the demo's history from \(since): \(orders.count) orders")
        #expect(all.contains { $0.day < since && $0.refunds.contains { $0.day >= since } },
                "the demo has an order placed before \(since) and refunded after it")
        #expect(Set(orders.map(\.status)) == Set(OrderStatus.allCases.map(\.rawValue)))
        var categories: [Int: String] = [:]
        try await shop.services.products.listProducts(ProductFilter(), page: Page()) { categories[Int($0.id)] = $0.category }

        for grouping in OrderStatsGrouping.allCases.map(\.rawValue) {
            let expected = try Self.recompute(all, by: grouping, categories: categories, since: since)
            let rows = try #require(try await shop.json("orders stats --by \(grouping) --since \(since) -o json") as? [[String: Any]])
            var seen: [String: Figures] = [:]
            for row in rows {
                let key: String
                switch grouping {
                case "product": key = (row["product_id"] as? Int).map(String.init) ?? (row["sku"] as? String ?? "")
                case "customer": key = (row["user_id"] as? Int).map(String.init) ?? (row["customer"] as? String ?? "")
                case "category": key = row["category"] as? String ?? ""
                case "coupon": key = row["coupon"] as? String ?? Self.noCoupon
                default: key = row[grouping] as? String ?? "?"
                }
                let count = try #require(row["orders"] as? Int)
                let net = try #require(Self.decimal(row["net"]))
                let gross = try #require(Self.decimal(row["gross"]))
                let refunds = try #require(Self.decimal(row["refunds"]))
                #expect(Self.decimal(row["discounts"]) == gross - net - refunds, "\(grouping) \(key)")
                #expect(row["currency"] as? String == "USD")
                if count == 0 && refunds == 0 {
                    // An empty period: shown, all zero, no average.
                    #expect(OrderStatsGrouping(rawValue: grouping)?.isTime == true && net == 0 && row["items"] as? Int == 0
                            && row["average_order_value"] is NSNull, "\(grouping) \(key)")
                    continue
                }
                // A group with refunds alone (orders placed before the window) has no average.
                #expect(count == 0 ? row["average_order_value"] is NSNull
                                   : Self.decimal(row["average_order_value"]) == Self.average(net, count), "\(grouping) \(key)")
                seen[key] = Figures(orders: Set(0..<count), items: row["items"] as? Int ?? -1, gross: gross, net: net, refunds: refunds)
            }
            let expectedCounts = expected.mapValues {
                Figures(orders: Set(0..<$0.orders.count), items: $0.items, gross: $0.gross, net: $0.net, refunds: $0.refunds)
            }
            #expect(seen == expectedCounts, "orders stats --by \(grouping)")
            // Periods in time order with none missing between the first and the last; others best first.
            if OrderStatsGrouping(rawValue: grouping)?.isTime == true {
                let labels = rows.compactMap { $0[grouping] as? String }
                #expect(labels == labels.sorted() && Set(labels).count == labels.count)
            } else {
                let nets = rows.compactMap { Self.decimal($0["net"]) }
                #expect(nets == nets.sorted(by: >), "\(grouping) best first")
            }
        }
        // The whole history by month: twelve months with orders before today's.
        let months = try #require(try await shop.json("orders stats --by month --until yesterday -o json") as? [[String: Any]])
        #expect(months.count == 12 && months.allSatisfy { ($0["orders"] as? Int ?? 0) > 0 }, "\(months.map { $0["month"] ?? "" })")
    }
}
