// LineTotalSQL: ShopCore's rule for a sold line's total after its discount (Money.discounted:
// rounded once, half away from zero) as one SQL expression that SQLite and PostgreSQL both
// evaluate exactly in 64-bit integers — the one place the stores' reports and seeds take it from.

/// A line's totals as SQL over its columns.
public enum LineTotalSQL {
    /// `unitPrice × quantity` less `discount` hundredths of a percent, rounded once, half away
    /// from zero, as `Money.discounted` rounds it.
    ///
    /// The plain `(u × q × (10000 − d) + 5000) / 10000` passes 2^63 for lines within ShopCore's
    /// ranges (10^15 × 10^4): SQLite then falls to floating point and PostgreSQL fails. Here the
    /// gross `g = u × q` (at most 10^15 by `ProductLimits` and `BasketLimits`) is split as
    /// `g = 10000·a + b`, so `g × k / 10000 = a·k + b·k / 10000` with `k = 10000 − d`: no
    /// intermediate exceeds `g` or 10^8, and only the second part is rounded. Both engines divide
    /// integers truncating, which rounds half up here because nothing is negative (prices and
    /// quantities are not, and `d` is 0…10000 by `Percentage`).
    ///
    /// The arguments are constant SQL (column names or expressions of the caller), never values.
    public static func discounted(unitPrice: String, quantity: String, discount: String) -> String {
        let gross = "(\(unitPrice) * \(quantity))"
        let kept = "(10000 - \(discount))"
        return "(\(gross) / 10000 * \(kept) + (\(gross) % 10000 * \(kept) + 5000) / 10000)"
    }

    /// `discounted` over an order line's columns (`unit_price_minor`, `quantity`,
    /// `discount_hundredths`), each prefixed with `alias.` when an alias is given.
    public static func orderLine(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return discounted(unitPrice: prefix + "unit_price_minor", quantity: prefix + "quantity",
                          discount: prefix + "discount_hundredths")
    }

    /// What the customer paid for an order line: `orderLine` less the line's part of the order's
    /// coupon (`coupon_minor`, CouponRules.split) — OrderLine.paidTotal as SQL.
    public static func orderLinePaid(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return "(\(orderLine(alias)) - \(prefix)coupon_minor)"
    }
}
