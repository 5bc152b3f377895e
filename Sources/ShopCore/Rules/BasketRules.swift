// BasketRules: who may buy what, and how many: quantities, disabled customers, stock, the number
// of products a basket holds. For every store; the store only counts.

/// The rules a basket follows; each check throws one line that says what is wrong.
public enum BasketRules {
    /// A line's quantity: 1 (0 where `allowZero`, which removes the line) to `BasketLimits.maxQuantity`.
    public static func checkQuantity(_ quantity: Int, allowZero: Bool) throws(ShopError) {
        let lowest = allowZero ? 0 : 1
        guard quantity >= lowest, quantity <= BasketLimits.maxQuantity else {
            throw .invalidInput("invalid quantity \(quantity): expected a whole number from \(lowest) to \(BasketLimits.maxQuantity)")
        }
    }

    /// The customer named `username` is disabled, so `action` was refused.
    public static func disabled(_ username: String, _ action: String) -> ShopError {
        .conflict("user \(username) is disabled: cannot \(action) a disabled user (enable them first)")
    }

    /// The product is out of stock, so it cannot go into a basket.
    public static func outOfStock(_ id: Int64, sku: String, title: String) -> ShopError {
        .conflict("product \(id) (\(sku)) \(title) is out of stock")
    }

    /// A basket holding `lines` products (`holdsProduct`: this one among them) may take this one.
    /// With the price and quantity limits, this keeps every basket total inside 64-bit minor units.
    public static func checkRoom(_ user: User, lines: Int, holdsProduct: Bool) throws(ShopError) {
        guard holdsProduct || lines < BasketLimits.maxLines else { throw basketFull(user.username) }
    }

    /// The basket of `username` holds as many products as a basket may: no new line fits.
    public static func basketFull(_ username: String) -> ShopError {
        .conflict("the basket of \(username) already holds \(BasketLimits.maxLines) products, the most a basket may hold")
    }

    /// What adding to a basket is, in the line that refuses it to a disabled customer.
    public static let adding = "add to the basket of"

    /// Adding to a basket is buying: only an active customer, only a product in stock.
    public static func checkAdd(_ user: User, _ product: Product) throws(ShopError) {
        guard user.status == .active else { throw disabled(user.username, adding) }
        guard product.stock > 0 else { throw outOfStock(product.id, sku: product.sku, title: product.title) }
    }

    /// Setting a line that holds `current` (nil: no line) to `quantity`, which is not 0 (0 removes
    /// the line). Lowering a line is always allowed; raising one (or adding it) is buying more.
    /// Returns true when the set adds a line, so the store checks the basket's room.
    public static func checkSet(_ user: User, _ product: Product, from current: Int?, to quantity: Int) throws(ShopError) -> Bool {
        guard quantity > (current ?? 0) else { return false }
        try checkAdd(user, product)
        return current == nil
    }

    /// An increment of `quantity` that would take the line of `sku` (holding `current`) in the
    /// basket of `username` past `BasketLimits.maxQuantity`.
    public static func lineFull(_ username: String, sku: String, adding quantity: Int, current: Int) -> ShopError {
        .conflict("cannot add \(quantity) × \(sku) to the basket of \(username): it has \(current) and a line holds at most \(BasketLimits.maxQuantity)")
    }

    /// A product that is not in the basket of `username` (to remove, or to set to 0).
    public static func notInBasket(_ username: String, productID: Int64, sku: String) -> ShopError {
        .notFound("product \(productID) (\(sku)) is not in the basket of \(username)")
    }

    /// Checks out a basket: the customer is active and the basket is not empty.
    public static func checkCheckout(_ user: User, lines: Int) throws(ShopError) {
        guard user.status == .active else { throw disabled(user.username, checkingOut) }
        guard lines > 0 else { throw emptyBasket(user.username) }
    }

    /// What checking out is, in the line that refuses it to a disabled customer.
    public static let checkingOut = "check out the basket of"

    /// The basket of `username` is empty: there is nothing to check out.
    public static func emptyBasket(_ username: String) -> ShopError {
        .conflict("basket is empty: \(username) has nothing to check out")
    }

    /// Every line's stock (as read with the line) covers its quantity; otherwise one error naming
    /// each short line. A line without a stock is not checked.
    public static func checkStock(_ user: User, _ lines: [BasketLine]) throws(ShopError) {
        let shortages = lines.compactMap { line -> String? in
            guard let stock = line.stock, line.quantity > stock else { return nil }
            return "\(line.sku) (\(line.title)): wanted \(line.quantity), in stock \(stock)"
        }
        guard shortages.isEmpty else {
            throw .conflict("not enough stock to check out the basket of \(user.username); nothing was changed: "
                            + shortages.joined(separator: "; "))
        }
    }

    /// A line whose stock was taken by someone else between the check and the update.
    public static func stockTaken(sku: String, title: String) -> ShopError {
        .conflict("not enough stock of \(sku) (\(title)) to check out; nothing was changed")
    }
}

extension OrderStatus {
    /// Refuses a move of order `id` from this status to `next` that the order's life does not allow,
    /// naming the moves that are allowed.
    public func checkMove(to next: OrderStatus, order id: Int64) throws(ShopError) {
        guard self != next else { throw .conflict("order \(id) is already \(next.rawValue)") }
        guard allowedNext.contains(next) else {
            let allowed = allowedNext.map(\.rawValue)
            let hint = allowed.isEmpty ? "\(rawValue) is final" : "allowed: \(allowed.joined(separator: ", "))"
            throw .conflict("cannot move order \(id) from \(rawValue) to \(next.rawValue); \(hint)")
        }
    }
}
