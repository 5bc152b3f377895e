// CommerceServices: the service protocols for baskets, favourites, users, orders and currency.
// USER references are an id, a username or an email; PRODUCT references an id or a SKU.

/// A user's basket with its lines and totals (in the shop's base currency).
public struct Basket: Hashable, Sendable {
    public var user: User
    public var lines: [BasketLine]
    /// The coupon the basket carries, if any (one at most).
    public var coupon: BasketCoupon?

    public init(user: User, lines: [BasketLine], coupon: BasketCoupon? = nil) {
        self.user = user
        self.lines = lines
        self.coupon = coupon
    }

    /// What is left to pay: the discounted total less what `quote` (the coupon's, now) takes off.
    public func toPay(_ quote: CouponQuote?) throws(ShopError) -> Money {
        Money(minorUnits: try discountedTotal.minorUnits - (quote?.discount.minorUnits ?? 0), currency: currency)
    }

    /// What the coupon gives now (`CouponRules.quote`); nil without a coupon.
    public func couponQuote(on day: CalendarDay) throws(ShopError) -> CouponQuote? {
        guard let coupon else { return nil }
        return try CouponRules.quote(coupon, lines: lines, on: day)
    }

    public var currency: Currency { lines.first?.unitPrice.currency ?? .usd }
    /// Sum of price × quantity, before discounts.
    public var total: Money { get throws(ShopError) { try Money.sum(lines.map { line throws(ShopError) in try line.total }, currency: currency) } }
    /// Sum of the discounted line totals (each rounded once).
    public var discountedTotal: Money {
        get throws(ShopError) { try Money.sum(lines.map { line throws(ShopError) in try line.discountedTotal }, currency: currency) }
    }
    /// How many items the basket holds.
    public var totalQuantity: Int { lines.totalQuantity }
}

/// The baskets. Quantities are whole numbers from 1 to `BasketLimits.maxQuantity`.
public protocol BasketService: Sendable {
    func basket(_ user: String) async throws -> Basket
    /// Adds `quantity` (incrementing an existing line) in one atomic statement; refuses a product
    /// out of stock and a disabled user. Returns the line as it now is.
    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine
    /// Sets a line's quantity; 0 removes the line (then nil is returned).
    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine?
    func removeFromBasket(_ user: String, product: String) async throws
    /// Empties the basket; returns how many lines it had.
    func clearBasket(_ user: String) async throws -> Int
    /// Turns the basket into an order in one transaction (see `OrderService`). The order keeps a
    /// copy of where it goes: the customer's address `shipTo` (one of theirs, else nothing
    /// changes and `AddressLookup.notFound` says so), or their default shipping address when nil.
    /// The basket's coupon is applied and its use counted in the same transaction; a coupon that
    /// gives nothing now refuses the checkout (`CouponRefusal`), unless `withoutCoupon`, which
    /// checks out at full price and takes the coupon off.
    func checkout(_ user: String, shipTo: Int64?, withoutCoupon: Bool) async throws -> Order
    /// The non-empty baskets `query` picks, in its order, a page of them, streaming: a store reads
    /// them from what it keeps per basket (its totals at today's prices, its last change), never
    /// every line. `body` may throw to stop early.
    func listBaskets(_ query: BasketListQuery, _ body: (BasketSummary) throws -> Void) async throws
}

extension BasketService {
    /// Checks the basket out to the customer's default shipping address.
    public func checkout(_ user: String) async throws -> Order { try await checkout(user, shipTo: nil, withoutCoupon: false) }
    /// Checks the basket out to `shipTo` with its coupon.
    public func checkout(_ user: String, shipTo: Int64?) async throws -> Order {
        try await checkout(user, shipTo: shipTo, withoutCoupon: false)
    }
}

/// A favourite with its product.
public struct FavoriteProduct: Hashable, Sendable {
    public var product: Product
    public var addedAt: String

    public init(product: Product, addedAt: String) {
        self.product = product
        self.addedAt = addedAt
    }
}

extension FavoritesService {
    /// All of a user's favourites, oldest first.
    public func favorites(_ user: String) async throws -> [FavoriteProduct] {
        var all: [FavoriteProduct] = []
        try await listFavorites(user, page: Page()) { all.append($0) }
        return all
    }
}

/// Field names every store sorts a favourites listing by (the output's keys).
public enum FavoriteSortField {
    public static let all = ["product_id", "sku", "title", "category", "brand", "price", "discount_percentage",
                             "stock", "rating", "added_at"]
}

/// How often a product was favourited.
public struct FavoriteCount: Hashable, Sendable {
    public var product: Product
    public var count: Int

    public init(product: Product, count: Int) {
        self.product = product
        self.count = count
    }
}

public protocol FavoritesService: Sendable {
    /// A user's favourites in `page`'s order (oldest first by default), streamed to `body`.
    /// Sortable fields: `FavoriteSortField.all`.
    func listFavorites(_ user: String, page: Page, _ body: (FavoriteProduct) throws -> Void) async throws
    /// Returns false when it was already a favourite (not an error, no duplicate).
    func addFavorite(_ user: String, product: String) async throws -> Bool
    /// Returns false when it was not a favourite.
    func removeFavorite(_ user: String, product: String) async throws -> Bool
    /// Returns true when the product is now a favourite.
    func toggleFavorite(_ user: String, product: String) async throws -> Bool
    func topFavorites(limit: Int) async throws -> [FavoriteCount]
}

/// A new user as an operator describes one.
public struct NewUser: Hashable, Sendable {
    public var username: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var phone: String?
    public var role: UserRole

    public init(username: String, email: String, firstName: String = "", lastName: String = "",
                phone: String? = nil, role: UserRole = .user) {
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.role = role
    }
}

