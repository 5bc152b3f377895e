// OrderStatsShape: what a store's sales-report query selects, from where and grouped by what —
// the one shape both SQL stores fill in with their own (constant) SQL.

import ShopCore

/// A report query's parts: `SELECT labels, sums FROM from … GROUP BY group`.
public struct OrderStatsShape: Sendable {
    /// The group's label, its id, its title and the currency (four columns).
    public let labels: String
    /// Orders, units, gross and net (four columns); of refunds, the amount and units (two).
    public let sums: String
    public let from: String
    public let group: String

    public init(labels: String, sums: String, from: String, group: String) {
        self.labels = labels
        self.sums = sums
        self.from = from
        self.group = group
    }
}

/// The day summaries a report reads: sales (SalesSummarySchema) or refunds (RefundSummarySQL).
public struct DaySummaries: Sendable {
    /// Per day, currency and status; per product too; per customer too.
    public let days: String, products: String, customers: String
    /// Per category too (the product's as it is now; "no product" for one deleted): sales count an
    /// order holding two products of one category once (CategorySummarySQL); refunds add up their
    /// returns (RefundSummarySQL.categories).
    public let categories: String
    /// What a row adds up, as `OrderStatsShape.sums` lists it.
    public let figures: [String]
    /// The column that is 0 in a row whose figures were all taken away.
    public let count: String

    /// Orders, units, gross and net of the orders and their lines.
    public static let sales = DaySummaries(days: "sales_days", products: "sales_day_products", customers: "sales_day_customers",
                                           categories: CategorySummarySQL.table, figures: CategorySummarySQL.figures, count: "orders")
    /// The amount given back and the units returned.
    public static let refunds = DaySummaries(days: "refund_days", products: "refund_day_products", customers: "refund_day_customers",
                                             categories: RefundSummarySQL.categories().name, figures: ["amount", "units"], count: "refunds")
}

extension OrderStatsShape {
    /// The shape of `grouping` over a store's day summaries (`s`) of `kind`: the days table for
    /// days and statuses, the products one for products, the categories one for categories (a
    /// product's category as it is now, as the lines' report reads it; lines whose product is gone
    /// have none), the customers one for customers; nil for what no summary
    /// keeps (coupons). A product or customer deleted since is id 0 there: its
    /// rows are told apart by the SKU or name they had, as the lines and orders tell them.
    /// `day` is the dialect's `YYYY-MM-DD` of `s.day`; `noID` and `noTitle` its typed NULLs;
    /// `sum` wraps a sum (PostgreSQL's cast back to bigint).
    public static func summary(_ grouping: OrderStatsGrouping, of kind: DaySummaries = .sales, day: String, noID: String = "NULL",
                               noTitle: String = "NULL", sum: (String) -> String = { "sum(\($0))" }) -> OrderStatsShape? {
        let sums = kind.figures.map { sum("s." + $0) }.joined(separator: ", ")
        switch grouping {
        case .day, .week, .month, .status:
            let key = grouping == .status ? "s.status" : day
            return OrderStatsShape(labels: "\(key), \(noID), \(noTitle), s.currency", sums: sums, from: "\(kind.days) s",
                                   group: "\(key), s.currency")
        case .product:
            // The product's SKU and title as they are now, looked up once a group, not joined to each row.
            let current = { (column: String) in "coalesce((SELECT p.\(column) FROM products p WHERE p.id = s.product_id), max(s.\(column)))" }
            return OrderStatsShape(labels: "\(current("sku")), nullif(s.product_id, 0), \(current("title")), s.currency",
                                   sums: sums, from: "\(kind.products) s", group: "s.product_id, CASE WHEN s.product_id = 0 THEN s.sku END, s.currency")
        case .category:
            return OrderStatsShape(labels: "CASE WHEN s.no_product = 1 THEN NULL ELSE s.category END, \(noID), \(noTitle), s.currency",
                                   sums: sums, from: "\(kind.categories) s", group: "s.no_product, s.category, s.currency")
        case .customer:
            return OrderStatsShape(labels: "max(s.customer), nullif(s.user_id, 0), \(noTitle), s.currency", sums: sums,
                                   from: "\(kind.customers) s", group: "s.user_id, CASE WHEN s.user_id = 0 THEN s.customer END, s.currency")
        case .coupon:
            return nil
        }
    }
}

/// What a store's refunds query (`refundStats`) selects and groups by, over `order_refunds r`
/// joined to its order `o`, the order line `l` and the product `p` — one shape for both stores.
public struct RefundStatsShape: Sendable {
    /// The group's label, its id and its title (three columns).
    public let labels: String
    public let group: String
    /// Whether only returns count (products and categories: a goodwill refund has no line).
    public let returnsOnly: Bool

    /// The shape of `grouping` (a stored one: days for every period). `day` is the dialect's
    /// `YYYY-MM-DD` of `r.created_at`; `noID` and `noTitle` its typed NULLs.
    public static func of(_ grouping: OrderStatsGrouping, day: String, noID: String = "NULL", noTitle: String = "NULL") -> RefundStatsShape {
        switch grouping {
        case .customer:
            return RefundStatsShape(labels: "max(o.customer), o.user_id, \(noTitle)",
                                    group: "o.user_id, CASE WHEN o.user_id IS NULL THEN lower(o.customer) END", returnsOnly: false)
        case .category:
            return RefundStatsShape(labels: "p.category, \(noID), \(noTitle)", group: "p.category", returnsOnly: true)
        case .product:
            return RefundStatsShape(labels: "coalesce(max(p.sku), max(r.sku)), r.product_id, coalesce(max(p.title), max(l.title))",
                                    group: "r.product_id, CASE WHEN r.product_id IS NULL THEN r.sku END", returnsOnly: true)
        case .status:
            return RefundStatsShape(labels: "o.status, \(noID), \(noTitle)", group: "o.status", returnsOnly: false)
        case .coupon:
            return RefundStatsShape(labels: "k.code, \(noID), \(noTitle)", group: "k.code", returnsOnly: false)
        case .day, .week, .month:
            return RefundStatsShape(labels: "\(day), \(noID), \(noTitle)", group: day, returnsOnly: false)
        }
    }

    /// `FROM …`: the refunds with their orders, lines, products and currencies.
    public static let from = """
        FROM order_refunds r JOIN orders o ON o.id = r.order_id
        LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.line_number = r.line_number
        LEFT JOIN products p ON p.id = r.product_id LEFT JOIN currencies c ON c.code = o.currency
        LEFT JOIN coupon_uses cu ON cu.order_id = r.order_id LEFT JOIN coupons k ON k.id = cu.coupon_id
        """

    /// `FROM …` of an order-level report by coupon: each order with the coupon it used, if any.
    public static let ordersWithCoupons = "orders o LEFT JOIN coupon_uses cu ON cu.order_id = o.id LEFT JOIN coupons k ON k.id = cu.coupon_id"
}
