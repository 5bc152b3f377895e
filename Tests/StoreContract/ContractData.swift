// ContractData: small helpers that make the contract's data through the services (products,
// users, baskets, orders), the ISO 4217 list the currency cases use, and checks of timestamps.

import Foundation
import ShopCore

/// Data the contract's cases build on; everything goes through the service protocols.
enum ContractData {
    /// US dollars from cents.
    static func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    /// A percentage from hundredths (1050 is 10.50 %).
    static func percent(_ hundredths: Int) -> Percentage { Percentage(hundredths: hundredths) }

    /// The ISO 4217 list a currency store starts with: two-, zero- and three-digit minor units,
    /// and gold (no minor unit).
    static let currencyList = [
        CurrencyInfo(code: "EUR", name: "Euro", minorUnits: 2),
        CurrencyInfo(code: "GBP", name: "Pound Sterling", minorUnits: 2),
        CurrencyInfo(code: "JPY", name: "Yen", minorUnits: 0),
        CurrencyInfo(code: "KWD", name: "Kuwaiti Dinar", minorUnits: 3),
        CurrencyInfo(code: "USD", name: "US Dollar", minorUnits: 2),
        CurrencyInfo(code: "XAU", name: "Gold", minorUnits: nil),
    ]

    /// Adds a product with the fields that matter to most cases.
    @discardableResult
    static func addProduct(_ services: ShopServices, sku: String?, title: String = "Thing", category: String = "kitchen",
                           price cents: Int64 = 1_000, discount: Int = 0, stock: Int = 100, brand: String? = "Acme",
                           id: Int64? = nil) async throws -> Product {
        try await services.products.addProduct(NewProduct(id: id, sku: sku, title: title, category: category, brand: brand,
                                                          price: usd(cents), discount: percent(discount), stock: stock))
    }

    /// Adds an active customer `name` with the email `name@example.com`.
    @discardableResult
    static func addUser(_ services: ShopServices, _ name: String, role: UserRole = .user) async throws -> User {
        try await services.users.addUser(NewUser(username: name, email: "\(name)@example.com", firstName: "First",
                                                 lastName: "Last", role: role))
    }

    /// Puts `quantity` of each product in `user`'s basket and checks out.
    static func placeOrder(_ services: ShopServices, _ user: String, _ lines: [(sku: String, quantity: Int)]) async throws -> Order {
        for line in lines { _ = try await services.baskets.addToBasket(user, product: line.sku, quantity: line.quantity) }
        return try await services.baskets.checkout(user)
    }

    /// Every product passing `filter` on `page`.
    static func list(_ services: ShopServices, _ filter: ProductFilter = ProductFilter(), _ page: Page = .all) async throws -> [Product] {
        var found: [Product] = []
        try await services.products.listProducts(filter, page: page) { found.append($0) }
        return found
    }

    /// Every user passing `filter` on `page`.
    static func listUsers(_ services: ShopServices, _ filter: UserFilter = UserFilter(), _ page: Page = .all) async throws -> [User] {
        var found: [User] = []
        try await services.users.listUsers(filter, page: page) { found.append($0) }
        return found
    }

    /// Every order passing `filter` on `page`.
    static func listOrders(_ services: ShopServices, _ filter: OrderFilter = OrderFilter(), _ page: Page = .all) async throws -> [Order] {
        var found: [Order] = []
        try await services.orders.listOrders(filter, page: page) { found.append($0) }
        return found
    }

    // MARK: - Timestamps and days

    /// Whether `text` is an ISO 8601 date and time (`2026-04-13T09:30:00Z`, fractions and
    /// offsets allowed): a real day, a `T`, and a time of day.
    static func isTimestamp(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count >= 19, CalendarDay(iso: String(characters[0..<10])) != nil, characters[10] == "T",
              characters[13] == ":", characters[16] == ":",
              let hour = Int(String(characters[11..<13])), let minute = Int(String(characters[14..<16])),
              let second = Int(String(characters[17..<19])) else { return false }
        return (0..<24).contains(hour) && (0..<60).contains(minute) && (0...60).contains(second)
    }

    /// The day `offset` days after the `YYYY-MM-DD` day `day` (before it when negative).
    static func day(_ day: String, plus offset: Int) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let date = formatter.date(from: day) else { throw ShopError.invalidInput("not a day: \(day)") }
        return formatter.string(from: date.addingTimeInterval(Double(offset) * 86_400))
    }

    /// A report row of `group` in USD with no figures yet.
    static func salesFigures(_ group: String?) -> OrderStatsRow {
        OrderStatsRow(group: group, orders: 0, items: 0, gross: usd(0), net: usd(0))
    }

    /// The price after `discount`, rounded half away from zero to cents, computed with
    /// Foundation's `Decimal` (independently of `Money.discounted`).
    static func discounted(_ cents: Int64, times quantity: Int, by discount: Int) -> Int64 {
        let total = Decimal(cents) * Decimal(quantity) * (Decimal(10_000 - discount) / Decimal(10_000))
        return roundedUnits(total, scale: 0)
    }

    /// `value` rounded half away from zero to `scale` decimals, as an integer count of 10^-scale.
    static func roundedUnits(_ value: Decimal, scale: Int) -> Int64 {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, scale, .plain)
        var shifted = rounded
        for _ in 0..<scale { shifted *= 10 }
        return NSDecimalNumber(decimal: shifted).int64Value
    }
}
