// RefundRules: the one place that decides what a return gives back and what a refund may be —
// a line's paid total split over its units by largest remainder, the statuses that take returns,
// the cap at what is left to refund, and what a reason may hold. Both stores (and the PostgreSQL
// server's functions, through ShopStoreKit's RefundSQL) follow these.

extension OrderStatus {
    /// Whether units may be returned and money refunded: paid (before shipping), shipped or delivered.
    public var takesRefunds: Bool { self == .paid || self == .shipped || self == .delivered }
}

public enum RefundRules {
    /// The longest reason, in characters.
    public static let maxReasonLength = 500

    /// The share of a line's paid total (`lineTotal` minor units over `units` units) that units
    /// `alreadyReturned + 1 … alreadyReturned + returning` give back.
    ///
    /// The total is split by largest remainder: every unit is worth `lineTotal / units`, and the
    /// first `lineTotal % units` units returned are worth one minor unit more. So returning every
    /// unit, in any steps, gives back exactly `lineTotal`. Values outside the ranges a line can
    /// have (a negative total, no units, more returned than bought) give 0.
    public static func unitsShare(lineTotal: Int64, units: Int, alreadyReturned: Int, returning: Int) -> Int64 {
        guard lineTotal >= 0, units > 0, alreadyReturned >= 0, returning >= 0,
              alreadyReturned <= units, returning <= units - alreadyReturned else { return 0 }
        let each = lineTotal / Int64(units)
        let remainder = Int(lineTotal % Int64(units))
        let withExtra = max(0, min(alreadyReturned + returning, remainder) - alreadyReturned)
        // each × returning ≤ lineTotal: no overflow.
        return each * Int64(returning) + Int64(withExtra)
    }

    /// A reason as given (a refund's `--reason`, a stock change's `--note`: `option`): trimmed,
    /// not empty, at most `maxReasonLength` characters counted as the server counts them (Unicode
    /// scalars, as PostgreSQL's `length()`), no control characters.
    public static func checkReason(_ text: String, option: String = "--reason") throws(ShopError) -> String {
        let trimmed = text.trimmingASCIISpaces
        guard !trimmed.isEmpty else {
            throw .invalidInput(option == "--reason" ? "a refund needs a reason (--reason TEXT)" : "\(option) is empty")
        }
        let length = trimmed.unicodeScalars.count
        guard length <= maxReasonLength else {
            throw .invalidInput("\(option) is \(length) characters long; at most \(maxReasonLength)")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidInput("\(option) holds a control character")
        }
        return trimmed
    }

    /// Refuses an order that takes no refund now.
    public static func checkRefundable(_ order: Order) throws(ShopError) {
        guard order.status.takesRefunds else {
            let why = order.status == .placed ? "placed and not paid yet" : order.status.rawValue
            throw .conflict("order \(order.id) is \(why): only paid, shipped or delivered orders take returns and refunds")
        }
    }

    /// The line of `order` a return takes units from (`product`: its id or SKU as sold), and the
    /// money they give back (capped at what is left to refund on the order).
    public static func plan(_ request: ReturnRequest, order: Order) throws(ShopError) -> (lineNumber: Int, amount: Money) {
        try checkRefundable(order)
        let wanted = request.product.trimmingASCIISpaces
        guard let index = order.lines.firstIndex(where: { line in
            line.productID.map { String($0) == wanted } == true || line.sku.lowercased() == wanted.lowercased()
        }) else {
            throw .notFound("order \(order.id) has no line of product \"\(wanted)\"")
        }
        let line = order.lines[index]
        let left = line.quantity - line.returned
        guard request.quantity >= 1 else { throw .invalidInput("invalid --qty \(request.quantity): expected 1 or more") }
        guard request.quantity <= left else {
            throw .conflict("order \(order.id) line \(index + 1) (\(line.sku)) has \(left) unit\(left == 1 ? "" : "s") left to return, not \(request.quantity)")
        }
        let share = unitsShare(lineTotal: try line.paidTotal.minorUnits, units: line.quantity,
                               alreadyReturned: line.returned, returning: request.quantity)
        let amount = min(share, order.leftToRefund.minorUnits)
        return (index + 1, Money(minorUnits: amount, currency: order.total.currency))
    }

    /// A goodwill refund of `amount`: positive, in the order's currency, at most what is left.
    public static func checkAmount(_ amount: Money, order: Order) throws(ShopError) {
        try checkRefundable(order)
        guard amount.currency.code == order.total.currency.code else {
            throw .invalidInput("order \(order.id) was paid in \(order.total.currency.code), not \(amount.currency.code)")
        }
        guard amount.minorUnits > 0 else { throw .invalidInput("a refund must be more than 0 \(amount.currency.code)") }
        guard order.leftToRefund.minorUnits > 0 else { throw .conflict("order \(order.id) has nothing left to refund") }
        guard amount.minorUnits <= order.leftToRefund.minorUnits else {
            throw .conflict("order \(order.id) has \(order.leftToRefund) left to refund; \(amount) is more")
        }
    }

    /// Refuses to cancel an order that gave money back already: its refunds stand, so the rest is
    /// returned or refunded instead.
    public static func checkCancel(_ order: Order) throws(ShopError) {
        guard order.refunded.minorUnits == 0, order.refunds.isEmpty else {
            throw .conflict("order \(order.id) has refunds (\(order.refunded)); it cannot be cancelled: return or refund the rest instead")
        }
    }

    /// Refuses to put `units` back on product `productID`'s shelf (holding `stock`, nil once the
    /// product is gone) when that takes the stock past `ProductLimits.maxStock`.
    public static func checkRestock(_ units: Int, productID: Int64, stock: Int64?) throws(ShopError) {
        guard let stock else { return }
        let (after, overflow) = stock.addingReportingOverflow(Int64(units))
        guard !overflow, after <= ProductLimits.maxStock else {
            throw .conflict("restocking \(units) unit\(units == 1 ? "" : "s") would take product \(productID)'s stock past \(ProductLimits.maxStock)")
        }
    }
}
