// ShopServices: the service protocols a store provides, bundled for the shell and plugins.

/// Everything a plugin may use of the shop. Plugins hold these protocols, never a store.
public struct ShopServices: Sendable {
    public var products: any ProductService
    public var baskets: any BasketService
    public var favorites: any FavoritesService
    public var users: any UserService
    /// Customers' saved addresses.
    public var addresses: any AddressService
    public var orders: any OrderService
    /// The team's notes on orders and customers.
    public var notes: any NoteService
    /// Orders' parcels.
    public var shipments: any ShipmentService
    /// Promotion codes.
    public var coupons: any CouponService
    /// Products' reviews and their moderation.
    public var reviews: any ReviewService
    public var currencies: any CurrencyService
    /// The audit log (written by the other services, read here).
    public var audit: any AuditService
    /// From when the log answers, the stock ledger, and signals that the log has grown (`--as-of`, `--follow`).
    public var history: any HistoryService
    /// Live values for Tab completion; `nil` when the store offers none.
    public var completions: (any CompletionSource)?
    /// The store's clock: what "today" means to a report (`--since 7d`).
    public var clock: ShopClock

    public init(products: any ProductService, baskets: any BasketService, favorites: any FavoritesService,
                users: any UserService, addresses: any AddressService, orders: any OrderService, notes: any NoteService, shipments: any ShipmentService,
                coupons: any CouponService, reviews: any ReviewService, currencies: any CurrencyService,
                audit: any AuditService, history: any HistoryService, completions: (any CompletionSource)? = nil, clock: ShopClock) {
        self.products = products
        self.baskets = baskets
        self.favorites = favorites
        self.users = users
        self.addresses = addresses
        self.orders = orders
        self.notes = notes
        self.shipments = shipments
        self.coupons = coupons
        self.reviews = reviews
        self.currencies = currencies
        self.audit = audit
        self.history = history
        self.completions = completions
        self.clock = clock
    }
}

/// A run of many commands in one transaction (`--atomic`, `--dry-run`): every call of `services`
/// joins it, each call's own changes in a savepoint (so a failing command undoes only itself),
/// and `end(commit:)` keeps all of it or none. A server store hands these services one connection.
public protocol StoreRun: Sendable {
    /// Services bound to the run's transaction.
    var services: ShopServices { get }
    /// Commits when `commit` is true; rolls everything back otherwise.
    func end(commit: Bool) async throws
}
