// PostgresPendingServices: the services the PostgreSQL store does not have yet (favourites,
// users, currencies). Each call fails with one line saying so; issue 12 replaces them.

import ShopCore

/// Stands in for every service not yet written on PostgreSQL.
struct PostgresPendingServices: FavoritesService, UserService, CurrencyService {
    private func pending(_ what: String) -> ShopError {
        .storage("\(what) on PostgreSQL is not implemented yet")
    }

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

    // MARK: CurrencyService
    func currencies() async throws -> [CurrencyInfo] { throw pending("currencies") }
    func currency(_ code: String) async throws -> Currency { throw pending("currencies") }
    func latestRate(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate? { throw pending("currencies") }
    func latestRates(onOrBefore date: String?) async throws -> [CurrencyRate] { throw pending("currencies") }
    func latestRateDay(onOrBefore date: String?) async throws -> String? { throw pending("currencies") }
    func firstRateDay(_ code: String?) async throws -> String? { throw pending("currencies") }
    func storeRates(_ rates: [CurrencyRate]) async throws -> Int { throw pending("currencies") }
}
