// RefundSummarySQL: what the refund reports read instead of every refund joined to its order (issue
// 40) — the summaries' tables, keys and figures, and the statements that count refunds into and
// out of them, written once for both stores (SQLite's triggers, PostgreSQL's statement triggers).
//
// - `refund_days`: each day's refunds per currency and order status (days, weeks, months, statuses);
// - `refund_day_products`: the same per returned product, as the refund named it (0 once the
//   product was deleted) — returns only, a goodwill refund has no product (products, categories);
// - `refund_day_customers`: the same per customer of the order (0 once the user was deleted);
// - `refund_day_categories`: the same per category of the returned product *as it is now* (as the
//   sales' category summary, CategorySummarySQL), returns of a product gone under "no product"
//   (`no_product` 1, `category` ''): a product moved to another category, or deleted, moves its
//   refunds. Kept apart from `tables` (SQLite v17, PostgreSQL migration 29), whose list the older
//   migrations read.
//
// A refund counts under the day it was given and its order's *current* currency, status and
// customer: a change of those moves the order's refunds. Rows are never deleted; one whose
// `refunds` fell to 0 is read as absent.

/// One refund summary: its table, what keys a row, and whether it holds returns only.
public struct RefundSummaryTable: Sendable {
    public let name: String
    /// The key's columns and their values over a refund `r` and its order `o` (`day` stands for
    /// the dialect's day of `r.created_at`).
    public let key: [(column: String, value: String)]
    /// Only returns count (a goodwill refund names no product).
    public let returnsOnly: Bool
    /// The row keeps the title the order line had (for a product deleted since).
    public let keepsTitle: Bool
}

/// The refund summaries as SQL both stores run (constant SQL, never values).
public struct RefundSummarySQL: Sendable {
    /// The dialect's `DATE`-like day of `r.created_at`.
    public let day: String
    /// A sum as the dialect keeps it in 64 bits (PostgreSQL: cast back to bigint).
    public let sum: @Sendable (String) -> String
    /// The dialect's larger of two texts (`max` in SQLite, `GREATEST` in PostgreSQL).
    public let larger: String

    public init(day: String, sum: @escaping @Sendable (String) -> String = { "sum(\($0))" }, larger: String) {
        self.day = day
        self.sum = sum
        self.larger = larger
    }

    /// The three summaries.
    public static let tables: [RefundSummaryTable] = [
        RefundSummaryTable(name: "refund_days", key: [("day", "day"), ("currency", "o.currency"), ("status", "o.status")],
                           returnsOnly: false, keepsTitle: false),
        RefundSummaryTable(name: "refund_day_products",
                           key: [("day", "day"), ("currency", "o.currency"), ("status", "o.status"),
                                 ("product_id", "coalesce(r.product_id, 0)"), ("sku", "coalesce(r.sku, '')")],
                           returnsOnly: true, keepsTitle: true),
        RefundSummaryTable(name: "refund_day_customers",
                           key: [("day", "day"), ("currency", "o.currency"), ("status", "o.status"),
                                 ("user_id", "coalesce(o.user_id, 0)"), ("customer", "o.customer")],
                           returnsOnly: false, keepsTitle: false),
    ]

    /// The summary per category, whose rows `from` binds with the returned product `p` (`LEFT JOIN
    /// products p ON p.id = r.product_id`, `withProducts`): under no product when `gone` holds,
    /// else under `category` — a trigger names the category a product had before its change.
    public static func categories(gone: String = "p.id IS NULL", category: String = "p.category") -> RefundSummaryTable {
        RefundSummaryTable(name: "refund_day_categories",
                           key: [("day", "day"), ("currency", "o.currency"), ("status", "o.status"),
                                 ("no_product", "CASE WHEN \(gone) THEN 1 ELSE 0 END"),
                                 ("category", "CASE WHEN \(gone) THEN '' ELSE \(category) END")],
                           returnsOnly: true, keepsTitle: false)
    }

    /// `from` (a `FROM …` binding the refund `r`) with the product it returned, `p`.
    public static func withProducts(_ from: String) -> String { from + " LEFT JOIN products p ON p.id = r.product_id" }

    /// The figures a row adds up: refunds, units returned and the amount given back.
    public static let figures = ["refunds", "units", "amount"]

    /// The refunds' columns whose change moves a refund between summary rows.
    public static let refundColumns = ["order_id", "line_number", "product_id", "sku", "quantity", "amount_minor", "created_at"]
    /// The orders' columns whose change moves their refunds between summary rows.
    public static let orderColumns = ["currency", "status", "user_id", "customer"]

