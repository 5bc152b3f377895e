// StoreContract+Orders: the orders' contract — the status machine (cancelling restocks), refused
// moves that name the allowed ones, listings by user, status and day, and statistics.

import ShopCore
import Testing

extension StoreContract {
    /// Orders (`OrderService`).
    public static func orders(_ fixture: some StoreFixture) async {
        await run("orders", fixture, [
            Case("placed → paid → shipped → delivered", statusForward),
            Case("cancelling a placed or paid order restocks", cancelRestocks),
            Case("refused moves name the allowed ones", refusedMovesListAllowed),
            Case("a move to the status it has is a conflict", alreadyInStatus),
            Case("unknown orders are notFound", unknownOrders),
            Case("list filters by user, status and days", listOrderFilters),
            Case("bad date filters are refused", badDateFilters),
            Case("stats per status and day", orderStats),
        ])
    }

    /// A shop with user `ann`, products `O-1` (price 10.00, 10 % off, stock 20) and `O-2`
    /// (price 2.50, stock 20), and one order of 2 × O-1 and 1 × O-2.
    static func shopWithOrder(_ shop: ShopServices) async throws -> Order {
        try await ContractData.addUser(shop, "ann")
        try await ContractData.addProduct(shop, sku: "O-1", price: 1_000, discount: 1_000, stock: 20)
        try await ContractData.addProduct(shop, sku: "O-2", price: 250, stock: 20)
        return try await ContractData.placeOrder(shop, "ann", [("O-1", 2), ("O-2", 1)])
    }

