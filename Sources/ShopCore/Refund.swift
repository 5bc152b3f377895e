// Refund: money an order gave back — for units a customer returned (their share of what the line
// cost, see `RefundRules.unitsShare`) or as goodwill — with who gave it, when and why.

/// One refund of an order.
public struct OrderRefund: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var orderID: Int64
    /// The order line (1 for the first) a return took units back from; nil for a goodwill refund.
    public var lineNumber: Int?
    /// The returned product's id (nil for goodwill, or once the product was deleted) and SKU.
    public var productID: Int64?
    public var sku: String?
    /// Units returned (0 for a goodwill refund).
    public var quantity: Int
    /// Whether the returned units went back into stock.
    public var restocked: Bool
    public var amount: Money
    public var reason: String
    /// Who gave the refund (the operator's login).
    public var operatorName: String
    public var createdAt: String

    public init(id: Int64, orderID: Int64, lineNumber: Int?, productID: Int64?, sku: String?, quantity: Int,
                restocked: Bool, amount: Money, reason: String, operatorName: String, createdAt: String) {
        self.id = id
        self.orderID = orderID
        self.lineNumber = lineNumber
        self.productID = productID
        self.sku = sku
        self.quantity = quantity
        self.restocked = restocked
        self.amount = amount
        self.reason = reason
        self.operatorName = operatorName
        self.createdAt = createdAt
    }

    /// `return` for units taken back, `goodwill` for money alone.
    public var kind: String { lineNumber == nil ? "goodwill" : "return" }
}

/// A return an operator asks for: `quantity` units of the order's line holding `product`.
public struct ReturnRequest: Hashable, Sendable {
    public var orderID: Int64
    /// The product's id or SKU, as the order line recorded it.
    public var product: String
    public var quantity: Int
    public var restock: Bool
    public var reason: String

    public init(orderID: Int64, product: String, quantity: Int, restock: Bool, reason: String) {
        self.orderID = orderID
        self.product = product
        self.quantity = quantity
        self.restock = restock
        self.reason = reason
    }
}

/// How much of an order was refunded.
public enum RefundState: String, Sendable {
    case none, partial, full
}

extension Order {
    /// What the customer paid less what went back.
    public var net: Money {
        Money(minorUnits: discountedTotal.minorUnits - min(refunded.minorUnits, discountedTotal.minorUnits), currency: total.currency)
    }

    /// What may still be refunded: `net`.
    public var leftToRefund: Money { net }

    /// Full once something was paid and all of it went back (an order that cost nothing is never
    /// refunded in full: returning its units gives nothing back). RefundSQL.fullyRefunded says the same.
    public var refundState: RefundState {
        if refunded.minorUnits <= 0 { return .none }
        return discountedTotal.minorUnits > 0 && refunded.minorUnits >= discountedTotal.minorUnits ? .full : .partial
    }
}
