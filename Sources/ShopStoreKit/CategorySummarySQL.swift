// CategorySummarySQL: what the category report reads instead of every order line (issue 40) —
// `sales_day_categories`, each day's figures per category, currency and order status, and the
// statements that keep it, written once for both stores (SQLite's triggers, PostgreSQL's statement
// triggers).
//
// A line counts under its product's category *as it is now* (the report's meaning); a line whose
// product is gone counts under "no product" (`no_product` 1, `category` ''). An order counts once in
// a category however many of its lines the category holds, so no line can be counted in or out
// alone: every change recounts the orders it touches — the difference between their lines as they
// stand after the change and as they stood before it is added, in one statement. Rows are never
// deleted; one whose `orders` fell to 0 is read as absent.

/// The category summary as SQL both stores run (constant SQL, never values).
public struct CategorySummarySQL: Sendable {
    /// The dialect's `DATE`-like day of `o.created_at`.
    public let day: String
    /// A sum as the dialect keeps it in 64 bits (PostgreSQL: cast back to bigint).
    public let sum: @Sendable (String) -> String

    public init(day: String, sum: @escaping @Sendable (String) -> String = { "sum(\($0))" }) {
        self.day = day
        self.sum = sum
    }

    public static let table = "sales_day_categories"
    /// The key's columns.
    public static let key = ["day", "currency", "status", "no_product", "category"]
    /// The figures a row adds up: orders holding such lines, units, gross and net (as the lines' report).
    public static let figures = ["orders", "items", "gross", "net"]
    /// The columns of an order line a recount reads, and those whose change moves figures.
    public static let lineColumns = ["order_id", "line_number", "product_id", "unit_price_minor", "discount_hundredths",
                                     "quantity", "coupon_minor"]
    /// The columns of an order whose change moves its lines' figures.
    public static let orderColumns = ["created_at", "currency", "status"]

    /// The figures of lines `lines` (a relation of `lineColumns`) under their orders `orders` (a
    /// relation of orders' columns) and their products `products` (of `id` and `category`),
    /// grouped by the key and named `c0`, `c1`, … in order. A line counts as having no product
    /// when `gone` holds, else under `category` (`l` is the line, `p` its product).
    public func grouped(lines: String, orders: String = "orders", products: String = "products",
                        gone: String = "p.id IS NULL", category: String = "p.category") -> String {
        let columns = [
            day, "o.currency", "o.status", "CASE WHEN \(gone) THEN 1 ELSE 0 END", "CASE WHEN \(gone) THEN '' ELSE \(category) END",
            "count(DISTINCT l.order_id)", sum("l.quantity"), sum("l.unit_price_minor * l.quantity"), sum(LineTotalSQL.orderLinePaid("l")),
        ].enumerated().map { "\($0.element) AS c\($0.offset)" }
        return """
            SELECT \(columns.joined(separator: ", "))
            FROM \(lines) l JOIN \(orders) o ON o.id = l.order_id LEFT JOIN \(products) p ON p.id = l.product_id
            GROUP BY 1, 2, 3, 4, 5
            """
    }

    /// `grouped`'s figures added to the summary's rows (a new key makes its row), in key order (so
    /// two statements never lock two rows in opposite orders), after `with` (a `WITH` list). The
    /// target is named, not aliased: SQLite's triggers take no alias there.
    public func add(_ grouped: String, with: String? = nil) -> String {
        let table = Self.table, keys = Self.key
        let updates = Self.figures.map { "\($0) = \(table).\($0) + excluded.\($0)" }
        return """
            \(with.map { "WITH \($0) " } ?? "")INSERT INTO \(table) (\((keys + Self.figures).joined(separator: ", ")))
            SELECT * FROM (\(grouped)) g WHERE true ORDER BY \((1...keys.count).map(String.init).joined(separator: ", "))
            ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))
            """
    }

    /// Some orders recounted, in one statement: the difference between their lines as they stand
    /// (`after`, with `afterGone`) and as they stood (`before`, under `beforeOrders`, products
    /// `beforeProducts` or a product's `beforeCategory`), added to the summary where it is not
    /// nothing. `with`: a `WITH` list the relations may name (PostgreSQL only: SQLite's triggers
    /// take none).
    public func recount(before: String, after: String, beforeOrders: String = "orders", afterOrders: String = "orders",
                        beforeProducts: String = "products", beforeCategory: String = "p.category",
                        afterGone: String = "p.id IS NULL", with: String? = nil) -> String {
        let keys = (0..<Self.key.count).map { "c\($0)" }
        let figures = (Self.key.count..<(Self.key.count + Self.figures.count)).map { "c\($0)" }
        let difference = """
            SELECT \((keys + figures.map { "\(sum($0)) AS \($0)" }).joined(separator: ", ")) FROM (
                SELECT \((keys + figures.map { "-\($0) AS \($0)" }).joined(separator: ", "))
                FROM (\(grouped(lines: before, orders: beforeOrders, products: beforeProducts, category: beforeCategory))) b
                UNION ALL SELECT * FROM (\(grouped(lines: after, orders: afterOrders, gone: afterGone))) a) d
            GROUP BY \((1...keys.count).map(String.init).joined(separator: ", "))
            HAVING \(figures.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            """
        return add(difference, with: with)
    }

    /// The lines of the orders `orders` (an SQL list or subquery of order ids) as the table holds
    /// them, but those keyed as `except` lists (a subquery of order ids and line numbers), and with
    /// the rows `plus` selects (a `SELECT` of `lineColumns`).
    public static func lines(ofOrders orders: String, except keys: String? = nil, plus: String? = nil) -> String {
        let except = keys.map { " AND (order_id, line_number) NOT IN \($0)" } ?? ""
        let more = plus.map { " UNION ALL \($0)" } ?? ""
        return "(SELECT \(lineColumns.joined(separator: ", ")) FROM order_lines WHERE order_id IN \(orders)\(except)\(more))"
    }

    /// A trigger's `OLD` or `NEW` line as a `SELECT` of `lineColumns`.
    public static func line(_ row: String) -> String {
        "SELECT " + lineColumns.map { "\(row).\($0)" }.joined(separator: ", ")
    }

    /// The summary emptied and counted again from every order's lines (a migration, after a seed).
    public var refill: [String] {
        ["DELETE FROM \(Self.table)", add(grouped(lines: "order_lines"))]
    }
}
