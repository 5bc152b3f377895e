// PostgresPendingServices: the services the PostgreSQL store does not have yet (baskets and
// orders). Each call fails with one line saying so; issue 12 replaces them.

import ShopCore

/// Stands in for every service not yet written on PostgreSQL.
struct PostgresPendingServices: BasketService, OrderService {
    private func pending(_ what: String) -> ShopError {
        .storage("\(what) on PostgreSQL is not implemented yet")
    }

    // MARK: BasketService
    func basket(_ user: String) async throws -> Basket { throw pending("baskets") }
    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine { throw pending("baskets") }
    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? { throw pending("baskets") }
    func removeFromBasket(_ user: String, product: String) async throws { throw pending("baskets") }
    func clearBasket(_ user: String) async throws -> Int { throw pending("baskets") }
    func checkout(_ user: String) async throws -> Order { throw pending("checkout") }

    // MARK: OrderService
    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws { throw pending("orders") }
    func order(_ id: Int64) async throws -> Order { throw pending("orders") }
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order { throw pending("orders") }
    func orderStats(_ grouping: OrderStatsGrouping, filter: OrderFilter) async throws -> [OrderStatsRow] { throw pending("orders") }
}
