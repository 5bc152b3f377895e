// SeedRefundSQL: how both stores' seeders write a seed's refunds (SeedRefund) — the same SQL on
// SQLite and PostgreSQL, a return's amount by RefundSQL.unitsShare over LineTotalSQL, a goodwill
// refund capped at what is left, the order refunded in full by RefundSQL.fullyRefunded — so that
// the demo's refunds follow the rules the services follow.

import ShopCore

/// The statements of one seeded refund, over the caller's placeholders (constant SQL).
public enum SeedRefundSQL {
    /// Placeholders in the caller's dialect for the refund's values.
    public struct Values {
        public var order, line, quantity, restock, goodwill, reason, at: String

        public init(order: String, line: String, quantity: String, restock: String, goodwill: String, reason: String, at: String) {
            (self.order, self.line, self.quantity, self.restock, self.goodwill, self.reason, self.at)
                = (order, line, quantity, restock, goodwill, reason, at)
        }
    }

    /// `CASE WHEN a < b THEN a ELSE b END`: the smaller of two (SQLite has no LEAST).
    static func least(_ a: String, _ b: String) -> String { "CASE WHEN \(a) < \(b) THEN \(a) ELSE \(b) END" }

    /// A return of `quantity` units of line `line`: the refund row (when the line has that many
    /// left), the units counted returned, the stock when restocked, the order's refunded sum.
    /// Bind the values in the order `order, line, quantity` of each statement's own placeholders.
    public static func returning(_ v: Values) -> [String] {
        let share = RefundSQL.unitsShare(total: LineTotalSQL.orderLine("l"), units: "l.quantity", returned: "l.returned", count: v.quantity)
        return [
            """
            INSERT INTO order_refunds (order_id, line_number, product_id, sku, quantity, restocked, amount_minor, reason, operator, created_at)
            SELECT l.order_id, l.line_number, l.product_id, l.sku, \(v.quantity), \(v.restock),
                   \(least(share, "o.discounted_total_minor - o.refunded_minor")), \(v.reason), 'demo', \(v.at)
            FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.order_id = \(v.order) AND l.line_number = \(v.line) AND l.quantity - l.returned >= \(v.quantity)
            """,
            """
            UPDATE products SET stock = stock + \(v.quantity)
            WHERE \(v.restock) AND id = (SELECT product_id FROM order_lines WHERE order_id = \(v.order) AND line_number = \(v.line)
                                                                              AND quantity - returned >= \(v.quantity))
            """,
            """
            UPDATE order_lines SET returned = returned + \(v.quantity)
            WHERE order_id = \(v.order) AND line_number = \(v.line) AND quantity - returned >= \(v.quantity)
            """,
        ] + refundedSum(v.order)
    }

    /// A goodwill refund of `goodwill` minor units, capped at what is left (none when nothing is).
    public static func goodwill(_ v: Values) -> [String] {
        [
            """
            INSERT INTO order_refunds (order_id, line_number, product_id, sku, quantity, restocked, amount_minor, reason, operator, created_at)
            SELECT o.id, NULL, NULL, NULL, 0, \(v.restock), \(least(v.goodwill, "o.discounted_total_minor - o.refunded_minor")),
                   \(v.reason), 'demo', \(v.at)
            FROM orders o WHERE o.id = \(v.order) AND o.discounted_total_minor - o.refunded_minor > 0
            """,
        ] + refundedSum(v.order)
    }

    /// The order's refunded sum from its refunds, and `refunded` when that is everything it cost.
    static func refundedSum(_ order: String) -> [String] {
        [
            """
            UPDATE orders SET refunded_minor = (SELECT coalesce(sum(r.amount_minor), 0) FROM order_refunds r WHERE r.order_id = orders.id)
            WHERE id = \(order)
            """,
            """
            UPDATE orders SET status = 'refunded'
            WHERE id = \(order) AND \(RefundSQL.fullyRefunded(refunded: "refunded_minor", paid: "discounted_total_minor"))
            """,
        ]
    }
}
