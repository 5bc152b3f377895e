// RefundSQL: ShopCore's refund rules (RefundRules) as SQL both stores' engines evaluate the same
// way in 64-bit integers — a returned unit's share of its line and when an order is refunded in
// full — so the PostgreSQL server's functions and the tests take them from one place.

import ShopCore

/// The refund rules as SQL expressions over the caller's columns (constant SQL, never values).
public enum RefundSQL {
    /// `RefundRules.unitsShare`: what units `returned + 1 … returned + count` of a line of
    /// `units` units costing `total` give back (the total split by largest remainder).
    public static func unitsShare(total: String, units: String, returned: String, count: String) -> String {
        let remainder = "(\(total) % \(units))"
        let extra = "CASE WHEN \(returned) >= \(remainder) THEN 0 WHEN \(returned) + \(count) >= \(remainder) "
            + "THEN \(remainder) - \(returned) ELSE \(count) END"
        return "(\(count) * (\(total) / \(units)) + \(extra))"
    }

    /// `Order.refundState == .full`: something was paid and all of it went back.
    public static func fullyRefunded(refunded: String, paid: String) -> String {
        "(\(paid) > 0 AND \(refunded) >= \(paid))"
    }

    /// `'paid', 'shipped', 'delivered'`: the statuses that take returns and refunds (for `IN (…)`).
    public static var refundableStatuses: String {
        OrderStatus.allCases.filter(\.takesRefunds).map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}
