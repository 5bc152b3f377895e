// StoreContract+Ledger: the stock ledger — every movement of a product's stock is one row with
// its reason, its order when there is one, and the balance after it; the balances follow the
// stock exactly, under concurrent changes too; refused changes leave no row.

import ShopCore
import Testing

extension StoreContract {
    /// `ProductService.stockHistory`, as every stock-changing service writes it.
    public static func ledger(_ fixture: some StoreFixture) async {
        await run("ledger", fixture, [
            Case("every movement is a row with its reason, order, note and balance", everyMovementIsARow),
            Case("a return without --restock and a refused change write no row", noMovementNoRow),
            Case("bulk changes, imports and reverts name themselves", bulkImportRevertRows),
            Case("eight stock changes at once: eight rows, balances in step", concurrentStockChanges),
            Case("in one run (--atomic) too: each checkout names its own order, a refusal writes no row", store: movementsInOneRun),
        ])
    }

    /// The rows of `sku` after the first `skip`, as (reason, change, balance, order).
    static func movements(_ shop: ShopServices, _ sku: String, after skip: Int = 0) async throws
        -> [(reason: String, change: Int64, balance: Int64, order: Int64?)] {
        try await shop.products.stockHistory(sku).dropFirst(skip).map { ($0.reason, $0.change, $0.balance, $0.orderID) }
    }

