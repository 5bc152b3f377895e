// OrdersTests: the orders plugin and the SQLite order service on the demo shop: orders placed
// by checkout, the status machine (cancelling restocks), listings with filters, show, stats.

import Foundation
import Orders
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import Testing
import TestSupport

/// The orders plugin on the demo shop, its clock fixed at a second before midnight (SQLite stamps
/// orders with it; a PostgreSQL server takes the time of an order itself, so tests read the day
/// from the orders they placed).
func ordersShell() async throws -> ShellHarness {
    try await ShellHarness(plugins: [ordersPlugin], demo: true, clock: ShopClock.fixed("2026-03-14T23:59:58Z"))
}

extension ShellHarness {
    /// Checks out a demo user's basket; returns the order.
    func placeOrder(_ user: String) async throws -> Order {
        try await services.baskets.checkout(user)
    }

    func stock(_ product: Int64) async throws -> Int {
        try await services.products.product(String(product)).stock
    }

    /// The order's status as the order service shows it.
    func status(_ order: Int64) async throws -> String {
        try await services.orders.order(order).status.rawValue
    }
}

@Suite struct OrdersTests {
    @Test func statusesMoveOnlyAlongTheAllowedPaths() async throws {
        let shop = try await ordersShell()
        let order = try await shop.placeOrder("emilys")
        #expect(order.status == .placed)

        #expect(await shop.run("orders status \(order.id) delivered").outcome == .failure)
        #expect(shop.stderr.contains("cannot move order \(order.id) from placed to delivered; allowed: paid, cancelled"))
        #expect(try await shop.status(order.id) == "placed")
        #expect(await shop.run("orders status \(order.id) placed").outcome == .failure)
        #expect(shop.stderr.contains("already placed"))
        #expect(await shop.run("orders status \(order.id) lost").outcome == .usageError)   // no such word: a usage error (issue 32)
        // The refusal comes from OrderStatus's declaration (ChoiceArgument): every status named.
        #expect(shop.stderr.contains("The value 'lost' is invalid for '<status>'. Please provide one of 'placed', 'paid', 'shipped', 'delivered', 'refunded' or 'cancelled'."))

        for next in ["paid", "shipped", "delivered"] {
            let (outcome, text) = await shop.run("orders status \(order.id) \(next) -o json")
            #expect(outcome == .success, "\(next): \(shop.stderr)")
            #expect(text.contains("\"status\":\"\(next)\""))
            #expect(try await shop.status(order.id) == next)
        }
        #expect(await shop.run("orders cancel \(order.id)").outcome == .failure)
        #expect(shop.stderr.contains("from delivered to cancelled; delivered is final"))
        #expect(try await shop.status(order.id) == "delivered")

        // shipped cannot be cancelled either.
        let second = try await shop.placeOrder("jamesd")
        #expect(await shop.run("orders status \(second.id) paid").outcome == .success)
        #expect(await shop.run("orders status \(second.id) shipped").outcome == .success)
        #expect(await shop.run("orders cancel \(second.id)").outcome == .failure)
        #expect(shop.stderr.contains("from shipped to cancelled; allowed: delivered"))

        #expect(await shop.run("orders status 424242 paid").outcome == .failure)
        #expect(shop.stderr.contains("no order 424242"))
        #expect(await shop.run("orders status abc paid").outcome == .failure)
        #expect(shop.stderr.contains("invalid order id \"abc\""))
    }

