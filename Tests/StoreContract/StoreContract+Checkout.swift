// StoreContract+Checkout: checkout's contract — an empty basket and a short line are refused
// with nothing changed; a checkout takes the stock, empties the basket and keeps lines as sold.

import ShopCore
import Testing

extension StoreContract {
    /// `BasketService.checkout`: a basket becomes an order, all or nothing.
    public static func checkout(_ fixture: some StoreFixture) async {
        await run("checkout", fixture, [
            Case("an empty basket is a conflict", emptyBasketRefused),
            Case("one line short of stock changes nothing", shortLineChangesNothing),
            Case("a disabled user cannot check out", disabledCheckoutRefused),
            Case("checkout takes stock, empties the basket and places the order", checkoutPlacesOrder),
            Case("order lines keep price, title and discount as sold", linesKeptAsSold),
            Case("10,000 random lines: basket, checkout and sales reports follow the line rule", randomLinesFollowTheLineRule),
        ])
    }

    static func emptyBasketRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "rae")
        try await ContractData.addProduct(shop, sku: "E-1")
        let error = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("rae") }
        #expect(error?.message.lowercased().contains("empty") == true, "the message says the basket is empty: \(String(describing: error))")
        #expect(try await ContractData.listOrders(shop).isEmpty)
    }

    static func shortLineChangesNothing(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "sam")
        try await ContractData.addProduct(shop, sku: "K-1", stock: 10)
        try await ContractData.addProduct(shop, sku: "K-2", stock: 5)
        try await ContractData.addProduct(shop, sku: "K-3", stock: 10)
        for (sku, quantity) in [("K-1", 2), ("K-2", 5), ("K-3", 1)] {
            _ = try await shop.baskets.addToBasket("sam", product: sku, quantity: quantity)
        }
        _ = try await shop.products.adjustStock("K-2", .remove(1))   // now one short
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("sam") }
        _ = try await shop.products.adjustStock("K-2", .set(0))      // and out of stock altogether
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("sam") }
        #expect(try await ContractData.listOrders(shop).isEmpty)
        #expect(try await shop.baskets.basket("sam").lines.count == 3)
    }

    static func disabledCheckoutRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "tia")
        try await ContractData.addProduct(shop, sku: "X-1")
        _ = try await shop.baskets.addToBasket("tia", product: "X-1", quantity: 1)
        _ = try await shop.users.setUserStatus("tia", .disabled)
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("tia") }
    }

    static func checkoutPlacesOrder(_ shop: ShopServices) async throws {
        let uma = try await ContractData.addUser(shop, "uma")
        try await ContractData.addUser(shop, "vic")
        let cup = try await ContractData.addProduct(shop, sku: "CO-1", title: "Cup", price: 1_999, discount: 1_050, stock: 10)
        let pot = try await ContractData.addProduct(shop, sku: "CO-2", title: "Pot", price: 333, discount: 0, stock: 3)
        _ = try await shop.baskets.addToBasket("uma", product: "CO-1", quantity: 4)
        _ = try await shop.baskets.addToBasket("uma", product: "CO-2", quantity: 3)   // exactly the stock
        _ = try await shop.baskets.addToBasket("vic", product: "CO-1", quantity: 1)
        let basket = try await shop.baskets.basket("uma")

        let order = try await shop.baskets.checkout("uma")
        #expect(order.id > 0 && order.userID == uma.id && order.customer == "uma" && order.status == .placed)
        #expect(ContractData.isTimestamp(order.createdAt) && ContractData.isTimestamp(order.updatedAt), "\(order.createdAt) \(order.updatedAt)")
        #expect(order.createdAt <= order.updatedAt)
        #expect(order.total == ContractData.usd(1_999 * 4 + 333 * 3))
        #expect(order.discountedTotal == ContractData.usd(ContractData.discounted(1_999, times: 4, by: 1_050) + 999))
        #expect(try order.total == basket.total && order.discountedTotal == basket.discountedTotal)
        let sold = order.lines.sorted { $0.sku < $1.sku }
        #expect(sold == [
            OrderLine(productID: cup.id, sku: "CO-1", title: "Cup", unitPrice: ContractData.usd(1_999),
                      discount: ContractData.percent(1_050), quantity: 4),
            OrderLine(productID: pot.id, sku: "CO-2", title: "Pot", unitPrice: ContractData.usd(333), discount: .zero, quantity: 3),
        ])
        #expect(try await shop.products.product("CO-1").stock == 6)
        #expect(try await shop.products.product("CO-2").stock == 0)
        #expect(try await shop.baskets.basket("uma").lines.isEmpty)
        #expect(try await shop.baskets.basket("vic").lines.map(\.quantity) == [1])   // another basket is untouched
        #expect(try await shop.orders.order(order.id) == order)
        #expect(try await ContractData.listOrders(shop).map(\.id) == [order.id])
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("uma") }   // empty now
        let second = try await shop.baskets.checkout("vic")
        #expect(second.id != order.id && second.createdAt >= order.createdAt)
    }

    static func linesKeptAsSold(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "walt")
        try await ContractData.addProduct(shop, sku: "AS-1", title: "Lamp", price: 4_500, discount: 2_000, stock: 5)
        try await ContractData.addProduct(shop, sku: "AS-2", title: "Bulb", price: 299, discount: 0, stock: 5)
        let order = try await ContractData.placeOrder(shop, "walt", [("AS-1", 2), ("AS-2", 1)])
        _ = try await shop.products.updateProduct("AS-1", ProductChanges(sku: "AS-1B", title: "Lamp II", price: ContractData.usd(9_999),
                                                                         discount: ContractData.percent(0)))
        _ = try await shop.products.deleteProduct("AS-2")
        let kept = try await shop.orders.order(order.id)
        #expect(kept.total == order.total && kept.discountedTotal == order.discountedTotal && kept.status == .placed)
        let lamp = try #require(kept.lines.first { $0.title == "Lamp" })
        #expect(lamp.sku == "AS-1" && lamp.unitPrice == ContractData.usd(4_500) && lamp.discount == ContractData.percent(2_000)
                && lamp.quantity == 2)
        let bulb = try #require(kept.lines.first { $0.sku == "AS-2" })
        #expect(bulb.title == "Bulb" && bulb.unitPrice == ContractData.usd(299) && bulb.quantity == 1)
        #expect(kept.lines.count == 2)
    }

    /// The line rule (ShopCore's, recomputed here with Decimal) on every path a store computes it:
    /// each basket line and total, each order's totals as checkout stored them, and the sales
    /// report's gross and net per product and per customer (the stores' SQL).
    static func randomLinesFollowTheLineRule(_ shop: ShopServices) async throws {
        let lines = RuleLine.random(10_000)
        #expect(lines.filter(\.isHalfCent).count >= 2_500)
        _ = try await shop.products.importProducts(lines.enumerated().map { index, line in
            NewProduct(sku: "R-\(index)", title: "Rule \(index)", category: "rules", price: ContractData.usd(line.price),
                       discount: ContractData.percent(line.discount), stock: ProductLimits.maxStock)
        })
        let perCustomer = BasketLimits.maxLines
        let customers = (0..<(lines.count + perCustomer - 1) / perCustomer).map { "rule\($0)" }
        for customer in customers { try await ContractData.addUser(shop, customer) }
        for (index, line) in lines.enumerated() {
            _ = try await shop.baskets.addToBasket(customers[index / perCustomer], product: "R-\(index)", quantity: line.quantity)
        }
        var today: CalendarDay?
        for (number, customer) in customers.enumerated() {
            let expected = lines[(number * perCustomer)..<min(lines.count, (number + 1) * perCustomer)]
            let basket = try await shop.baskets.basket(customer)
            let bySKU = Dictionary(uniqueKeysWithValues: basket.lines.map { ($0.sku, $0) })
            for (index, line) in zip(expected.indices, expected) {
                let shown = try #require(bySKU["R-\(index)"])
                #expect(try shown.discountedTotal.minorUnits == line.net && shown.total.minorUnits == line.gross, "R-\(index)")
            }
            #expect(try basket.discountedTotal.minorUnits == expected.map(\.net).reduce(0, +))
            let order = try await shop.baskets.checkout(customer)
            #expect(order.discountedTotal.minorUnits == expected.map(\.net).reduce(0, +), "\(customer)'s order")
            #expect(order.total.minorUnits == expected.map(\.gross).reduce(0, +), "\(customer)'s order")
            today = CalendarDay(iso: String(order.createdAt.prefix(10)))
        }
        let day = try #require(today)
        let byProduct = try await shop.orders.salesReport(OrderStatsQuery(grouping: .product), today: day)
        #expect(byProduct.count == lines.count)
        for row in byProduct {
            let line = try #require(row.group.flatMap { Int($0.dropFirst(2)) }.map { lines[$0] }, "\(String(describing: row.group))")
            #expect(row.net.minorUnits == line.net && row.gross.minorUnits == line.gross, "\(String(describing: row.group))")
        }
        let byCustomer = try await shop.orders.salesReport(OrderStatsQuery(grouping: .customer), today: day)
        for (number, customer) in customers.enumerated() {
            let expected = lines[(number * perCustomer)..<min(lines.count, (number + 1) * perCustomer)]
            let row = try #require(byCustomer.first { $0.group == customer })
            #expect(row.net.minorUnits == expected.map(\.net).reduce(0, +), "\(customer)")
        }
    }
}