    static func statusForward(_ shop: ShopServices) async throws {
        let order = try await shopWithOrder(shop)
        var previous = order
        for status in [OrderStatus.paid, .shipped, .delivered] {
            let moved = try await shop.orders.setOrderStatus(order.id, status)
            var expected = previous
            expected.status = status
            expected.updatedAt = moved.updatedAt
            #expect(moved == expected, "to \(status)")
            #expect(ContractData.isTimestamp(moved.updatedAt) && moved.updatedAt >= previous.updatedAt && moved.createdAt == order.createdAt)
            #expect(try await shop.orders.order(order.id) == moved)
            previous = moved
        }
        #expect(try await shop.products.product("O-1").stock == 18)   // delivering gives nothing back
        for status in OrderStatus.allCases where status != .delivered {
            try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, status) }
        }
    }

    static func cancelRestocks(_ shop: ShopServices) async throws {
        let placed = try await shopWithOrder(shop)
        let paid = try await ContractData.placeOrder(shop, "ann", [("O-1", 3)])
        _ = try await shop.orders.setOrderStatus(paid.id, .paid)
        #expect(try await shop.products.product("O-1").stock == 15)
        #expect(try await shop.orders.setOrderStatus(placed.id, .cancelled).status == .cancelled)
        #expect(try await shop.products.product("O-1").stock == 17)
        #expect(try await shop.products.product("O-2").stock == 20)
        #expect(try await shop.orders.setOrderStatus(paid.id, .cancelled).status == .cancelled)
        #expect(try await shop.products.product("O-1").stock == 20)
        // Cancelled is final, and restocks once.
        for status in OrderStatus.allCases where status != .cancelled {
            try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(placed.id, status) }
        }
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(placed.id, .cancelled) }
        // A line whose product was deleted has nothing to restock; the cancel still works.
        let third = try await ContractData.placeOrder(shop, "ann", [("O-1", 1), ("O-2", 1)])
        _ = try await shop.products.deleteProduct("O-2")
        #expect(try await shop.orders.setOrderStatus(third.id, .cancelled).lines.count == 2)
        #expect(try await shop.products.product("O-1").stock == 20)
    }

    static func refusedMovesListAllowed(_ shop: ShopServices) async throws {
        let order = try await shopWithOrder(shop)
        let fromPlaced = try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .shipped) }
        #expect(fromPlaced.map { $0.message.contains("paid") && $0.message.contains("cancelled") } == true,
                "names the allowed moves: \(String(describing: fromPlaced))")
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .delivered) }
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        _ = try await shop.orders.setOrderStatus(order.id, .shipped)
        let fromShipped = try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .cancelled) }
        #expect(fromShipped.map { $0.message.contains("delivered") } == true, "\(String(describing: fromShipped))")
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .placed) }
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .paid) }
    }

    static func alreadyInStatus(_ shop: ShopServices) async throws {
        let order = try await shopWithOrder(shop)
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .placed) }
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        let error = try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .paid) }
        #expect(error.map { $0.message.contains("already") } == true, "\(String(describing: error))")
    }

    static func unknownOrders(_ shop: ShopServices) async throws {
        let order = try await shopWithOrder(shop)
        for id in [order.id + 1, 0, -1, Int64.max] {
            try await expectRefused(.notFound, shop) { try await shop.orders.order(id) }
            try await expectRefused(.notFound, shop) { try await shop.orders.setOrderStatus(id, .paid) }
        }
    }

    static func listOrderFilters(_ shop: ShopServices) async throws {
        let first = try await shopWithOrder(shop)
        let bea = try await ContractData.addUser(shop, "bea")
        let second = try await ContractData.placeOrder(shop, "bea", [("O-2", 2)])
        let third = try await ContractData.placeOrder(shop, "ann", [("O-1", 1)])
        _ = try await shop.orders.setOrderStatus(third.id, .paid)
        let today = String(first.createdAt.prefix(10))
        let lastDay = String(try await shop.orders.order(third.id).createdAt.prefix(10))   // after midnight, perhaps
        let ids: (OrderFilter) async throws -> Set<Int64> = { Set(try await ContractData.listOrders(shop, $0).map(\.id)) }
        #expect(try await ids(OrderFilter()) == [first.id, second.id, third.id])
        #expect(try await ids(OrderFilter(user: "ann")) == [first.id, third.id])
        #expect(try await ids(OrderFilter(user: "ANN@example.com")) == [first.id, third.id])
        #expect(try await ids(OrderFilter(user: String(bea.id))) == [second.id])
        #expect(try await ids(OrderFilter(status: .placed)) == [first.id, second.id])
        #expect(try await ids(OrderFilter(status: .paid)) == [third.id])
        #expect(try await ids(OrderFilter(status: .delivered)).isEmpty)
        #expect(try await ids(OrderFilter(user: "ann", status: .placed)) == [first.id])
        #expect(try await ids(OrderFilter(since: today, until: lastDay)) == [first.id, second.id, third.id])
        #expect(try await ids(OrderFilter(since: today)) == [first.id, second.id, third.id])
        #expect(try await ids(OrderFilter(until: lastDay)) == [first.id, second.id, third.id])
        #expect(try await ids(OrderFilter(since: try ContractData.day(lastDay, plus: 1))).isEmpty)
        #expect(try await ids(OrderFilter(until: try ContractData.day(today, plus: -1))).isEmpty)
        await #expect(throws: ShopError.self) { try await ids(OrderFilter(user: "nobody")) }
        // Sorting and paging.
        let byTotal = try await ContractData.listOrders(shop, OrderFilter(), Page(sort: [SortKey(field: "total", descending: true)]))
        #expect(byTotal.map(\.total.minorUnits) == byTotal.map(\.total.minorUnits).sorted(by: >))
        let byID = try await ContractData.listOrders(shop, OrderFilter(), Page(sort: [SortKey(field: "id")], limit: 2, offset: 1))
        #expect(byID.map(\.id) == Array([first.id, second.id, third.id].sorted().dropFirst().prefix(2)))
        for order in try await ContractData.listOrders(shop) {
            #expect(ContractData.isTimestamp(order.createdAt) && order.createdAt <= order.updatedAt)
        }
    }

    static func badDateFilters(_ shop: ShopServices) async throws {
        _ = try await shopWithOrder(shop)
        for filter in [OrderFilter(since: "2024-02-30"), OrderFilter(until: "yesterday"), OrderFilter(since: "2024-1-5"),
                       OrderFilter(since: "2024-05-02", until: "2024-05-01")] {
            try await expectRefused(.invalidInput, shop) { try await ContractData.listOrders(shop, filter) }
            await #expect(throws: ShopError.self) { try await shop.orders.orderStats(.day, filter: filter) }
        }
    }

    static func orderStats(_ shop: ShopServices) async throws {
        #expect(try await shop.orders.orderStats(.status, filter: OrderFilter()).isEmpty)
        let first = try await shopWithOrder(shop)   // 2 × 9.00 + 2.50 = 20.50 after discount
        let second = try await ContractData.placeOrder(shop, "ann", [("O-2", 4)])   // 10.00
        let third = try await ContractData.placeOrder(shop, "ann", [("O-2", 1)])    // 2.50, cancelled
        _ = try await shop.orders.setOrderStatus(second.id, .paid)
        _ = try await shop.orders.setOrderStatus(third.id, .cancelled)
        #expect(first.discountedTotal == ContractData.usd(2_050))
        let byStatus = try await shop.orders.orderStats(.status, filter: OrderFilter())
        #expect(Set(byStatus) == [   // in any order of groups
            OrderStatsRow(group: "placed", count: 1, revenue: ContractData.usd(2_050)),
            OrderStatsRow(group: "paid", count: 1, revenue: ContractData.usd(1_000)),
            OrderStatsRow(group: "cancelled", count: 1, revenue: ContractData.usd(0)),
        ] && byStatus.count == 3)
        let byDay = try await shop.orders.orderStats(.day, filter: OrderFilter())
        #expect(byDay.map(\.count).reduce(0, +) == 3)
        #expect(try Money.sum(byDay.map(\.revenue), currency: .usd) == ContractData.usd(3_050))
        #expect(byDay.allSatisfy { CalendarDay(iso: $0.group) != nil }, "\(byDay.map(\.group))")
        #expect(byDay.map(\.group) == byDay.map(\.group).sorted())
        let paidOnly = try await shop.orders.orderStats(.status, filter: OrderFilter(status: .paid))
        #expect(paidOnly == [OrderStatsRow(group: "paid", count: 1, revenue: ContractData.usd(1_000))])
        let nextDay = try ContractData.day(String(third.createdAt.prefix(10)), plus: 1)
        #expect(try await shop.orders.orderStats(.day, filter: OrderFilter(since: nextDay)).isEmpty)
    }
}
