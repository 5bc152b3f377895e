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

    /// Only active customers buy; `action` says what was refused (`add to the basket of`).
    public static func checkActive(_ user: User, _ action: String) throws(ShopError) {
        guard user.status == .active else {
            throw .conflict("user \(user.username) is disabled: cannot \(action) a disabled user (enable them first)")
        }
    }

    /// A product out of stock cannot go into a basket.
    public static func checkInStock(_ product: Product) throws(ShopError) {
        guard product.stock > 0 else {
            throw .conflict("product \(product.id) (\(product.sku)) \(product.title) is out of stock")
        }
    }

    /// A basket holding `lines` products (`holdsProduct`: this one among them) may take this one.
    /// With the price and quantity limits, this keeps every basket total inside 64-bit minor units.
    public static func checkRoom(_ user: User, lines: Int, holdsProduct: Bool) throws(ShopError) {
        guard holdsProduct || lines < BasketLimits.maxLines else {
            throw .conflict("the basket of \(user.username) already holds \(BasketLimits.maxLines) products, the most a basket may hold")
        }
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