    /// `table`'s rows of the refunds `from` binds (`r`, its order `o` and, for titles, its line
    /// `l`; a `FROM …`) that `condition` keeps, grouped by the key: the key, the figures and
    /// the title, named `c0`, `c1`, … in that order.
    public func grouped(_ table: RefundSummaryTable, from: String, where condition: String? = nil) -> String {
        let key = table.key.map { $0.value == "day" ? day : $0.value }
        let figures = ["count(*)", sum("r.quantity"), sum("r.amount_minor")]
        let title = table.keepsTitle ? ["coalesce(max(l.title), '')"] : []
        let columns = (key + figures + title).enumerated().map { "\($0.element) AS c\($0.offset)" }
        let conditions = [condition, table.returnsOnly ? "r.line_number IS NOT NULL" : nil].compactMap { $0 }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return "SELECT \(columns.joined(separator: ", ")) \(from)\(filter) GROUP BY \((1...key.count).map(String.init).joined(separator: ", "))"
    }

    /// The refunds `from` binds and `condition` keeps counted into (`sign` 1) or out of (-1) every
    /// summary, in key order (so two statements never lock two rows in opposite orders). Targets
    /// are named, not aliased: SQLite's triggers take no alias there. `tables`: the summaries
    /// counted (the three of `tables` unless a caller names the category one).
    public func count(from: String, where condition: String? = nil, sign: Int, tables: [RefundSummaryTable] = Self.tables) -> [String] {
        tables.map { table in
            let keys = table.key.map(\.column)
            let columns = keys + Self.figures + (table.keepsTitle ? ["title"] : [])
            let order = (1...keys.count).map(String.init).joined(separator: ", ")
            if sign > 0 {
                let updates = Self.figures.map { "\($0) = \(table.name).\($0) + excluded.\($0)" }
                    + (table.keepsTitle ? ["title = \(larger)(\(table.name).title, excluded.title)"] : [])
                return """
                    INSERT INTO \(table.name) (\(columns.joined(separator: ", ")))
                    SELECT * FROM (\(grouped(table, from: from, where: condition))) g WHERE true ORDER BY \(order)
                    ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))
                    """
            }
            let updates = Self.figures.enumerated().map { "\($0.element) = \(table.name).\($0.element) - c.c\(keys.count + $0.offset)" }
            return """
                UPDATE \(table.name) SET \(updates.joined(separator: ", "))
                FROM (\(grouped(table, from: from, where: condition)) ORDER BY \(order)) c
                WHERE \(keys.enumerated().map { "\(table.name).\($0.element) = c.c\($0.offset)" }.joined(separator: " AND "))
                """
        }
    }

    /// The refunds `before` binds counted out of `old`'s rows and those `after` binds counted into
    /// `new`'s (two keyings of one table), as one statement adding the difference where it is not
    /// nothing, after `with` (a `WITH` list both may name: PostgreSQL's, computed once). In key
    /// order, as `count`; a table keeping titles keeps the larger of its own and `after`'s.
    public func difference(before: String, as old: RefundSummaryTable, after: String, as new: RefundSummaryTable,
                           where condition: String? = nil, with: String? = nil) -> String {
        let keys = new.key.map(\.column)
        let columns = (0..<keys.count).map { "c\($0)" }
        let figures = (keys.count..<(keys.count + Self.figures.count)).map { "c\($0)" }
        let title = new.keepsTitle ? ["c\(keys.count + Self.figures.count)"] : []
        let order = (1...keys.count).map(String.init).joined(separator: ", ")
        let updates = Self.figures.map { "\($0) = \(new.name).\($0) + excluded.\($0)" }
            + (new.keepsTitle ? ["title = \(larger)(\(new.name).title, excluded.title)"] : [])
        return """
            \(with.map { "WITH \($0) " } ?? "")INSERT INTO \(new.name) (\((keys + Self.figures + (new.keepsTitle ? ["title"] : [])).joined(separator: ", ")))
            SELECT \((columns + figures.map { "\(sum($0))" } + title.map { "coalesce(max(\($0)), '')" }).joined(separator: ", ")) FROM (
                SELECT \((columns + figures.map { "-\($0) AS \($0)" } + title.map { "NULL AS \($0)" }).joined(separator: ", "))
                FROM (\(grouped(old, from: before, where: condition))) b
                UNION ALL SELECT \((columns + figures + title).joined(separator: ", ")) FROM (\(grouped(new, from: after, where: condition))) a) d
            GROUP BY \(order) HAVING \(figures.map { "sum(\($0)) <> 0" }.joined(separator: " OR ")) ORDER BY \(order)
            ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))
            """
    }

    /// Every summary emptied and counted again from the refunds (a migration, after a seed).
    public var refill: [String] {
        ["DELETE FROM refund_days", "DELETE FROM refund_day_products", "DELETE FROM refund_day_customers"]
            + count(from: Self.allRefunds, sign: 1)
    }

    /// The category summary emptied and counted again from the refunds (v17 / migration 29, after a seed).
    public var refillCategories: [String] {
        ["DELETE FROM refund_day_categories"] + count(from: Self.withProducts(Self.allRefunds), sign: 1, tables: [Self.categories()])
    }

    /// `FROM …` of every refund with its order and line.
    public static let allRefunds = """
        FROM order_refunds r JOIN orders o ON o.id = r.order_id
        LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number
        """
}
