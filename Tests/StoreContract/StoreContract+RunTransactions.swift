// StoreContract+RunTransactions: one transaction around many calls (`--atomic`, `--dry-run`):
// commit keeps all, rollback undoes all, and a failing call inside undoes only itself.

import ShopCore
import Testing

extension StoreContract {
    /// `ShopStore.beginRun()` and the run's services.
    public static func runTransactions(_ fixture: some StoreFixture) async {
        await run("runTransactions", fixture, [
            Case("commit keeps every change", store: commitKeepsAll),
            Case("rollback undoes every change", store: rollbackUndoesAll),
            Case("a failing call undoes only itself", store: failingCallUndoesItself),
        ])
    }

    /// Runs `body` on the services of one run of `store` and ends the run with `commit` (rolling
    /// back when `body` throws). The one place that knows the run API.
    static func inRun(_ store: any ShopStore, commit: Bool, _ body: (ShopServices) async throws -> Void) async throws {
        let run = try await store.beginRun()
        do {
            try await body(run.services)
        } catch {
            try await run.end(commit: false)
            throw error
        }
        try await run.end(commit: commit)
    }

    /// Changes of every service: a product, a user, a basket line, a favourite, a stock change, an order.
    static func changeEverything(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "RUN-1", stock: 10)
        try await ContractData.addUser(shop, "runner")
        _ = try await shop.baskets.addToBasket("runner", product: "RUN-1", quantity: 2)
        _ = try await shop.baskets.addToBasket("old", product: "OLD-1", quantity: 1)
        _ = try await shop.favorites.addFavorite("runner", product: "OLD-1")
        _ = try await shop.products.adjustStock("OLD-1", .remove(1))
        let order = try await shop.baskets.checkout("old")
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        _ = try await shop.users.setUserStatus("old", .disabled)
        _ = try await shop.currencies.storeRates([try rate(day1, "USD", "1.1")])
        // Reads inside the run see its changes.
        #expect(try await shop.baskets.basket("runner").lines.map(\.quantity) == [2])
        #expect(try await shop.products.product("OLD-1").stock == 3)
    }

    /// A store with user `old` and product `OLD-1` (stock 5), made before the run.
    static func addRunBaseline(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "old")
        try await ContractData.addProduct(shop, sku: "OLD-1", stock: 5)
    }

    static func commitKeepsAll(_ store: any ShopStore) async throws {
        let shop = store.services
        try await addRunBaseline(shop)
        try await inRun(store, commit: true, changeEverything)
        #expect(try await shop.products.product("RUN-1").stock == 10)
        #expect(try await shop.users.user("runner").status == .active)
        #expect(try await shop.users.user("old").status == .disabled)
        #expect(try await shop.baskets.basket("runner").lines.map(\.quantity) == [2])
        #expect(try await shop.favorites.favorites("runner").map(\.product.sku) == ["OLD-1"])
        #expect(try await shop.products.product("OLD-1").stock == 3)
        #expect(try await ContractData.listOrders(shop).map(\.status) == [.paid])
        #expect(try await shop.currencies.latestRateDay(onOrBefore: nil) == day1)
    }

    static func rollbackUndoesAll(_ store: any ShopStore) async throws {
        let shop = store.services
        try await addRunBaseline(shop)
        let before = try await StoreSnapshot.take(shop)
        try await inRun(store, commit: false, changeEverything)
        #expect(try await StoreSnapshot.take(shop) == before)
        await #expect(throws: ShopError.self) { try await shop.products.product("RUN-1") }
        // The store works normally afterwards.
        #expect(try await ContractData.addProduct(shop, sku: "RUN-1").sku == "RUN-1")
    }

    static func failingCallUndoesItself(_ store: any ShopStore) async throws {
        let shop = store.services
        try await addRunBaseline(shop)
        try await inRun(store, commit: true, { shop in
            try await ContractData.addProduct(shop, sku: "KEEP-1", stock: 1)
            // An import whose second record is bad: its first must not stay.
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.importProducts([
                    NewProduct(sku: "GONE-1", title: "Gone", category: "kitchen", price: ContractData.usd(1)),
                    NewProduct(sku: "GONE-2", title: "", category: "kitchen", price: ContractData.usd(1)),
                ])
            }
            // A checkout that is one short: no stock taken, basket kept, no order.
            _ = try await shop.baskets.addToBasket("old", product: "KEEP-1", quantity: 1)
            _ = try await shop.baskets.addToBasket("old", product: "OLD-1", quantity: 6)
            try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("old") }
            try await expectRefused(.conflict, shop) { try await ContractData.addProduct(shop, sku: "KEEP-1") }
            try await ContractData.addProduct(shop, sku: "KEEP-2")
        })
        #expect(Set(try await ContractData.list(shop).map(\.sku)) == ["OLD-1", "KEEP-1", "KEEP-2"])
        #expect(try await shop.products.product("OLD-1").stock == 5)
        #expect(try await shop.products.product("KEEP-1").stock == 1)
        #expect(try await shop.baskets.basket("old").lines.count == 2)
        #expect(try await ContractData.listOrders(shop).isEmpty)
    }
}
