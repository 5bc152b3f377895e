// BasketLine and PricedLine: what a customer is about to buy, and the one place line totals are computed.

/// One line of a basket: a product, how many, and its price now.
public struct BasketLine: Hashable, Sendable {
    public var userID: Int64
    public var productID: Int64
    public var sku: String
    public var title: String
    public var unitPrice: Money
    public var discount: Percentage
    public var quantity: Int
    /// The product's stock when the line was read, if the store said.
    public var stock: Int?
    /// The product's category (what a coupon's scope may name).
    public var category: String

    public init(userID: Int64, productID: Int64, sku: String, title: String, unitPrice: Money,
                discount: Percentage, quantity: Int, stock: Int? = nil, category: String = "") {
        self.category = category
        self.userID = userID
        self.productID = productID
        self.sku = sku
        self.title = title
        self.unitPrice = unitPrice
        self.discount = discount
        self.quantity = quantity
        self.stock = stock
    }
}

/// A priced line (basket or order): the one place line totals are computed.
public protocol PricedLine {
    var unitPrice: Money { get }
    var discount: Percentage { get }
    var quantity: Int { get }
}

extension PricedLine {
    /// Price times quantity, before the discount.
    public var total: Money { get throws(ShopError) { try unitPrice.times(quantity) } }
    /// The line total after the discount, rounded once to the minor unit.
    public var discountedTotal: Money { get throws(ShopError) { try total.discounted(by: discount) } }
}

extension BasketLine: PricedLine {}

extension Sequence where Element: PricedLine {
    /// How many items the lines hold in all. The shop's limits keep this far below `Int.max`;
    /// a store edited by hand could pass it, so the sum saturates instead of trapping.
    public var totalQuantity: Int {
        reduce(0) { sum, line in
            let (next, overflow) = sum.addingReportingOverflow(line.quantity)
            return overflow ? .max : next
        }
    }
}

/// Which baskets `basket list` shows, in which order.
public struct BasketListQuery: Hashable, Sendable {
    /// Only baskets whose last change is at or before this moment (`--idle`): `2026-11-23T05:31:02Z`.
    public var changedBefore: String?
    /// Only baskets whose total, before discounts, is at least this many minor units (`--min-total`).
    public var minTotal: Int64?
    /// The order (`sortFields`; by user id when none, and between equals) and the page.
    public var page: Page

    public init(changedBefore: String? = nil, minTotal: Int64? = nil, page: Page = .all) {
        self.changedBefore = changedBefore
        self.minTotal = minTotal
        self.page = page
    }

    /// The fields baskets sort by, and the column of a store's basket summaries each names
    /// (`customer` by the name in lower case).
    public static let sortColumns: KeyValuePairs<String, String> = [
        "user_id": "s.user_id", "customer": "lower(u.username)", "lines": "s.lines", "total_quantity": "s.items",
        "total": "s.total", "discounted_total": "s.discounted_total", "last_change": "s.last_change",
    ]

    /// `ORDER BY` for a store: the page's fields, then the user id (constant SQL from `sortColumns`).
    public var orderBy: String {
        let keys = page.sort.compactMap { key in
            Self.sortColumns.first { $0.key == key.field }.map { $0.value + (key.descending ? " DESC" : "") }
        }
        return (keys + ["s.user_id"]).joined(separator: ", ")
    }
}

/// One non-empty basket as `basket list` shows it: whose, how big, what it comes to, and when a
/// line was last added or changed (a store keeps one per basket).
public struct BasketSummary: Hashable, Sendable {
    public var userID: Int64
    public var username: String
    public var lines: Int
    public var items: Int
    public var total: Money
    public var discountedTotal: Money
    /// The latest line change, UTC: `2026-11-23T05:31:02Z`.
    public var lastChange: String

    public init(userID: Int64, username: String, lines: Int, items: Int, total: Money, discountedTotal: Money,
                lastChange: String) {
        self.userID = userID
        self.username = username
        self.lines = lines
        self.items = items
        self.total = total
        self.discountedTotal = discountedTotal
        self.lastChange = lastChange
    }
}