/// Changes to a user: nil fields stay as they are.
public struct UserChanges: Hashable, Sendable {
    public var username: String?
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var phone: String?
    public var role: UserRole?

    public init(username: String? = nil, email: String? = nil, firstName: String? = nil, lastName: String? = nil,
                phone: String? = nil, role: UserRole? = nil) {
        self.username = username
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.role = role
    }
}

public protocol UserService: Sendable {
    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws
    /// The user with this id, username or email; `notFound` names close matches otherwise.
    func user(_ reference: String) async throws -> User
    func addUser(_ user: NewUser) async throws -> User
    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User
    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User
    /// Stores a salted hash of `password` (at least 6 characters).
    func setPassword(_ reference: String, _ password: String) async throws
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool
    /// Deletes the user with their basket and favourites; their orders are kept.
    func deleteUser(_ reference: String) async throws -> User
}

/// Which orders a listing shows. Dates are `YYYY-MM-DD`, inclusive.
public struct OrderFilter: Hashable, Sendable {
    public var user: String?
    public var status: OrderStatus?
    public var since: String?
    public var until: String?
    /// Orders going to this country (ISO 3166-1 alpha-2, upper case: `AddressRules.country`).
    public var country: String?
    /// Orders going to this city (any case).
    public var city: String?

    public init(user: String? = nil, status: OrderStatus? = nil, since: String? = nil, until: String? = nil,
                country: String? = nil, city: String? = nil) {
        self.user = user
        self.status = status
        self.since = since
        self.until = until
        self.country = country
        self.city = city
    }
}

extension OrderFilter {
    /// Whether the filter picks orders by what a day's sums do not keep (the customer, where the
    /// order goes): the store must read the orders themselves.
    public var picksByOrder: Bool { user != nil || country != nil || city != nil }

    /// Refuses days that do not exist and a range that ends before it starts (wording for any caller:
    /// a command checks its own flags first, see `check(since:until:)`).
    public func check() throws(ShopError) {
        try Self.check(since: (since, "the first day"), until: (until, "the last day"))
        if let country { _ = try AddressRules.country(country) }
    }

    /// The same with each day named as the caller calls it (`--since`).
    public static func check(since: (text: String?, name: String), until: (text: String?, name: String)) throws(ShopError) {
        let first = try since.text.map { text throws(ShopError) in try CalendarDay.validate(text, for: since.name) }
        let last = try until.text.map { text throws(ShopError) in try CalendarDay.validate(text, for: until.name) }
        if let first, let last, first > last {
            throw .invalidInput("\(since.name) \(first) is after \(until.name) \(last)")
        }
    }
}

public protocol OrderService: Sendable {
    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws
    /// One order with its lines.
    func order(_ id: Int64) async throws -> Order
    /// Moves an order along placed → paid → shipped → delivered, or placed/paid → cancelled
    /// (which restocks); other moves are refused with the allowed ones listed.
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order
    /// Takes back units of one of an order's lines and refunds their share of what the line cost
    /// (`RefundRules.plan`), in one transaction; `restock` puts them back into stock. The order
    /// becomes `refunded` when nothing is left to refund. Returns the refund as recorded.
    func returnUnits(_ request: ReturnRequest) async throws -> OrderRefund
    /// Refunds `amount` of an order, tied to no units (`RefundRules.checkAmount`), in one transaction.
    func refund(_ orderID: Int64, amount: Money, reason: String) async throws -> OrderRefund
    /// Orders' figures per group, as the store adds them up (see `OrderStatsQuery`; weeks and
    /// months come back as days: `salesReport` adds them up).
    func orderStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow]
    /// The refunds of the orders `query`'s filter picks, per group (`OrderStatsRow.refunds`):
    /// days are the refunds' own (the filter's days pick refunds by the day they were made);
    /// products and categories count returns only (a goodwill refund belongs to no line).
    func refundStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow]
}

/// An ISO 4217 currency with its name.
public struct CurrencyInfo: Hashable, Sendable {
    public var code: String
    public var name: String
    /// nil for codes without a minor unit (gold, SDR…).
    public var minorUnits: Int?

    public init(code: String, name: String, minorUnits: Int?) {
        self.code = code
        self.name = name
        self.minorUnits = minorUnits
    }
}

/// The ISO 4217 list and the stored ECB rates. A store only fetches and stores here: which
/// day's rates a conversion uses, and what an import may contain, are ShopCore's rules
/// (`ratePair(from:to:on:)`, `rates(on:)`, `importRates(from:)` in CurrencyService+Rates.swift).
/// No store holds rates for EUR: it is the base, 1 on every day that has any rates.
public protocol CurrencyService: Sendable {
    func currencies() async throws -> [CurrencyInfo]
    /// The currency with this code, with its minor unit (unknown codes are an error).
    func currency(_ code: String) async throws -> Currency
    /// The stored rate of `code` on the latest day on or before `date` that has one (the newest
    /// when `date` is nil); nil when there is none.
    func latestRate(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate?
    /// Each stored currency's latest rate on or before `date` (the newest when nil), each with
    /// its own date, ordered by code.
    func latestRates(onOrBefore date: String?) async throws -> [CurrencyRate]
    /// The latest day on or before `date` (the newest when nil) with any stored rate; nil when none.
    func latestRateDay(onOrBefore date: String?) async throws -> String?
    /// The first day with a stored rate for `code` (for any code when nil); nil when none.
    func firstRateDay(_ code: String?) async throws -> String?
    /// Stores rates in one transaction, replacing those of the same date and code; returns how many.
    func storeRates(_ rates: [CurrencyRate]) async throws -> Int
}
