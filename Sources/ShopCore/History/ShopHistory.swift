// ShopHistory: the state of the shop at a past moment, rebuilt from the state now by rolling back,
// newest first, every audit row written after that moment (and, for stock, every stock ledger
// movement). Pure logic: the caller reads the rows through the services, so a viewer rebuilds
// only what it may read, masked as it reads it.

/// Rebuilding products, baskets and users as they were.
public enum ShopHistory {
    // MARK: - Products

    /// The products as they were: `current` (every product now) with each of `rows` (product rows
    /// after the moment, newest first) rolled back, and stock as the ledger had it (`movements`
    /// after the moment, oldest first). Sorted by id.
    public static func products(current: [Product], rows: [AuditEntry], movements: [StockMovement]) -> [Product] {
        var byID: [Int64: Product] = [:]
        for product in current { byID[product.id] = product }
        for row in rows where row.entity == AuditEntity.product.rawValue {
            guard let id = Int64(row.entityID) else { continue }
            rollBack(row, of: id, in: &byID)
        }
        // The stock before the first movement after the moment is what the shelf held then.
        var firstMovement: Set<Int64> = []
        for movement in movements where firstMovement.insert(movement.productID).inserted {
            guard var product = byID[movement.productID] else { continue }
            let (before, overflow) = movement.balance.subtractingReportingOverflow(movement.change)
            if !overflow, let units = Int(exactly: before) { product.stock = units }
            byID[movement.productID] = product
        }
        return byID.values.sorted { $0.id < $1.id }
    }

    /// Undoes one product row on `byID`.
    static func rollBack(_ row: AuditEntry, of id: Int64, in byID: inout [Int64: Product]) {
        if row.action.hasPrefix("review ") {
            guard var product = byID[id] else { return }
            product.reviews = reviews(product.reviews, undoing: row)
            byID[id] = product
            return
        }
        switch (row.before, row.after) {
        case (nil, _?):
            byID[id] = nil   // added after the moment
        case (let before?, nil):
            byID[id] = product(id: id, from: before)   // deleted after the moment: as it was then
        case (let before?, _?):
            guard var product = byID[id] else { return }
            apply(before, to: &product)
            byID[id] = product
        case (nil, nil):
            return
        }
    }

    /// A review summary with a hide, unhide or delete undone.
    static func reviews(_ summary: ReviewSummary, undoing row: AuditEntry) -> ReviewSummary {
        guard case .integer(let rating)? = row.before?["rating"], let stars = Int(exactly: rating) else { return summary }
        let wasVisible = row.before?["hidden_reason"] == AuditValue.null
        let isVisible = row.after.map { $0["hidden_reason"] == AuditValue.null } ?? false
        var summary = summary
        switch (wasVisible, isVisible) {
        case (true, false): summary = ReviewSummary(count: summary.count &+ 1, ratingTotal: summary.ratingTotal &+ stars)
        case (false, true): summary = ReviewSummary(count: max(0, summary.count &- 1), ratingTotal: max(0, summary.ratingTotal &- stars))
        default: break
        }
        return summary
    }

    /// A product from a whole image (a delete row's `before`).
    static func product(id: Int64, from fields: AuditFields) -> Product {
        var product = Product(id: id, sku: "", title: "", category: "", price: Money(minorUnits: 0, currency: .usd))
        apply(fields, to: &product)
        return product
    }

