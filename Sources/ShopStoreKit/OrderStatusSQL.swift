// OrderStatusSQL: ShopCore's order status machine (OrderStatus and its allowedNext) as the SQL
// both stores take it from — the schemas' CHECK lists, the life-order rank reports and sorts use,
// and the moves the PostgreSQL server's `shopsh_set_order_status` allows. Nothing here is typed
// by hand: a status or a move added in ShopCore reaches every store's SQL.

import ShopCore

/// The order status machine as constant SQL.
public enum OrderStatusSQL {
    /// `'placed', 'paid', …`: every status, in the order of an order's life (for `IN (…)`).
    public static var list: String { literals(OrderStatus.allCases) }

    /// `status IN (…)` over every status (or `statuses`): a schema's CHECK on `column`.
    public static func check(_ column: String = "status", statuses: [OrderStatus] = OrderStatus.allCases) -> String {
        "\(column) IN (\(literals(statuses)))"
    }

    /// `CASE column WHEN 'placed' THEN 1 … ELSE n END`: a status's place in an order's life.
    public static func rank(_ column: String) -> String {
        let cases = OrderStatus.allCases.enumerated().dropLast()
            .map { "WHEN '\($0.element.rawValue)' THEN \($0.offset + 1)" }
        return "CASE \(column) \(cases.joined(separator: " ")) ELSE \(OrderStatus.allCases.count) END"
    }

    /// `VALUES ('placed', 'paid'), …`: every (from, to) move `allowedNext` allows.
    public static var moves: String {
        let pairs = OrderStatus.allCases.flatMap { from in from.allowedNext.map { "('\(from.rawValue)', '\($0.rawValue)')" } }
        return "VALUES " + pairs.joined(separator: ", ")
    }

    /// `'placed', 'paid'`: the statuses a move to `status` may start from (for `IN (…)`).
    public static func movingTo(_ status: OrderStatus) -> String {
        literals(OrderStatus.allCases.filter { $0.allowedNext.contains(status) })
    }

    private static func literals(_ statuses: [OrderStatus]) -> String {
        statuses.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}