    /// Checks the ledger's own arithmetic: ids ascending, each balance the one before plus the
    /// change, the first the product's opening stock, the last its stock now.
    static func checkBalances(_ shop: ShopServices, _ sku: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rows = try await shop.products.stockHistory(sku)
        let product = try await shop.products.product(sku)
        #expect(rows.first?.reason == StockReason.opening.rawValue && rows.first?.change == rows.first?.balance, sourceLocation: sourceLocation)
        for (before, after) in zip(rows, rows.dropFirst()) {
            #expect(before.id < after.id && before.balance + after.change == after.balance, "\(after)", sourceLocation: sourceLocation)
        }
        #expect(rows.last?.balance == Int64(product.stock), sourceLocation: sourceLocation)
        #expect(rows.allSatisfy { $0.productID == product.id && ContractData.isTimestamp($0.at) && !$0.operatorName.isEmpty },
                sourceLocation: sourceLocation)
    }

    static func everyMovementIsARow(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "lena")
        try await ContractData.addProduct(shop, sku: "LG-1", stock: 10)
        _ = try await shop.products.adjustStock("LG-1", .remove(2), reason: .damaged, note: "dropped in the warehouse")
        let cancelled = try await ContractData.placeOrder(shop, "lena", [("LG-1", 3)])
        _ = try await shop.orders.setOrderStatus(cancelled.id, .cancelled)
        let kept = try await ContractData.placeOrder(shop, "lena", [("LG-1", 4)])
        for next in [OrderStatus.paid, .shipped] { _ = try await shop.orders.setOrderStatus(kept.id, next) }
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: kept.id, product: "LG-1", quantity: 2, restock: true, reason: "too big"))
        _ = try await shop.products.adjustStock("LG-1", .add(40), reason: .supplier, note: nil)
        _ = try await shop.products.updateProduct("LG-1", ProductChanges(stock: 7))
        _ = try await shop.products.adjustStock("LG-1", .set(9))   // no reason given: a correction

        let rows = try await movements(shop, "LG-1")
        let expected: [(String, Int64, Int64, Int64?)] = [
            ("opening", 10, 10, nil), ("damaged", -2, 8, nil), ("checkout", -3, 5, cancelled.id), ("cancel", 3, 8, cancelled.id),
            ("checkout", -4, 4, kept.id), ("return", 2, 6, kept.id), ("supplier", 40, 46, nil), ("update", -39, 7, nil),
            ("correction", 2, 9, nil),
        ]
        #expect(rows.count == expected.count && zip(rows, expected).allSatisfy { $0 == $1 }, "\(rows)")
        let history = try await shop.products.stockHistory("LG-1")
        #expect(history.map(\.note) == [nil, "dropped in the warehouse", nil, nil, nil, "too big", nil, nil, nil])
        // One operator made them all, through the services: none is recorded as made outside.
        #expect(Set(history.map(\.operatorName)).count == 1, "\(history.map(\.operatorName))")
        try await checkBalances(shop, "LG-1")
    }

    /// The same movements and refusals inside one run. PostgreSQL's checkout once named every
    /// checkout movement of its transaction with its own order: in a run, the last checkout took
    /// the earlier ones' movements.
    static func movementsInOneRun(_ store: any ShopStore) async throws {
        try await inRun(store, commit: true) { shop in
            try await everyMovementIsARow(shop)
            try await noMovementNoRow(shop)
        }
        let checkouts = try await movements(store.services, "LG-1").filter { $0.reason == "checkout" }
        let orders = try await ContractData.listOrders(store.services).map(\.id).sorted()
        #expect(checkouts.map(\.order) == orders.prefix(2).map(Optional.some), "\(checkouts) \(orders)")
        try await checkBalances(store.services, "LG-1")
        try await checkBalances(store.services, "LG-2")
    }

    static func noMovementNoRow(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "noor")
        try await ContractData.addProduct(shop, sku: "LG-2", stock: 5)
        let order = try await ContractData.placeOrder(shop, "noor", [("LG-2", 2)])
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "LG-2", quantity: 1, restock: false, reason: "broken"))
        #expect(try await movements(shop, "LG-2").map(\.reason) == ["opening", "checkout"])
        // Refused: below zero, a checkout beyond the stock, an update to the stock it has (no movement).
        try await expectRefused(.conflict, shop) { try await shop.products.adjustStock("LG-2", .remove(4), reason: .damaged, note: nil) }
        _ = try await shop.baskets.addToBasket("noor", product: "LG-2", quantity: 4)
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("noor") }
        _ = try await shop.products.adjustStock("LG-2", .add(0), reason: .recount, note: nil)
        _ = try await shop.products.updateProduct("LG-2", ProductChanges(title: "Renamed"))
        #expect(try await movements(shop, "LG-2").map(\.reason) == ["opening", "checkout"])
        try await checkBalances(shop, "LG-2")
    }

    static func bulkImportRevertRows(_ shop: ShopServices) async throws {
        for sku in ["LG-3", "LG-4"] { try await ContractData.addProduct(shop, sku: sku, stock: 20) }
        let products = [try await shop.products.product("LG-3"), try await shop.products.product("LG-4")]
        let plans = try ProductChangePlan.plan(ProductEdit(stock: .add(5)), over: products)
        _ = try await shop.products.applyProductChanges(plans)
        let supplied = try ProductChangePlan.plan(ProductEdit(stock: .remove(1)),
                                                  over: [try await shop.products.product("LG-3"), try await shop.products.product("LG-4")])
        _ = try await StockChangeNote.$current.withValue(StockChangeNote(reason: .damaged, note: "crushed pallet")) {
            try await shop.products.applyProductChanges(supplied)
        }
        let imported = NewProduct(sku: "LG-3", title: "Thing", category: "kitchen", brand: "Acme", price: ContractData.usd(1_000),
                                  discount: ContractData.percent(0), stock: 50)
        _ = try await shop.products.importProducts([imported])
        _ = try await asCommand("audit revert 1") { try await shop.products.updateProduct("LG-3", ProductChanges(stock: 24)) }
        let rows = try await movements(shop, "LG-3")
        let expected: [(String, Int64, Int64, Int64?)] = [
            ("opening", 20, 20, nil), ("update", 5, 25, nil), ("damaged", -1, 24, nil), ("import", 26, 50, nil), ("revert", -26, 24, nil),
        ]
        #expect(rows.count == expected.count && zip(rows, expected).allSatisfy { $0 == $1 }, "\(rows)")
        #expect(try await shop.products.stockHistory("LG-4").map(\.note) == [nil, nil, "crushed pallet"])
        for sku in ["LG-3", "LG-4"] { try await checkBalances(shop, sku) }
    }

    static func concurrentStockChanges(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "LG-5", stock: 100)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { _ = try? await shop.products.adjustStock("LG-5", index.isMultiple(of: 2) ? .add(3) : .remove(1), reason: .recount, note: nil) }
            }
        }
        let rows = try await movements(shop, "LG-5", after: 1)
        #expect(rows.count == 8 && rows.filter { $0.change == 3 }.count == 4 && rows.filter { $0.change == -1 }.count == 4, "\(rows)")
        #expect(try await shop.products.product("LG-5").stock == 108)
        try await checkBalances(shop, "LG-5")
    }
}