    /// Sets the fields a row recorded on `product` (the one reading of a product's audited
    /// values, for `--as-of` and `audit revert`); returns the names of those it cannot read,
    /// which are left as they are.
    @discardableResult
    public static func apply(_ fields: AuditFields, to product: inout Product) -> [String] {
        var unread: [String] = []
        for (name, value) in fields.fields {
            switch (name, value) {
            case ("sku", .text(let text)): product.sku = text
            case ("title", .text(let text)): product.title = text
            case ("description", .text(let text)): product.description = text
            case ("category", .text(let text)): product.category = text
            case ("brand", .text(let text)): product.brand = text
            case ("brand", .null): product.brand = nil
            case ("price", .text(let text)):
                guard let price = try? Money.parse(String(text.prefix { $0 != " " }), currency: .usd) else { unread.append(name); continue }
                product.price = price
            case ("discount", .text(let text)):
                guard let discount = try? Percentage.parse(text) else { unread.append(name); continue }
                product.discount = discount
            case ("stock", .integer(let units)):
                guard let units = Int(exactly: units) else { unread.append(name); continue }
                product.stock = units
            case ("rating", .text(let text)):
                guard let value = ExactDecimal.parse(text, maxScale: 2), let hundredths = Int(exactly: value.units) else {
                    unread.append(name)
                    continue
                }
                product.rating = Rating(hundredths: hundredths)
            case ("tags", .list(let tags)): product.tags = tags
            case ("minimum_order_quantity", .integer(let units)):
                guard let units = Int(exactly: units) else { unread.append(name); continue }
                product.minimumOrderQuantity = units
            case ("barcode", .text(let text)): product.barcode = text
            case ("barcode", .null): product.barcode = nil
            case ("details", .text(let json)): product.details = ProductDetails(storedJSON: json)
            default: unread.append(name)
            }
        }
        return unread
    }

    // MARK: - Baskets

    /// A basket line as it was: which product, how many, and since when (for the basket's order:
    /// oldest first, then by product id, as the stores list them).
    public struct PastLine: Hashable, Sendable {
        public var productID: Int64
        public var quantity: Int
        /// When the line was made (the log's start when that is older than the log).
        public var addedAt: String
    }

    /// What a basket held at the moment: `current` (its lines now, oldest first) with `rows`
    /// rolled back. `rows` are every row of the customer's basket and every checkout of theirs,
    /// newest first, before and after the moment (the ones before tell when a line was made);
    /// `moment` is the last second that counts. A line no row made is as old as the log
    /// (`historyStart`: a seeded line's time). Also the coupon it carried.
    public static func basket(userID: Int64, current: [BasketLine], coupon: String?, rows: [AuditEntry],
                              moment: HistoryMoment, historyStart: String = "") -> (lines: [PastLine], coupon: String?) {
        let end = moment.description
        var quantities: [Int64: Int] = [:]
        for line in current { quantities[line.productID] = line.quantity }
        var coupon = coupon
        for row in rows where row.time > end {
            switch (row.entity, row.action) {
            case ("order", "checkout"):
                guard case .list(let lines)? = row.after?["lines"] else { continue }
                for (productID, quantity) in lines.compactMap(checkoutLine) { quantities[productID] = quantity }
                if case .text(let code)? = row.after?["coupon"] { coupon = code }
            case ("basket", "coupon add"):
                coupon = nil
            case ("basket", "coupon remove"):
                if case .text(let code)? = row.before?["coupon"] { coupon = code }
            case ("basket", _):
                guard case .integer(let productID)? = (row.before ?? row.after)?["product"] else { continue }
                quantities[productID] = quantity(row.before)
            case ("product", "delete"):
                // The delete took the line with it (no basket row says so): as the log last left it.
                guard let productID = Int64(row.entityID), let held = heldQuantity(productID, before: row, in: rows) else { continue }
                quantities[productID] = held
            default:
                continue
            }
        }
        // When each line held then was made: the last row at or before the moment that made it.
        var made: [Int64: String] = [:]
        for row in rows where row.time <= end && row.entity == "basket" && row.before == nil {
            guard case .integer(let productID)? = row.after?["product"], made[productID] == nil else { continue }
            made[productID] = row.time
        }
        let lines = quantities.map { PastLine(productID: $0.key, quantity: $0.value, addedAt: made[$0.key] ?? historyStart) }
            .sorted { ($0.addedAt, $0.productID) < ($1.addedAt, $1.productID) }
        return (lines, coupon)
    }

    /// How many of `productID` the basket held just before `row` (a product's delete), as the
    /// basket rows among `rows` (the customer's basket rows and checkouts, newest first) last left
    /// it; nil: no line (or a checkout emptied the basket since), or none the log knows.
    public static func heldQuantity(_ productID: Int64, before row: AuditEntry, in rows: [AuditEntry]) -> Int? {
        for earlier in rows where earlier.id < row.id {
            if earlier.entity == AuditEntity.order.rawValue, earlier.action == "checkout" { return nil }
            guard earlier.entity == AuditEntity.basket.rawValue else { continue }
            guard case .integer(let id)? = (earlier.after ?? earlier.before)?["product"], id == productID else { continue }
            return quantity(earlier.after)
        }
        return nil
    }

