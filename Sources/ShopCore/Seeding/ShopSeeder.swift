// ShopSeeder: bulk writes into a new, empty store — the demo shop, `dev generate` — that each
// store implements with its fastest path (SQLite: prepared statements in one transaction).

/// A user as a seed brings one: its fields, its id and status, and a password hash if it has one.
public struct SeedUser: Sendable {
    public var id: Int64
    public var fields: NewUser
    public var status: UserStatus
    public var passwordHash: String?
    /// The customer's address, saved as their default for shipping and billing.
    public var address: PostalAddress?

    public init(id: Int64, _ fields: NewUser, status: UserStatus = .active, passwordHash: String? = nil, address: PostalAddress? = nil) {
        self.id = id
        self.fields = fields
        self.status = status
        self.passwordHash = passwordHash
        self.address = address
    }
}

/// An order as a seed brings one; its lines copy the products' SKU, title, price and discount
/// as they are, and its totals follow from the lines.
public struct SeedOrder: Sendable {
    public var id: Int64
    public var userID: Int64
    public var customer: String
    public var status: OrderStatus
    /// `YYYY-MM-DDTHH:MM:SSZ`, also the order's last update.
    public var placedAt: String
    public var lines: [(productID: Int64, quantity: Int)]

    public init(id: Int64, userID: Int64, customer: String, status: OrderStatus, placedAt: String,
                lines: [(productID: Int64, quantity: Int)]) {
        self.id = id
        self.userID = userID
        self.customer = customer
        self.status = status
        self.placedAt = placedAt
        self.lines = lines
    }
}

/// Money an order of the seed gave back: units of one of its lines (`lineNumber`, 1 for the
/// first; their share as RefundRules splits the line) or `goodwill` minor units (capped by the
/// store at what is left to refund). The store makes an order refunded in full `refunded`.
public struct SeedRefund: Sendable {
    public var orderID: Int64
    public var lineNumber: Int?
    public var quantity: Int
    public var restock: Bool
    public var goodwill: Int64
    public var reason: String
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    public var at: String

    public init(orderID: Int64, lineNumber: Int?, quantity: Int = 0, restock: Bool = false, goodwill: Int64 = 0,
                reason: String, at: String) {
        self.orderID = orderID
        self.lineNumber = lineNumber
        self.quantity = quantity
        self.restock = restock
        self.goodwill = goodwill
        self.reason = reason
        self.at = at
    }
}

/// Writes a seed into a store, inside one transaction that `ShopStore.seed` opens. Checks are
/// the seed's job (its data is known good); the store writes as fast as it can.
public protocol ShopSeeder {
    /// When the seed happens (`YYYY-MM-DDTHH:MM:SSZ`): the time rows without their own get, and
    /// the day an order history ends before.
    var now: String { get }
    /// Products with their ids (and SKUs).
    func addProduct(_ product: NewProduct) throws
    func addUser(_ user: SeedUser) throws
    /// Adds to the line's quantity when the basket holds the product already.
    func addBasketLine(user: Int64, product: Int64, quantity: Int) throws
    /// Returns false when it was a favourite already.
    func addFavorite(user: Int64, product: Int64) throws -> Bool
    func addOrder(_ order: SeedOrder) throws
    /// A refund of an order added before it (its lines written).
    func addRefund(_ refund: SeedRefund) throws
    func addCurrency(_ currency: CurrencyInfo) throws
    func addRate(_ rate: CurrencyRate) throws
    /// A note about the store (`demo`, `generated_seed`).
    func setNote(_ key: String, _ value: String) throws
}

extension ShopSeeder {
    /// The day of `now`: an order history ends the day before it.
    public func today() throws(ShopError) -> CalendarDay {
        guard let day = CalendarDay(iso: String(now.prefix(10))) else {
            throw .invalidInput("the seed's time \(now.quotedForMessage()) has no day")
        }
        return day
    }

    /// When a seed's products came with their stock (the stock ledger's opening rows): the start
    /// of the first day of the order history that ends before `now`, so every later movement
    /// follows it; `now` itself when `now` has no day.
    public var openingStamp: String {
        guard let today = try? today() else { return now }
        return "\(OrderHistory(customers: [], productIDs: [], ordersPerDay: 0, seed: 0).firstDay(before: today))T00:00:00Z"
    }
}
