// OrderStats: what a sales report asks a store for (a grouping, a filter, a top N) and what the
// store answers (orders, items, gross and net per group and currency), with the one rule for
// which orders are sales: cancelled ones are not, unless the report is about statuses.

/// How a report groups orders.
public enum OrderStatsGrouping: String, CaseIterable, Sendable {
    case day, week, month, status, category, product, customer
    /// The coupon the order used (orders without one form a group of their own).
    case coupon

    /// Whether the groups are periods of time (shown in time order, empty ones too).
    public var isTime: Bool { self == .day || self == .week || self == .month }

    /// Whether a group is made of order lines (an order may fall into several groups).
    public var isLines: Bool { self == .category || self == .product }

    /// What a store groups by: days for every period (weeks and months are days added up by
    /// `salesReport`, so that both stores share one calendar rule).
    public var stored: OrderStatsGrouping { isTime ? .day : self }
}

/// Which figure ranks the groups of a report (and picks a top N).
public enum OrderStatsRank: String, CaseIterable, Sendable {
    /// Net sales (after discounts).
    case net
    /// Units sold.
    case items
}

/// A report's question to a store.
public struct OrderStatsQuery: Hashable, Sendable {
    public var grouping: OrderStatsGrouping
    public var filter: OrderFilter
    /// Only the best `top` groups by `rank` (nil: every group). A store may apply it to groups
    /// that are not periods; `salesReport` applies it in any case.
    public var top: Int?
    public var rank: OrderStatsRank

    public init(grouping: OrderStatsGrouping, filter: OrderFilter = OrderFilter(), top: Int? = nil,
                rank: OrderStatsRank = .net) {
        self.grouping = grouping
        self.filter = filter
        self.top = top
        self.rank = rank
    }

    /// Whether cancelled orders count: only when the report groups by status or asks for a
    /// status. Otherwise a cancelled order is no sale and is left out of every figure.
    public var countsCancelled: Bool { grouping == .status || filter.status != nil }

    /// The largest `--top`.
    public static let maxTop = 100_000

    /// `--top N` checked: 1 to `maxTop`.
    public static func checkTop(_ top: Int?, option: String = "--top") throws(ShopError) -> Int? {
        guard let top else { return nil }
        guard top >= 1, top <= maxTop else { throw .invalidInput("invalid \(option) \(top): expected 1 to \(maxTop)") }
        return top
    }
}

/// One group's figures in one currency.
public struct OrderStatsRow: Hashable, Sendable {
    /// The group's label: a day `2026-11-26`, a week by its Monday `2026-11-23`, a month
    /// `2026-11`, a status, a category, a product's SKU or a customer's username. nil for the
    /// category of lines whose product was deleted.
    public var group: String?
    /// The product's or the customer's id (nil for other groupings, and once they were deleted).
    public var id: Int64?
    /// The product's title (the product grouping only).
    public var title: String?
    /// How many orders (for lines: how many orders hold such lines).
    public var orders: Int64
    /// Units sold, less the units returned (on the day of their return).
    public var items: Int64
    /// Before discounts.
    public var gross: Money
    /// What the customers paid after discounts, less what went back to them (`refunds`).
    public var net: Money
    /// Money given back (returns and goodwill), counted on the day it was given.
    public var refunds: Money

    public init(group: String?, id: Int64? = nil, title: String? = nil, orders: Int64, items: Int64, gross: Money, net: Money,
                refunds: Money? = nil) {
        self.group = group
        self.id = id
        self.title = title
        self.orders = orders
        self.items = items
        self.gross = gross
        self.net = net
        self.refunds = refunds ?? .zero(net.currency)
    }

    /// A store's row of refunds (`refundStats`): `amount` given back and `units` returned take
    /// away from what the group's sales come to, so that adding it to the sales row gives the net.
    public static func refunds(group: String?, id: Int64? = nil, title: String? = nil, amount: Money, units: Int64) -> OrderStatsRow {
        OrderStatsRow(group: group, id: id, title: title, orders: 0, items: 0 &- units, gross: .zero(amount.currency),
                      net: Money(minorUnits: 0 &- amount.minorUnits, currency: amount.currency), refunds: amount)
    }

    /// An empty period (a day without sales) in `currency`.
    public static func empty(_ group: String, currency: Currency) -> OrderStatsRow {
        OrderStatsRow(group: group, orders: 0, items: 0, gross: .zero(currency), net: .zero(currency))
    }

    /// What tells two rows of one group apart from other groups (the label, and the id if any).
    var key: GroupKey { GroupKey(group: group, id: id) }

    struct GroupKey: Hashable {
        var group: String?
        var id: Int64?
    }

    /// The discounts given: gross minus what was paid (net plus refunds).
    public func discounts() throws(ShopError) -> Money {
        let (paid, paidOverflow) = net.minorUnits.addingReportingOverflow(refunds.minorUnits)
        let (difference, overflow) = gross.minorUnits.subtractingReportingOverflow(paid)
        guard !overflow, !paidOverflow else { throw .invalidInput("the discounts of \(group ?? "a group") do not fit in a number") }
        return Money(minorUnits: difference, currency: net.currency)
    }

    /// The average order value: net over orders, rounded half away from zero (nil without orders).
    public func averageOrderValue() throws(ShopError) -> Money? {
        orders > 0 ? try net.scaled(by: 1, over: orders) : nil
    }

    /// This row plus `other` (same group and currency).
    func adding(_ other: OrderStatsRow) throws(ShopError) -> OrderStatsRow {
        var sum = self
        let (orders, ordersOverflow) = orders.addingReportingOverflow(other.orders)
        let (items, itemsOverflow) = items.addingReportingOverflow(other.items)
        guard !ordersOverflow, !itemsOverflow else { throw .invalidInput("the figures of \(group ?? "a group") do not fit in a number") }
        sum.orders = orders
        sum.items = items
        sum.gross = try gross + other.gross
        sum.net = try net + other.net
        sum.refunds = try refunds + other.refunds
        return sum
    }
}