    /// The price a product had when audit row `rowID` was written: the oldest of `rows` (its
    /// rows, newest first) written after it that changed the price says what it was before;
    /// none: `now`.
    public static func price(atRow rowID: Int64, now: Money, rows: [AuditEntry]) -> Money {
        var price = now
        for row in rows where row.id > rowID && row.entity == AuditEntity.product.rawValue {
            guard case .text(let text)? = row.before?["price"],
                  let before = try? Money.parse(String(text.prefix { $0 != " " }), currency: now.currency) else { continue }
            price = before
        }
        return price
    }

    /// Whether `row` touches customer `userID`'s basket (a line, its coupon, or its checkout).
    public static func isBasketRow(_ row: AuditEntry, userID: Int64) -> Bool {
        switch row.entity {
        case "basket": return row.entityID == String(userID)
        case "order": return row.action == "checkout" && row.after?["user"] == .integer(userID)
        default: return false
        }
    }

    /// `113 × 2` (a checkout row's line) as product and quantity; nil for a line without a product.
    static func checkoutLine(_ text: String) -> (Int64, Int)? {
        let parts = text.split(separator: " × ")
        guard parts.count == 2, let productID = Int64(parts[0]), let quantity = Int(parts[1]) else { return nil }
        return (productID, quantity)
    }

    /// The `quantity` field of a basket row's side (nil: no line).
    public static func quantity(_ fields: AuditFields?) -> Int? {
        guard case .integer(let units)? = fields?["quantity"] else { return nil }
        return Int(exactly: units)
    }

    // MARK: - Users

    /// User `id` as they were: `current` (nil when deleted since) with `rows` (the user's rows
    /// after the moment, newest first) rolled back; nil when they did not exist then.
    /// `createdAt` is the time of their `add` row when they must be rebuilt from a delete row.
    public static func user(id: Int64, current: User?, rows: [AuditEntry], createdAt: String?) -> User? {
        var user = current
        for row in rows where row.entity == AuditEntity.user.rawValue && row.entityID == String(id) {
            guard !row.action.hasPrefix("address "), row.action != "passwd", row.action != "rehash" else { continue }
            switch (row.before, row.after) {
            case (nil, _?): user = nil
            case (let before?, nil):
                var restored = User(id: id, username: "", email: "", firstName: "", lastName: "", createdAt: createdAt ?? "")
                apply(before, to: &restored)
                user = restored
            case (let before?, _?):
                guard var changed = user else { continue }
                apply(before, to: &changed)
                user = changed
            case (nil, nil): continue
            }
        }
        return user
    }

    static func apply(_ fields: AuditFields, to user: inout User) {
        for (name, value) in fields.fields {
            switch (name, value) {
            case ("username", .text(let text)): user.username = text
            case ("email", .text(let text)): user.email = text
            case ("first_name", .text(let text)): user.firstName = text
            case ("last_name", .text(let text)): user.lastName = text
            case ("phone", .text(let text)): user.phone = text
            case ("phone", .null): user.phone = nil
            case ("role", .text(let text)): if let role = UserRole(rawValue: text) { user.role = role }
            case ("status", .text(let text)): if let status = UserStatus(rawValue: text) { user.status = status }
            default: continue
            }
        }
    }
}

extension ProductFilter {
    /// Whether `product` passes the filter's conditions, as the stores' SQL decides them
    /// (category, price range, stock, brand in any case, rating, ids); not `search`.
    public func matches(_ product: Product) -> Bool {
        if let category, product.category != category { return false }
        if let minPrice, product.price.minorUnits < minPrice.minorUnits { return false }
        if let maxPrice, product.price.minorUnits > maxPrice.minorUnits { return false }
        if inStockOnly, product.stock <= 0 { return false }
        if let brand, product.brand?.lowercased() != brand.lowercased() { return false }
        if let stockBelow, product.stock >= stockBelow { return false }
        if let minRating, product.rating.hundredths < minRating.hundredths { return false }
        if let ids, !ids.contains(where: { $0.contains(product.id) }) { return false }
        return true
    }
}
