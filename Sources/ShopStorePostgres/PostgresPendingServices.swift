// PostgresPendingServices: the services the PostgreSQL store does not have yet (baskets, favourites,
// users, orders, currencies). Each call fails with one line saying so; issue 12 replaces them.

import ShopCore

/// Stands in for every service not yet written on PostgreSQL.
struct PostgresPendingServices: BasketService, FavoritesService, UserService, OrderService, CurrencyService {
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

    // MARK: FavoritesService
    func listFavorites(_ user: String, page: Page, _ body: (FavoriteProduct) throws -> Void) async throws { throw pending("favourites") }
    func addFavorite(_ user: String, product: String) async throws -> Bool { throw pending("favourites") }
    func removeFavorite(_ user: String, product: String) async throws -> Bool { throw pending("favourites") }
    func toggleFavorite(_ user: String, product: String) async throws -> Bool { throw pending("favourites") }
    func topFavorites(limit: Int) async throws -> [FavoriteCount] { throw pending("favourites") }

    // MARK: UserService
    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws { throw pending("users") }
    func user(_ reference: String) async throws -> User { throw pending("users") }
    func addUser(_ user: NewUser) async throws -> User { throw pending("users") }
    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User { throw pending("users") }
    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User { throw pending("users") }
    func setPassword(_ reference: String, _ password: String) async throws { throw pending("users") }
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool { throw pending("users") }
    func deleteUser(_ reference: String) async throws -> User { throw pending("users") }

    // MARK: OrderService
    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws { throw pending("orders") }
    func order(_ id: Int64) async throws -> Order { throw pending("orders") }
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order { throw pending("orders") }
    func orderStats(_ grouping: OrderStatsGrouping, filter: OrderFilter) async throws -> [OrderStatsRow] { throw pending("orders") }

    // MARK: CurrencyService
    func currencies() async throws -> [CurrencyInfo] { throw pending("currencies") }
    func currency(_ code: String) async throws -> Currency { throw pending("currencies") }
    func latestRate(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate? { throw pending("currencies") }
    func latestRates(onOrBefore date: String?) async throws -> [CurrencyRate] { throw pending("currencies") }
    func latestRateDay(onOrBefore date: String?) async throws -> String? { throw pending("currencies") }
    func firstRateDay(_ code: String?) async throws -> String? { throw pending("currencies") }
    func storeRates(_ rates: [CurrencyRate]) async throws -> Int { throw pending("currencies") }
}