    @Test func cancellingRestocksInTheSameStep() async throws {
        let shop = try await ordersShell()
        let basket = try await shop.services.baskets.basket("emilys")
        var before: [Int64: Int] = [:]
        for line in basket.lines { before[line.productID] = try await shop.stock(line.productID) }
        let order = try await shop.placeOrder("emilys")
        for line in basket.lines {
            #expect(try await shop.stock(line.productID) == (before[line.productID] ?? 0) - line.quantity)
        }
        #expect(await shop.run("orders status \(order.id) paid").outcome == .success)
        #expect(await shop.run("orders cancel \(order.id)").outcome == .success)
        #expect(shop.stderr.contains("order \(order.id): paid → cancelled (12 items put back in stock)"))
        #expect(try await shop.status(order.id) == "cancelled")
        for line in basket.lines {
            #expect(try await shop.stock(line.productID) == before[line.productID], "stock of \(line.sku)")
        }
        // Cancelled is final: a second cancel restocks nothing.
        #expect(await shop.run("orders cancel \(order.id)").outcome == .failure)
        #expect(shop.stderr.contains("already cancelled"))
        for line in basket.lines {
            #expect(try await shop.stock(line.productID) == before[line.productID])
        }

        // A product deleted since the order was placed is skipped; the others are restocked.
        let other = try await shop.placeOrder("jamesd")
        let deleted = try #require(other.lines.first?.productID)
        let kept = try #require(other.lines.last)
        let keptStock = try await shop.stock(try #require(kept.productID))
        _ = try await shop.services.products.deleteProduct(String(deleted))
        #expect(await shop.run("orders cancel \(other.id)").outcome == .success)
        #expect(try await shop.stock(try #require(kept.productID)) == keptStock + kept.quantity)
        let reloaded = try await shop.services.orders.order(other.id)
        #expect(reloaded.lines.count == other.lines.count)   // the order keeps its copy of the deleted line
        #expect(reloaded.lines.first?.productID == nil)
    }

    @Test func showPrintsTheOrderWithItsLinesAsSold() async throws {
        let shop = try await ordersShell()
        let order = try await shop.placeOrder("emilys")
        let shown = try #require(try await shop.json("orders show \(order.id) -o json") as? [String: Any])
        #expect(shown["id"] as? Int == Int(order.id))
        #expect(shown["user_id"] as? Int == 1)
        #expect(shown["status"] as? String == "placed")
        #expect((shown["total"] as? NSNumber)?.stringValue == "13037.88")
        #expect((shown["discounted_total"] as? NSNumber)?.stringValue == "11510.81")
        let lines = try #require(shown["lines"] as? [[String: Any]])
        #expect(lines.count == 4)
        let frock = try #require(lines.first { $0["sku"] as? String == "TOP-BRD-BLU-162" })
        #expect(frock["title"] as? String == "Blue Frock")
        #expect((frock["unit_price"] as? NSNumber)?.stringValue == "29.99")
        #expect((frock["discount_percentage"] as? NSNumber)?.stringValue == "12.13")
        #expect(frock["quantity"] as? Int == 4)
        #expect((frock["discounted_total"] as? NSNumber)?.stringValue == "105.41")

        let csv = await shop.run("orders show \(order.id) -o csv --fields order_id,sku,quantity").stdout
        #expect(csv.hasPrefix("order_id,sku,quantity\r\n\(order.id),"))
        #expect(csv.split(separator: "\r\n").count == 5)
        #expect(await shop.run("orders show \(order.id) -o ndjson").stdout.filter { $0 == "\n" }.count == 1)
        #expect(await shop.run("orders show 424242").outcome == .failure)
        #expect(shop.stderr.contains("no order 424242"))
    }

    @Test func listFiltersByUserStatusAndDates() async throws {
        let shop = try await ordersShell()
        let first = try await shop.placeOrder("emilys")
        let second = try await shop.placeOrder("jamesd")
        let third = try await shop.placeOrder("5")
        _ = try await shop.services.orders.setOrderStatus(second.id, .paid)

        // The demo's history ends yesterday: today's orders are these three.
        let all = try #require(try await shop.json("orders list --since today -o json") as? [[String: Any]])
        #expect(all.compactMap { $0["id"] as? Int } == [third.id, second.id, first.id].map { Int($0) })   // newest first
        let sorted = try #require(try await shop.json("orders list --since today -o json --sort id") as? [[String: Any]])
        #expect(sorted.compactMap { $0["id"] as? Int } == [first.id, second.id, third.id].map { Int($0) })
        let history = try #require(try await shop.json("orders list --until yesterday --all -o json") as? [[String: Any]])
        #expect(history.count + 3 == (try #require(try await shop.json("orders list --all -o json") as? [Any])).count)

        let paid = try #require(try await shop.json("orders list --status paid --since today -o json") as? [[String: Any]])
        #expect(paid.compactMap { $0["id"] as? Int } == [Int(second.id)])
        let mine = try #require(try await shop.json("orders list --user emily.johnson@x.dummyjson.com --since 1d -o json") as? [[String: Any]])
        #expect(mine.compactMap { $0["id"] as? Int } == [Int(first.id)])

        let today = String(first.createdAt.prefix(10))
        let todays = try #require(try await shop.json("orders list --since \(today) --until \(today) -o json") as? [[String: Any]])
        #expect(todays.count == [first, second, third].filter { $0.createdAt.hasPrefix(today) }.count)
        let future = try #require(try await shop.json("orders list --since 2999-01-01 -o json") as? [Any])
        #expect(future.isEmpty)
        let past = try #require(try await shop.json("orders list --until 2000-12-31 -o json") as? [Any])
        #expect(past.isEmpty)

        for (line, message) in [("orders list --since 2024-13-01", "invalid date \"2024-13-01\" for --since"),
                                ("orders list --until 2023-02-29", "invalid date \"2023-02-29\" for --until"),
                                ("orders list --since someday", "expected a day (YYYY-MM-DD, today, yesterday)"),
                                ("orders list --since 0d", "a window is 1 to 36600 days"),
                                ("orders list --since 2024-5-1", "invalid date \"2024-5-1\""),
                                ("orders list --since 2024-06-01 --until 2024-05-01", "is after --until"),
                                ("orders list --status lost", "The value 'lost' is invalid for '--status <status>'"),
                                ("orders list --user nobody", "no user with id, username or email \"nobody\""),
                                ("orders list --sort colour", "cannot sort by \"colour\""),
                                ("orders stats --by year", "invalid for '--by <grouping>'. Please provide one of 'day', 'week', 'month', 'status', 'category', 'product', 'customer' or 'coupon'."),
                                ("orders stats --top 0", "invalid --top 0"),
                                ("orders stats --since today --until yesterday", "is after --until")] {
            let (outcome, output) = await shop.run(line)
            #expect(outcome != .success, "\(line) was accepted")
            #expect(output.isEmpty)
            #expect(shop.stderr.contains(message), "\(line): \(shop.stderr.split(separator: "\n").last ?? "")")
        }
        #expect(await shop.run("orders list --since 2024-02-29 -o json").outcome == .success)   // a leap day is a day

        // A deleted customer's orders stay, found by the username they were placed under.
        _ = try await shop.services.users.deleteUser("jamesd")
        let kept = try #require(try await shop.json("orders list --user jamesd --since today -o json") as? [[String: Any]])
        #expect(kept.compactMap { $0["id"] as? Int } == [Int(second.id)])
        #expect(kept.first?["user_id"] is NSNull)
    }

    @Test func statsCountAndSumPerStatusAndDay() async throws {
        let shop = try await ordersShell()
        let first = try await shop.placeOrder("emilys")
        let second = try await shop.placeOrder("jamesd")
        let third = try await shop.placeOrder("5")
        _ = try await shop.services.orders.setOrderStatus(second.id, .paid)
        _ = try await shop.services.orders.setOrderStatus(third.id, .cancelled)

        // Today's orders per status: each with its own figures, the cancelled one too.
        let byStatus = try #require(try await shop.json("orders stats --by status --since today -o json") as? [[String: Any]])
        #expect(Set(byStatus.compactMap { $0["status"] as? String }) == ["placed", "paid", "cancelled"] && byStatus.count == 3)
        for (status, order) in [("placed", first), ("paid", second), ("cancelled", third)] {
            let row = try #require(byStatus.first { $0["status"] as? String == status })
            let placed = try await shop.services.orders.order(order.id)
            #expect(row["orders"] as? Int == 1 && row["items"] as? Int == placed.lines.totalQuantity, "\(status)")
            #expect((row["net"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) } == Decimal(string: order.discountedTotal.decimalString))
            #expect((row["gross"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) } == Decimal(string: order.total.decimalString))
            #expect((row["average_order_value"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) } == Decimal(string: order.discountedTotal.decimalString))
        }
        let nets = byStatus.compactMap { ($0["net"] as? NSNumber)?.doubleValue }
        #expect(nets == nets.sorted(by: >), "best first")

        // Today as a day: the cancelled order is no sale.
        // (PostgreSQL stamps orders with the server's day, not the harness's clock: the days between are empty rows.)
        let days = try #require(try await shop.json("orders stats --since today -o json") as? [[String: Any]])
        let today = days.filter { $0["orders"] as? Int != 0 }
        let net = try Money.sum([first, second].map(\.discountedTotal), currency: .usd)
        #expect(today.count == 1 && today.first?["day"] as? String == String(first.createdAt.prefix(10)) && today.first?["orders"] as? Int == 2)
        #expect((today.first?["net"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) } == Decimal(string: net.decimalString))
        #expect(days.first?["day"] as? String == "2026-03-14" && days.last?["day"] as? String == String(first.createdAt.prefix(10)))

        let emilys = try #require(try await shop.json("orders stats --by status --user emilys --since today -o json") as? [[String: Any]])
        #expect(emilys.count == 1 && emilys.first?["orders"] as? Int == 1)
        let none = try #require(try await shop.json("orders stats --since 2999-01-01 -o json") as? [Any])
        #expect(none.isEmpty)
    }

    @Test func emptyShopListsNothing() async throws {
        let shop = try await ShellHarness(plugins: [ordersPlugin])
        #expect(await shop.run("orders list -o json").stdout == "[]\n")
        #expect(await shop.run("orders stats -o json").stdout == "[]\n")
    }
}
