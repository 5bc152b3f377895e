// BasketExplanation: `basket explain USER` — why a basket costs what it does and whether it can
// be checked out: per line the price when it was added and now, its discount and the stock
// left; lines a deleted product took away; what stops a checkout (stock, a disabled customer, an
// empty basket, a coupon that gives nothing now); and how the amount to pay moved since the
// basket last changed. Pure logic over what the caller read.

/// One line of an explanation.
public struct ExplainedLine: Hashable, Sendable {
    public var productID: Int64
    public var sku: String
    public var title: String
    public var quantity: Int
    /// When the line was made (nil: before the audit log).
    public var addedAt: String?
    /// The unit price then (the price now when the log does not reach back).
    public var priceAdded: Money
    /// The unit price now (nil: the product was deleted).
    public var priceNow: Money?
    public var discount: Percentage?
    /// The line's discounted total now (nil: deleted).
    public var lineTotal: Money?
    /// The stock left (nil: deleted).
    public var stock: Int?
    /// Why checkout would fail on this line; nil: it would not.
    public var problem: String?

    /// How much the unit price moved since the line was added.
    public var priceChange: Money? {
        priceNow.map { Money(minorUnits: $0.minorUnits &- priceAdded.minorUnits, currency: $0.currency) }
    }
}

/// A whole basket, explained.
public struct BasketExplanation: Hashable, Sendable {
    public var user: User
    public var lines: [ExplainedLine]
    /// What is to pay now (after line discounts and the coupon).
    public var toPay: Money
    /// When the basket last changed (the customer's last look), and what was to pay then.
    public var lastChange: String?
    public var toPayThen: Money?
    /// Why checkout would fail, one line each (empty: it would succeed).
    public var reasons: [String]

    public var toPayChange: Money? {
        toPayThen.map { Money(minorUnits: toPay.minorUnits &- $0.minorUnits, currency: toPay.currency) }
    }

    /// Explains `basket` (its lines carry their stock). `productRows` are each line's product's
    /// audit rows, newest first; `basketRows` the customer's basket rows and checkouts, newest
    /// first; `deletes` every product delete row; `quote` the coupon's now; `toPayThen` what was
    /// to pay at the basket's last change.
    public static func explain(_ basket: Basket, quote: CouponQuote?, productRows: [Int64: [AuditEntry]], basketRows: [AuditEntry],
                               deletes: [AuditEntry], toPayThen: Money?) throws(ShopError) -> BasketExplanation {
        var lines: [ExplainedLine] = []
        for line in basket.lines {
            let addedRow = basketRows.first { row in
                row.entity == AuditEntity.basket.rawValue && row.before == nil && row.after?["product"] == .integer(line.productID)
            }
            let added = addedRow?.time
            let price = addedRow.map { ShopHistory.price(atRow: $0.id, now: line.unitPrice, rows: productRows[line.productID] ?? []) }
                ?? line.unitPrice
            var problem: String?
            if line.quantity > BasketLimits.maxQuantity {
                problem = "more than \(BasketLimits.maxQuantity) a line"
            } else if let stock = line.stock, line.quantity > stock {
                problem = stock == 0 ? "out of stock" : "only \(stock) in stock"
            }
            lines.append(ExplainedLine(productID: line.productID, sku: line.sku, title: line.title, quantity: line.quantity,
                                       addedAt: added, priceAdded: price, priceNow: line.unitPrice, discount: line.discount,
                                       lineTotal: try line.discountedTotal, stock: line.stock, problem: problem))
        }
        // Lines a deleted product took with it, since the last checkout.
        for row in deletes where row.action == "delete" {
            guard let productID = Int64(row.entityID), !lines.contains(where: { $0.productID == productID }),
                  let held = ShopHistory.heldQuantity(productID, before: row, in: basketRows) else { continue }
            let before = row.before
            func text(_ name: String) -> String { if case .text(let value)? = before?[name] { value } else { "" } }
            let price = (try? Money.parse(String(text("price").prefix { $0 != " " }), currency: basket.currency)) ?? .zero(basket.currency)
            lines.append(ExplainedLine(productID: productID, sku: text("sku"), title: text("title"), quantity: held, addedAt: nil,
                                       priceAdded: price, priceNow: nil, discount: nil, lineTotal: nil, stock: nil,
                                       problem: "product deleted at \(row.time) by \(row.operatorName): the line went with it"))
        }
        var reasons: [String] = []
        if basket.user.status != .active { reasons.append("the customer is disabled") }
        if basket.lines.isEmpty { reasons.append("the basket is empty") }
        if basket.lines.count > BasketLimits.maxLines { reasons.append("more than \(BasketLimits.maxLines) lines") }
        for line in lines where line.priceNow != nil {
            if let problem = line.problem { reasons.append("\(line.sku) (\(line.title)): wanted \(line.quantity), \(problem)") }
        }
        if let coupon = basket.coupon, let refusal = quote?.refusal {
            reasons.append(refusal.message(code: coupon.coupon.terms.code) + " (basket checkout --without-coupon goes without it)")
        }
        let lastChange = basketRows.first { $0.entity == AuditEntity.basket.rawValue }?.time
        return BasketExplanation(user: basket.user, lines: lines, toPay: try basket.toPay(quote), lastChange: lastChange,
                                 toPayThen: toPayThen, reasons: reasons)
    }
}
