// PostgresOrderUpdateSummarySchema: migration 30 — an UPDATE of orders moves the sales and refund
// summaries in one statement each (issue 40). Migrations 19 and 21 paired the statement's old and
// new rows once per summary and per direction (six pairings each: an UPDATE of 500,000 orders read
// both transition tables twelve times, 9.5 s of its 30); these functions pair them once:
//
// - `shopsh_sales_orders_updated`: the orders whose summarised values moved, each as it was (-1)
//   and as it is (+1), once; `sales_days`, `sales_day_customers` and `sales_day_products` each add
//   the signed difference where it is not nothing, in one statement of data-modifying `WITH` parts
//   (one table each, so no row is changed twice);
// - `shopsh_refunds_orders_updated`: the orders whose currency, status or customer moved, once;
//   their refunds move in `refund_days`, `refund_day_products` and `refund_day_customers` by
//   RefundSummarySQL.difference, likewise in one statement.
// Same tables, meanings and triggers as before: only the functions' bodies are replaced.

import ShopStoreKit

/// The DDL of migration 30 (constant SQL; the schema's name is quoted by the server).
package enum PostgresOrderUpdateSummarySchema {
    /// The orders' columns the sales summaries read, and those whose change moves an order's lines.
    private static let salesColumns = ["created_at", "currency", "status", "user_id", "customer", "items", "total_minor",
                                       "discounted_total_minor"]
    private static let lineColumns = ["created_at", "currency", "status"]

    /// `moved AS (…)`: the statement's orders whose `columns` changed — `id`, the values as they
    /// are, and as they were (`old_…`). The one pairing of `old_orders` with `new_orders`.
    private static func moved(_ columns: [String]) -> String {
        let new = columns.map { "n.\($0)" }
        return """
            moved AS (SELECT n.id, \((new + columns.map { "o.\($0) AS old_\($0)" }).joined(separator: ", "))
                      FROM old_orders o JOIN new_orders n ON n.id = o.id
                      WHERE (\(columns.map { "o.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(new.joined(separator: ", "))))
            """
    }

    /// The moved orders' `columns` as they were, under their own names.
    private static func wereBefore(_ columns: [String]) -> String { columns.map { "old_\($0) AS \($0)" }.joined(separator: ", ") }

    /// The figures `from` binds, signed, grouped by `key` (columns and their values) and added to
    /// `table` where they are not all nothing, in key order (so two statements never lock two rows
    /// in opposite orders); `title`, when named, is kept the larger of the row's and its value.
    private static func addDifference(to table: String, key: [(column: String, value: String)],
                                      figures: [(column: String, value: String)], title: String? = nil, from: String) -> String {
        let sums = figures.map { "sum(\($0.value))::bigint" }
        let columns = key.map(\.column) + figures.map(\.column) + (title == nil ? [] : ["title"])
        let order = (1...key.count).map(String.init).joined(separator: ", ")
        let updates = figures.map { "\($0.column) = t.\($0.column) + EXCLUDED.\($0.column)" }
            + (title == nil ? [] : ["title = GREATEST(t.title, EXCLUDED.title)"])
        return """
            INSERT INTO \(table) AS t (\(columns.joined(separator: ", ")))
            SELECT \((key.map(\.value) + sums + (title.map { ["coalesce(\($0), '')"] } ?? [])).joined(separator: ", ")) \(from)
            GROUP BY \(order) HAVING \(sums.map { "\($0) <> 0" }.joined(separator: " OR ")) ORDER BY \(order)
            ON CONFLICT (\(key.map(\.column).joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))
            """
    }

    /// The sales summaries moved by an orders UPDATE: one statement.
    private static var salesMoved: String {
        let day = PostgresSalesSummarySchema.day
        // Each moved order as it was (-1) and as it is (+1); `lines_moved` when its lines move too.
        let linesMoved = "(\(lineColumns.map { "old_\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(lineColumns.joined(separator: ", ")))"
        let sides = """
            sides AS (SELECT -1 AS sign, id, \(wereBefore(salesColumns)), \(linesMoved) AS lines_moved
                      FROM moved
                      UNION ALL SELECT 1, id, \(salesColumns.joined(separator: ", ")), \(linesMoved) FROM moved)
            """
        let orderFigures = [("orders", "r.sign"), ("items", "r.sign * r.items"), ("gross", "r.sign * r.total_minor"),
                            ("net", "r.sign * r.discounted_total_minor")]
        let days = addDifference(to: "sales_days", key: [("day", day("r")), ("currency", "r.currency"), ("status", "r.status")],
                                 figures: orderFigures, from: "FROM sides r")
        let customers = addDifference(to: "sales_day_customers",
                                      key: [("day", day("r")), ("currency", "r.currency"), ("status", "r.status"),
                                            ("user_id", "COALESCE(r.user_id, 0)"), ("customer", "r.customer")],
                                      figures: orderFigures, from: "FROM sides r")
        let products = addDifference(to: "sales_day_products",
                                     key: [("day", day("o")), ("currency", "o.currency"), ("status", "o.status"),
                                           ("product_id", "COALESCE(l.product_id, 0)"), ("sku", "l.sku")],
                                     figures: [("orders", "o.sign"), ("items", "o.sign * l.quantity"),
                                               ("gross", "o.sign * l.unit_price_minor * l.quantity"),
                                               ("net", "o.sign * \(LineTotalSQL.orderLinePaid("l"))")],
                                     title: "max(l.title) FILTER (WHERE o.sign > 0)",
                                     from: "FROM order_lines l JOIN sides o ON o.id = l.order_id WHERE o.lines_moved")
        return "WITH \(moved(salesColumns)), \(sides), days_moved AS (\(days)), customers_moved AS (\(customers)) \(products)"
    }

    /// The refund summaries moved by an orders UPDATE: one statement.
    private static var refundsMoved: String {
        let summaries = PostgresRefundSummarySchema.summaries
        let columns = RefundSummarySQL.orderColumns
        let lines = "LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number"
        let before = "FROM order_refunds r JOIN (SELECT id, \(wereBefore(columns)) FROM moved) o ON o.id = r.order_id \(lines)"
        let after = "FROM order_refunds r JOIN moved o ON o.id = r.order_id \(lines)"
        let tables = RefundSummarySQL.tables, last = tables[tables.count - 1]
        let earlier = tables.dropLast().enumerated().map { part in
            "refunds_moved_\(part.offset) AS (\(summaries.difference(before: before, as: part.element, after: after, as: part.element)))"
        }
        return summaries.difference(before: before, as: last, after: after, as: last,
                                    with: ([moved(columns)] + earlier).joined(separator: ", "))
    }

    package static var statements: [String] {
        PostgresServerRules.triggerFunction("shopsh_sales_orders_updated", [salesMoved], replacing: true)
            + PostgresServerRules.triggerFunction("shopsh_refunds_orders_updated", [refundsMoved], replacing: true)
    }
}
