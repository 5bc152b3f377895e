// ShopServices: the service protocols a store provides, bundled for the shell and plugins.

/// Everything a plugin may use of the shop. Plugins hold these protocols, never a store.
public struct ShopServices: Sendable {
    public var products: any ProductService
    public var baskets: any BasketService
    public var favorites: any FavoritesService
    public var users: any UserService
    public var orders: any OrderService
    public var currencies: any CurrencyService
    /// Live values for Tab completion; `nil` when the store offers none.
    public var completions: (any CompletionSource)?
    /// One transaction around a whole batch (`--atomic`, `--dry-run`); `nil` when the store has none.
    public var runTransaction: (any RunTransaction)?

    public init(products: any ProductService, baskets: any BasketService, favorites: any FavoritesService,
                users: any UserService, orders: any OrderService, currencies: any CurrencyService,
                completions: (any CompletionSource)? = nil, runTransaction: (any RunTransaction)? = nil) {
        self.products = products
        self.baskets = baskets
        self.favorites = favorites
        self.users = users
        self.orders = orders
        self.currencies = currencies
        self.completions = completions
        self.runTransaction = runTransaction
    }
}

/// One transaction around many commands: between `begin()` and `end(commit:)` every service call
/// joins it (each call's own changes in a savepoint, so a failing command undoes only itself),
/// and `end` keeps all of it or none.
public protocol RunTransaction: Sendable {
    func begin() async throws
    /// Commits when `commit` is true; rolls everything back otherwise.
    func end(commit: Bool) async throws
}
