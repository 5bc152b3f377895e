// StoreContract+Orders: the orders' contract — the status machine (cancelling restocks), refused
// moves that name the allowed ones, listings by user, status and day, and statistics.

import Foundation
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
            Case("sales reports per period, status, category, product and customer", orderStats),
            Case("the sales days follow status changes and filters", salesDaysFollowChanges),
            Case("report sums at the limits of ShopCore's ranges equal a Decimal recomputation", reportSumsAtLimits),
            Case("the product, customer and refund summaries equal a recount of the orders after random changes", summariesEqualARecount),
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
            await #expect(throws: ShopError.self) { try await shop.orders.orderStats(OrderStatsQuery(grouping: .day, filter: filter)) }
        }
    }

    /// Three orders: ann's placed (2 × O-1 at 10.00 − 10 %, 1 × O-2 at 2.50), bob's paid (4 × O-2,
    /// 3 × O-3 at 3.33 − 15 % in "garden": 9.99 → 8.49), ann's cancelled (1 × O-2). Returns the day
    /// they were placed and the ids of ann, bob and the products.
    static func salesShop(_ shop: ShopServices) async throws -> (today: CalendarDay, ids: [String: Int64]) {
        let first = try await shopWithOrder(shop)
        let bob = try await ContractData.addUser(shop, "bob")
        let garden = try await ContractData.addProduct(shop, sku: "O-3", category: "garden", price: 333, discount: 1_500, stock: 20)
        let second = try await ContractData.placeOrder(shop, "bob", [("O-2", 4), ("O-3", 3)])
        let third = try await ContractData.placeOrder(shop, "ann", [("O-2", 1)])
        _ = try await shop.orders.setOrderStatus(second.id, .paid)
        _ = try await shop.orders.setOrderStatus(third.id, .cancelled)
        let today = try #require(CalendarDay(iso: String(third.createdAt.prefix(10))))
        let ann = try await shop.users.user("ann")
        var ids = ["ann": ann.id, "bob": bob.id, "O-3": garden.id]
        for sku in ["O-1", "O-2"] { ids[sku] = try await shop.products.product(sku).id }
        #expect(first.discountedTotal == ContractData.usd(2_050))
        return (today, ids)
    }

    /// A row of figures in USD.
    static func figures(_ group: String?, id: Int64? = nil, title: String? = nil, _ orders: Int64, _ items: Int64,
                        _ gross: Int64, _ net: Int64) -> OrderStatsRow {
        OrderStatsRow(group: group, id: id, title: title, orders: orders, items: items, gross: ContractData.usd(gross),
                      net: ContractData.usd(net))
    }

    static func orderStats(_ shop: ShopServices) async throws {
        #expect(try await shop.orders.orderStats(OrderStatsQuery(grouping: .status)).isEmpty)
        let (today, ids) = try await salesShop(shop)
        func report(_ grouping: OrderStatsGrouping, _ filter: OrderFilter = OrderFilter(), top: Int? = nil,
                    rank: OrderStatsRank = .net) async throws -> [OrderStatsRow] {
            try await shop.orders.salesReport(OrderStatsQuery(grouping: grouping, filter: filter, top: top, rank: rank), today: today)
        }
        // Statuses count the cancelled order; best first by net.
        #expect(try await report(.status) == [figures("placed", 1, 3, 2_250, 2_050), figures("paid", 1, 7, 1_999, 1_849),
                                              figures("cancelled", 1, 1, 250, 250)])
        // Periods leave it out.
        let day = figures(today.description, 2, 10, 4_249, 3_899)
        #expect(try await report(.day) == [day])
        var week = day
        week.group = ReportPeriod.label(of: today, by: .week)
        #expect(try await report(.week) == [week])
        var month = day
        month.group = String(today.description.prefix(7))
        #expect(try await report(.month) == [month])
        // Lines: orders holding them, units, gross and net with each line's discount rounded once.
        #expect(try await report(.category) == [figures("kitchen", 2, 7, 3_250, 3_050), figures("garden", 1, 3, 999, 849)])
        let o1 = figures("O-1", id: ids["O-1"], title: "Thing", 1, 2, 2_000, 1_800)
        let o2 = figures("O-2", id: ids["O-2"], title: "Thing", 2, 5, 1_250, 1_250)
        let o3 = figures("O-3", id: ids["O-3"], title: "Thing", 1, 3, 999, 849)
        #expect(try await report(.product) == [o1, o2, o3])
        #expect(try await report(.product, top: 2) == [o1, o2])
        #expect(try await report(.product, rank: .items) == [o2, o3, o1])
        #expect(try await report(.product, top: 1, rank: .items) == [o2])
        #expect(try await report(.customer) == [figures("ann", id: ids["ann"], 1, 3, 2_250, 2_050),
                                                figures("bob", id: ids["bob"], 1, 7, 1_999, 1_849)])
        // A customer's orders (read from the orders, not the days), and a status asked for.
        #expect(try await report(.day, OrderFilter(user: "ann")) == [figures(today.description, 1, 3, 2_250, 2_050)])
        #expect(try await report(.status, OrderFilter(user: "ANN")) == [figures("placed", 1, 3, 2_250, 2_050),
                                                                        figures("cancelled", 1, 1, 250, 250)])
        #expect(try await report(.day, OrderFilter(status: .cancelled)) == [figures(today.description, 1, 1, 250, 250)])
        #expect(try await report(.product, OrderFilter(status: .cancelled)) == [figures("O-2", id: ids["O-2"], title: "Thing", 1, 1, 250, 250)])
        let tomorrow = try ContractData.day(today.description, plus: 1)
        for grouping in OrderStatsGrouping.allCases {
            #expect(try await report(grouping, OrderFilter(since: tomorrow)).isEmpty, "\(grouping)")
            #expect(try await report(grouping, OrderFilter(until: try ContractData.day(today.description, plus: -1))).isEmpty)
        }
        let row = try #require(try await report(.customer).first)
        #expect(try row.discounts() == ContractData.usd(200) && row.averageOrderValue() == ContractData.usd(2_050))
    }

    /// `sales_days` (or whatever a store keeps) moves with the orders: a status change moves an
    /// order between statuses, a cancel takes it out of the periods; a deleted customer's orders stay.
    static func salesDaysFollowChanges(_ shop: ShopServices) async throws {
        let (today, _) = try await salesShop(shop)
        func report(_ grouping: OrderStatsGrouping, _ filter: OrderFilter = OrderFilter()) async throws -> [OrderStatsRow] {
            try await shop.orders.salesReport(OrderStatsQuery(grouping: grouping, filter: filter), today: today)
        }
        let placed = try await ContractData.listOrders(shop, OrderFilter(status: .placed))
        let first = try #require(placed.first)
        _ = try await shop.orders.setOrderStatus(first.id, .paid)
        _ = try await shop.orders.setOrderStatus(first.id, .shipped)
        #expect(try await report(.status) == [figures("shipped", 1, 3, 2_250, 2_050), figures("paid", 1, 7, 1_999, 1_849),
                                              figures("cancelled", 1, 1, 250, 250)])
        _ = try await shop.orders.setOrderStatus(try #require(try await ContractData.listOrders(shop, OrderFilter(status: .paid)).first).id, .cancelled)
        #expect(try await report(.day) == [figures(today.description, 1, 3, 2_250, 2_050)])
        #expect(try await report(.status, OrderFilter(status: .cancelled)) == [figures("cancelled", 2, 8, 2_249, 2_099)])
        _ = try await shop.users.deleteUser("ann")
        #expect(try await report(.day) == [figures(today.description, 1, 3, 2_250, 2_050)])
        #expect(try await report(.customer) == [figures("ann", 1, 3, 2_250, 2_050)])
    }

    /// Every grouping's sums with lines at the edges of ShopCore's ranges (prices up to
    /// 1,000,000,000.00, 10,000 units a line, discounts of 0.01 % to 100 %) equal each line's total
    /// recomputed with Foundation's Decimal: a line's gross times its discount passes 2^63 there, so
    /// a store that multiplies before it divides overflows (or falls to floating point).
    static func reportSumsAtLimits(_ shop: ShopServices) async throws {
        var random = SystemRandomNumberGenerator()
        let maxPrice = ProductLimits.maxPriceMinorUnits
        let prices: [Int64] = [maxPrice, maxPrice - 1, 99_999_999_999, 1] + (0..<4).map { _ in Int64.random(in: 1...maxPrice, using: &random) }
        let discounts: [Int] = [1, 3_333, 9_999, 10_000, 0] + (0..<3).map { _ in Int.random(in: 0...10_000, using: &random) }
        var products: [(sku: String, category: String, price: Int64, discount: Int)] = []
        for (index, price) in prices.enumerated() {
            let sku = "LIM-\(index)", category = index.isMultiple(of: 2) ? "even" : "odd"
            try await ContractData.addProduct(shop, sku: sku, category: category, price: price, discount: discounts[index],
                                              stock: ProductLimits.maxStock)
            products.append((sku, category, price, discounts[index]))
        }
        try await ContractData.addUser(shop, "ann")
        try await ContractData.addUser(shop, "bob")
        // Every product twice, in orders of three or so lines, the first at the most units a line may hold.
        var sold: [(customer: String, order: Int64, sku: String, category: String, gross: Int64, net: Int64, units: Int64)] = []
        var today: CalendarDay?
        for round in 0..<2 {
            for start in stride(from: 0, to: products.count, by: 3) {
                let customer = (start / 3 + round).isMultiple(of: 2) ? "ann" : "bob"
                let lines = products[start..<min(start + 3, products.count)].enumerated().map { offset, product in
                    (product, offset == 0 && round == 0 ? BasketLimits.maxQuantity : Int.random(in: 1...BasketLimits.maxQuantity, using: &random))
                }
                let order = try await ContractData.placeOrder(shop, customer, lines.map { ($0.0.sku, $0.1) })
                today = CalendarDay(iso: String(order.createdAt.prefix(10)))
                for (product, units) in lines {
                    sold.append((customer, order.id, product.sku, product.category, product.price * Int64(units),
                                 ContractData.discounted(product.price, times: units, by: product.discount), Int64(units)))
                }
            }
        }
        let day = try #require(today)
        /// The expected rows of a grouping: lines grouped by `key`, their figures added up.
        func expected(_ key: (String, Int64, String, String) -> String) -> [String: OrderStatsRow] {
            var rows: [String: OrderStatsRow] = [:]
            for line in sold {
                let group = key(line.customer, line.order, line.sku, line.category)
                var row = rows[group] ?? ContractData.salesFigures(group)
                row.items += line.units
                row.gross = ContractData.usd(row.gross.minorUnits + line.gross)
                row.net = ContractData.usd(row.net.minorUnits + line.net)
                rows[group] = row
            }
            for group in rows.keys {
                rows[group]?.orders = Int64(Set(sold.filter { key($0.customer, $0.order, $0.sku, $0.category) == group }.map(\.order)).count)
            }
            return rows
        }
        func actual(_ grouping: OrderStatsGrouping) async throws -> [String: OrderStatsRow] {
            let rows = try await shop.orders.salesReport(OrderStatsQuery(grouping: grouping), today: day)
            return Dictionary(uniqueKeysWithValues: rows.map { row in
                (row.group ?? "", OrderStatsRow(group: row.group, orders: row.orders, items: row.items, gross: row.gross, net: row.net))
            })
        }
        #expect(try await actual(.product) == expected { _, _, sku, _ in sku })
        #expect(try await actual(.category) == expected { _, _, _, category in category })
        #expect(try await actual(.customer) == expected { customer, _, _, _ in customer })
        #expect(try await actual(.day) == expected { _, _, _, _ in day.description })
        #expect(try await actual(.status) == expected { _, _, _, _ in "placed" })
    }

    /// The products', categories' and customers' figures a store keeps (its day summaries) equal a
    /// recount of the orders and their lines (a category counts an order once however many of its
    /// lines it holds, under the products' categories as they are now), and its refund figures
    /// (the refund summaries) a recount of the orders' refunds, read back through the service,
    /// after random checkouts, status moves and cancels, returns, goodwill refunds, products moved
    /// to another category (with their returns), a product and a user deleted, for the whole
    /// history, a window of days and one status.
    static func summariesEqualARecount(_ shop: ShopServices) async throws {
        var random = SplitMix64(seed: 40)
        for index in 0..<6 {
            try await ContractData.addProduct(shop, sku: "S-\(index)", category: index < 4 ? "kitchen" : "garden",
                                              price: Int64(100 + 37 * index), discount: 250 * index, stock: 10_000)
        }
        for name in ["ann", "bob", "cy", "di"] { try await ContractData.addUser(shop, name) }
        var orders: [Int64] = []
        var deletedProduct = false, deletedUser = false, recategorised = 0, returnedBeforeMove = false
        /// One unit of `sku` returned from the first order that still holds one; whether there was one.
        func returnOne(_ sku: String, reason: String) async throws -> Bool {
            for id in orders {
                let order = try await shop.orders.order(id)
                guard [.placed, .paid, .shipped, .delivered].contains(order.status),
                      order.lines.contains(where: { $0.sku == sku && $0.quantity > $0.returned }) else { continue }
                if order.status == .placed { _ = try await shop.orders.setOrderStatus(id, .paid) }
                _ = try await shop.orders.returnUnits(ReturnRequest(orderID: id, product: sku, quantity: 1, restock: false, reason: reason))
                return true
            }
            return false
        }
        for step in 0..<60 {
            if step == 25 || step == 45 {
                // A product moves to another category: the orders holding it are counted again, and
                // its returns (one given just before) move with it.
                let sku = step == 25 ? "S-3" : "S-4"
                if try await returnOne(sku, reason: "before it moves") { returnedBeforeMove = true }
                _ = try await shop.products.updateProduct(sku, ProductChanges(category: step == 25 ? "garden" : "tools"))
                recategorised += 1
            }
            switch Int.random(in: 0...9, using: &random) {
            case 0...4:
                let customer = ["ann", "bob", "cy", "di"].filter { !deletedUser || $0 != "cy" }.randomElement(using: &random) ?? "ann"
                let skus = (0..<6).map { "S-\($0)" }.filter { !deletedProduct || $0 != "S-2" }.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
                orders.append(try await ContractData.placeOrder(shop, customer, skus.map { ($0, Int.random(in: 1...5, using: &random)) }).id)
            case 5, 6:
                guard let id = orders.randomElement(using: &random) else { continue }
                let order = try await shop.orders.order(id)
                if let next = order.status.allowedNext.randomElement(using: &random) { _ = try await shop.orders.setOrderStatus(id, next) }
            case 7:
                guard let id = orders.randomElement(using: &random) else { continue }
                if try await shop.orders.order(id).status == .placed { _ = try await shop.orders.setOrderStatus(id, .paid) }
                let order = try await shop.orders.order(id)
                guard order.status.takesRefunds else { continue }
                if Bool.random(using: &random), order.refunded.minorUnits + 3 <= order.discountedTotal.minorUnits {
                    _ = try await shop.orders.refund(id, amount: ContractData.usd(3), reason: "goodwill \(step)")
                } else if let line = order.lines.first(where: { $0.quantity > $0.returned }) {
                    _ = try await shop.orders.returnUnits(ReturnRequest(orderID: id, product: line.sku, quantity: 1, restock: true, reason: "step \(step)"))
                }
            case 8 where step > 20 && !deletedProduct:
                // One of its units comes back first, so that a deleted product's return is counted.
                _ = try await returnOne("S-2", reason: "before it goes")
                _ = try await shop.products.deleteProduct("S-2")
                deletedProduct = true
            case 9 where step > 30 && !deletedUser:
                _ = try await shop.users.deleteUser("cy")
                deletedUser = true
            default:
                continue
            }
        }
        var all: [Order] = []
        for order in try await ContractData.listOrders(shop) { all.append(try await shop.orders.order(order.id)) }
        let days = Set(all.map { String($0.createdAt.prefix(10)) }).sorted()
        let products = try await ContractData.list(shop)
        /// The recount: `grouping`'s figures of the orders `filter` picks (cancelled ones only when asked for).
        func recount(_ grouping: OrderStatsGrouping, _ filter: OrderFilter) throws -> [String: OrderStatsRow] {
            var rows: [String: OrderStatsRow] = [:]
            for order in all where filter.status.map({ order.status == $0 }) ?? (order.status != .cancelled) {
                let day = String(order.createdAt.prefix(10))
                if let since = filter.since, day < since { continue }
                if let until = filter.until, day > until { continue }
                if grouping == .category {
                    var held: [String: OrderStatsRow] = [:]
                    for line in order.lines {
                        let key = products.first { $0.id == line.productID }?.category ?? ""
                        var row = held[key] ?? ContractData.salesFigures(key.isEmpty ? nil : key)
                        row.orders = 1
                        row.items += Int64(line.quantity)
                        row.gross = ContractData.usd(row.gross.minorUnits + line.unitPrice.minorUnits * Int64(line.quantity))
                        row.net = ContractData.usd(row.net.minorUnits + (try line.paidTotal).minorUnits)
                        held[key] = row
                    }
                    for (key, part) in held {
                        guard var row = rows[key] else { rows[key] = part; continue }
                        row.orders += 1
                        row.items += part.items
                        row.gross = ContractData.usd(row.gross.minorUnits + part.gross.minorUnits)
                        row.net = ContractData.usd(row.net.minorUnits + part.net.minorUnits)
                        rows[key] = row
                    }
                    continue
                }
                if grouping == .customer {
                    let key = order.userID.map { "id \($0)" } ?? order.customer
                    var row = rows[key] ?? ContractData.salesFigures(order.customer)
                    row.orders += 1
                    row.items += Int64(order.lines.reduce(0) { $0 + $1.quantity })
                    row.gross = ContractData.usd(row.gross.minorUnits + order.total.minorUnits)
                    row.net = ContractData.usd(row.net.minorUnits + order.discountedTotal.minorUnits)
                    rows[key] = row
                    continue
                }
                for line in order.lines {
                    let current = products.first { $0.id == line.productID }
                    let key = line.productID.map { "id \($0)" } ?? line.sku
                    var row = rows[key] ?? ContractData.salesFigures(current?.sku ?? line.sku)
                    row.orders += 1
                    row.items += Int64(line.quantity)
                    row.gross = ContractData.usd(row.gross.minorUnits + line.unitPrice.minorUnits * Int64(line.quantity))
                    row.net = ContractData.usd(row.net.minorUnits + (try line.paidTotal).minorUnits)
                    rows[key] = row
                }
            }
            return rows
        }
        /// What the store says, keyed as the recount is.
        func stored(_ grouping: OrderStatsGrouping, _ filter: OrderFilter) async throws -> [String: OrderStatsRow] {
            var rows: [String: OrderStatsRow] = [:]
            for row in try await shop.orders.orderStats(OrderStatsQuery(grouping: grouping, filter: filter)) {
                rows[row.id.map { "id \($0)" } ?? row.group ?? ""] = OrderStatsRow(group: row.group, orders: row.orders, items: row.items,
                                                                                   gross: row.gross, net: row.net)
            }
            return rows
        }
        let window = OrderFilter(since: days.first, until: days.first)
        for grouping in [OrderStatsGrouping.product, .category, .customer] {
            for filter in [OrderFilter(), window, OrderFilter(status: .cancelled), OrderFilter(status: .refunded)] {
                #expect(try await stored(grouping, filter) == recount(grouping, filter), "\(grouping) \(filter)")
            }
        }
        /// The refunds' recount: `grouping`'s amount and units of the refunds `filter` picks (by the
        /// refund's day and the order's status), as the store keys them.
        func refundRecount(_ grouping: OrderStatsGrouping, _ filter: OrderFilter) -> [String: [Int64]] {
            var rows: [String: [Int64]] = [:]
            for order in all where filter.status.map({ order.status == $0 }) ?? true {
                for refund in order.refunds {
                    let day = String(refund.createdAt.prefix(10))
                    if let since = filter.since, day < since { continue }
                    if let until = filter.until, day > until { continue }
                    let key: String
                    switch grouping {
                    case .customer: key = order.userID.map { "id \($0)" } ?? order.customer
                    case .status: key = order.status.rawValue
                    case .product where refund.lineNumber != nil: key = refund.productID.map { "id \($0)" } ?? refund.sku ?? ""
                    case .category where refund.lineNumber != nil: key = products.first { $0.id == refund.productID }?.category ?? ""
                    case .day: key = day
                    default: continue
                    }
                    let row = rows[key] ?? [0, 0]
                    rows[key] = [row[0] + refund.amount.minorUnits, row[1] + Int64(refund.quantity)]
                }
            }
            return rows
        }
        /// The store's refund figures, keyed as the recount is.
        func storedRefunds(_ grouping: OrderStatsGrouping, _ filter: OrderFilter) async throws -> [String: [Int64]] {
            var rows: [String: [Int64]] = [:]
            for row in try await shop.orders.refundStats(OrderStatsQuery(grouping: grouping, filter: filter)) {
                let key = row.id.map { "id \($0)" } ?? row.group ?? ""
                let sum = rows[key] ?? [0, 0]
                rows[key] = [sum[0] + row.refunds.minorUnits, sum[1] - row.items]
            }
            return rows
        }
        let refundDays = Set(all.flatMap { $0.refunds.map { String($0.createdAt.prefix(10)) } }).sorted()
        for grouping in [OrderStatsGrouping.day, .status, .product, .category, .customer] {
            for filter in [OrderFilter(), OrderFilter(since: refundDays.last, until: refundDays.last), OrderFilter(status: .refunded),
                           OrderFilter(status: .delivered)] {
                #expect(try await storedRefunds(grouping, filter) == refundRecount(grouping, filter), "refunds by \(grouping) \(filter)")
            }
        }
        let refunds = all.flatMap(\.refunds)
        #expect(refunds.contains { $0.lineNumber == nil } && refunds.contains { $0.lineNumber != nil && $0.productID == nil },
                "the random changes took in goodwill refunds and a deleted product's returns")
        #expect(deletedProduct && deletedUser && recategorised > 0 && returnedBeforeMove && orders.count > 10,
                "the random changes took in a deleted product and user, and a product moved to another category with a return")
        #expect(all.contains { order in
            Set(order.lines.map { line in products.first { $0.id == line.productID }?.category ?? "" }).count < order.lines.count
        }, "an order holds two lines of one category")
    }
}
