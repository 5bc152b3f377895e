// StoreSnapshot: everything a store holds, read back through the services, so that a case can
// check that a refused call changed nothing at all.

import ShopCore

/// The whole visible state of a store: catalogue, users, baskets, favourites, orders with their
/// lines, rates, every product's stock ledger and the audit log (a refused call must leave no
/// ledger or audit row either). Two snapshots are equal when nothing anyone can read has changed.
struct StoreSnapshot: Equatable, CustomStringConvertible {
    var products: [Product] = []
    var ledger: [Int64: [StockMovement]] = [:]
    var reviews: [Review] = []
    var categories: [ShopCore.Category] = []
    var users: [User] = []
    var baskets: [Int64: [BasketLine]] = [:]
    var basketCoupons: [Int64: BasketCoupon] = [:]
    var coupons: [Coupon] = []
    var favorites: [Int64: [FavoriteProduct]] = [:]
    var addresses: [Int64: [CustomerAddress]] = [:]
    var topFavorites: [FavoriteCount] = []
    var orders: [Order] = []
    var rates: [CurrencyRate] = []
    var audit: [AuditEntry] = []

    /// Reads the whole store through `services`.
    static func take(_ services: ShopServices) async throws -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        var products: [Product] = []
        try await services.products.listProducts(ProductFilter(), page: Page(sort: [SortKey(field: "id")])) { products.append($0) }
        snapshot.products = products
        for product in products { snapshot.ledger[product.id] = try await services.products.stockHistory(String(product.id)) }
        snapshot.categories = try await services.products.categories()
        try await services.reviews.listReviews(ReviewFilter(), page: Page()) { snapshot.reviews.append($0) }
        var users: [User] = []
        try await services.users.listUsers(UserFilter(), page: Page(sort: [SortKey(field: "id")])) { users.append($0) }
        snapshot.users = users
        for user in users {
            let basket = try await services.baskets.basket(String(user.id))
            snapshot.baskets[user.id] = basket.lines
            snapshot.basketCoupons[user.id] = basket.coupon
            snapshot.favorites[user.id] = try await services.favorites.favorites(String(user.id))
            snapshot.addresses[user.id] = try await services.addresses.addresses(String(user.id))
        }
        snapshot.topFavorites = try await services.favorites.topFavorites(limit: 1_000)
        var ids: [Int64] = []
        try await services.orders.listOrders(OrderFilter(), page: Page(sort: [SortKey(field: "id")])) { ids.append($0.id) }
        for id in ids { snapshot.orders.append(try await services.orders.order(id)) }
        snapshot.rates = try await services.currencies.latestRates(onOrBefore: nil)
        try await services.coupons.listCoupons(CouponFilter(), page: .all) { snapshot.coupons.append($0) }
        try await services.audit.listAudit(AuditFilter(), page: .all) { snapshot.audit.append($0) }
        return snapshot
    }

    /// What differs from `other`, part by part (e.g. `products: [...] → [...]`); empty when equal.
    func differences(from other: StoreSnapshot) -> String {
        var parts: [String] = []
        func compare<T: Equatable>(_ name: String, _ mine: T, _ theirs: T) {
            if mine != theirs { parts.append("\(name): \(theirs) → \(mine)") }
        }
        compare("products", products, other.products)
        compare("stock ledger", ledger, other.ledger)
        compare("reviews", reviews, other.reviews)
        compare("categories", categories, other.categories)
        compare("users", users, other.users)
        compare("baskets", baskets, other.baskets)
        compare("baskets' coupons", basketCoupons, other.basketCoupons)
        compare("coupons", coupons, other.coupons)
        compare("favorites", favorites, other.favorites)
        compare("addresses", addresses, other.addresses)
        compare("top favorites", topFavorites, other.topFavorites)
        compare("orders", orders, other.orders)
        compare("rates", rates, other.rates)
        compare("audit log", audit, other.audit)
        return parts.joined(separator: "; ")
    }

    var description: String {
        "\(products.count) products, \(users.count) users, \(baskets.values.map(\.count).reduce(0, +)) basket lines, "
            + "\(favorites.values.map(\.count).reduce(0, +)) favourites, \(orders.count) orders, \(rates.count) rates, "
            + "\(audit.count) audit rows"
    }
}
