// StoreContract+Concurrency: what a store must get right when calls overlap — no lost basket
// increment, and the last item sold once.

import ShopCore
import Testing

extension StoreContract {
    /// Calls made at the same time, as two shells (or two operators) on one store make them.
    public static func concurrency(_ fixture: some StoreFixture) async {
        await run("concurrency", fixture, [
            Case("8 tasks × 250 increments of one line make 2000", concurrentIncrements),
            Case("the last item is sold once", lastItemSoldOnce),
        ])
    }

    static func concurrentIncrements(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "cora")
        try await ContractData.addProduct(shop, sku: "CC-1", stock: 5_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<250 { _ = try await shop.baskets.addToBasket("cora", product: "CC-1", quantity: 1) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await shop.baskets.basket("cora").lines.map(\.quantity) == [2_000])
    }

    static func lastItemSoldOnce(_ shop: ShopServices) async throws {
        let buyers = (1...6).map { "buyer\($0)" }
        try await ContractData.addProduct(shop, sku: "LAST", stock: 1)
        for buyer in buyers {
            try await ContractData.addUser(shop, buyer)
            _ = try await shop.baskets.addToBasket(buyer, product: "LAST", quantity: 1)
        }
        let outcomes = await withTaskGroup(of: Result<Order, any Error>.self) { group in
            for buyer in buyers {
                group.addTask {
                    do { return .success(try await shop.baskets.checkout(buyer)) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let orders = outcomes.compactMap { try? $0.get() }
        #expect(orders.count == 1)
        for case .failure(let error) in outcomes {
            guard case ShopError.conflict = error else {
                Issue.record(error, "a losing checkout must be a conflict")
                continue
            }
        }
        #expect(try await shop.products.product("LAST").stock == 0)
        #expect(try await ContractData.listOrders(shop).count == 1)
        var waiting = 0
        for buyer in buyers { waiting += try await shop.baskets.basket(buyer).lines.count }
        #expect(waiting == buyers.count - 1)   // the losers keep their baskets
    }
}
