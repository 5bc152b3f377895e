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

/// One non-empty basket as `basket list` shows it: whose, how big, what it comes to, and when a
/// line was last added or changed.
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

    /// The summaries of basket lines read in user order (each line with its owner's name and its
    /// last change), one per user, with the totals `PricedLine` gives: what a store's listing of
    /// baskets streams through.
    public struct Collector {
        private var current: (userID: Int64, username: String, lines: [BasketLine], lastChange: String)?

        public init() {}

        /// Adds a line (lines of one user come together); returns the basket that ended, if one did.
        public mutating func add(_ line: BasketLine, username: String, changedAt: String) throws(ShopError) -> BasketSummary? {
            if let open = current, open.userID == line.userID {
                current?.lines.append(line)
                if changedAt > open.lastChange { current?.lastChange = changedAt }
                return nil
            }
            let ended = try finish()
            current = (line.userID, username, [line], changedAt)
            return ended
        }

        /// Ends the last basket and returns it.
        public mutating func finish() throws(ShopError) -> BasketSummary? {
            guard let open = current else { return nil }
            current = nil
            let currency = open.lines.first?.unitPrice.currency ?? .usd
            var totals: [Money] = [], discounted: [Money] = []
            for line in open.lines {
                totals.append(try line.total)
                discounted.append(try line.discountedTotal)
            }
            return BasketSummary(userID: open.userID, username: open.username, lines: open.lines.count,
                                 items: open.lines.totalQuantity, total: try Money.sum(totals, currency: currency),
                                 discountedTotal: try Money.sum(discounted, currency: currency), lastChange: open.lastChange)
        }
    }
}
