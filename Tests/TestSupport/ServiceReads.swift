// ServiceReads: what the plugin tests read back of a shop, through the service protocols only
// (never SQL), so that a check holds on any store: whole listings, every stored exchange rate,
// and a fingerprint of what baskets and checkout may touch.

import ShopCore

extension ShopServices {
    /// Every product, by id (description and tags left out: no check here needs them).
    public func allProducts() async throws -> [Product] {
        var products: [Product] = []
        try await self.products.listProducts(ProductFilter(withLongFields: false),
                                             page: Page(sort: [SortKey(field: "id")])) { products.append($0) }
        return products
    }

    /// Every user, by id.
    public func allUsers() async throws -> [User] {
        var users: [User] = []
        try await self.users.listUsers(UserFilter(), page: Page(sort: [SortKey(field: "id")])) { users.append($0) }
        return users
    }

    /// Every order with its lines, by id.
    public func allOrders() async throws -> [Order] {
        try await orders(matching: OrderFilter())
    }

    /// The orders placed today by the store's clock, by id, with their lines: what a test placed
    /// on a demo shop (whose history ends yesterday).
    public func ordersToday() async throws -> [Order] {
        try await orders(matching: OrderFilter(since: clock.today()))
    }

    /// The orders `filter` keeps, by id, with their lines.
    public func orders(matching filter: OrderFilter) async throws -> [Order] {
        var ids: [Int64] = []
        try await orders.listOrders(filter, page: Page(sort: [SortKey(field: "id")])) { ids.append($0.id) }
        var all: [Order] = []
        for id in ids { all.append(try await orders.order(id)) }
        return all
    }

    /// Every audit row, newest first.
    public func allAuditEntries() async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await audit.listAudit(AuditFilter(), page: .all) { entries.append($0) }
        return entries
    }

    /// How many favourites there are in all, over every customer (the favourite counts summed).
    public func favoriteTotal() async throws -> Int {
        try await favorites.topFavorites(limit: Int(Int32.max)).reduce(0) { $0 + $1.count }
    }

    /// Every stored exchange rate, by code then date: each code that has any rate, walked back
    /// from its newest rate one stored day at a time (`latestRate` on or before the day before).
    /// One call a stored rate: for stores of a few hundred rates, not the full ECB history.
    public func storedRates() async throws -> [CurrencyRate] {
        var all: [CurrencyRate] = []
        for code in try await currencies.latestRates(onOrBefore: nil).map(\.currency) {
            var rates: [CurrencyRate] = []
            var before: String? = nil
            while let rate = try await currencies.latestRate(code, onOrBefore: before) {
                rates.append(rate)
                before = try Self.dayBefore(rate.date)
            }
            all += rates.reversed()
        }
        return all
    }

    /// The rates stored for `day` itself (not those of earlier days), by code.
    public func rates(storedOn day: String) async throws -> [CurrencyRate] {
        try await currencies.latestRates(onOrBefore: day).filter { $0.date == day }
    }

    static func dayBefore(_ text: String) throws -> String {
        guard let day = CalendarDay(iso: text), let previous = CalendarDay(dayNumber: day.dayNumber - 1) else {
            throw HarnessError.failed("reading the stored rates", "the stored day \(text) is not a day")
        }
        return previous.description
    }

    /// Everything a basket change or a checkout may touch, as services show it: every product's
    /// stock, every user's basket lines, and every order with its lines.
    public func basketFingerprint() async throws -> ShopFingerprint {
        var fingerprint = ShopFingerprint()
        fingerprint.stock = try await allProducts().map { ShopFingerprint.Stock(id: $0.id, stock: $0.stock) }
        for user in try await allUsers() {
            let lines = try await baskets.basket(String(user.id)).lines
                .map { ShopFingerprint.Line(userID: user.id, productID: $0.productID, quantity: $0.quantity) }
            fingerprint.basketLines += lines.sorted { $0.productID < $1.productID }
        }
        fingerprint.orders = try await allOrders()
        return fingerprint
    }
}

/// What `basketFingerprint()` reads: two are equal when no stock, basket line or order changed.
public struct ShopFingerprint: Equatable, Sendable, CustomStringConvertible {
    public struct Stock: Equatable, Sendable { public var id: Int64; public var stock: Int }
    public struct Line: Equatable, Sendable { public var userID: Int64; public var productID: Int64; public var quantity: Int }

    /// Every product's stock, by id.
    public var stock: [Stock] = []
    /// Every basket line, by user then product.
    public var basketLines: [Line] = []
    /// Every order with its lines, by id.
    public var orders: [Order] = []

    public var orderLineCount: Int { orders.reduce(0) { $0 + $1.lines.count } }

    public var description: String {
        "\(stock.count) products (stock \(stock.reduce(0) { $0 + $1.stock }) in all), "
            + "\(basketLines.count) basket lines (\(basketLines.reduce(0) { $0 + $1.quantity }) items), "
            + "\(orders.count) orders with \(orderLineCount) lines"
    }
}
