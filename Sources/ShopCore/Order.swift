// Order: what checkout made of a basket, with prices as sold.

/// Where an order is in its life: placed → paid → shipped → delivered; placed/paid → cancelled;
/// refunded once everything paid went back (only refunds move an order there, see RefundRules).
public enum OrderStatus: String, CaseIterable, Hashable, Sendable {
    case placed, paid, shipped, delivered, refunded, cancelled

    /// The statuses this one may move to.
    public var allowedNext: [OrderStatus] {
        switch self {
        case .placed: return [.paid, .cancelled]
        case .paid: return [.shipped, .cancelled]
        case .shipped: return [.delivered]
        case .delivered, .refunded, .cancelled: return []
        }
    }
}

/// One line of an order, frozen at checkout.
public struct OrderLine: Hashable, Sendable, PricedLine {
    public var productID: Int64?
    public var sku: String
    public var title: String
    public var unitPrice: Money
    public var discount: Percentage
    public var quantity: Int
    /// Units of the line returned since (see `OrderRefund`).
    public var returned: Int
    /// The line's part of the order's coupon discount (`CouponRules.split`), in minor units.
    public var couponShare: Int64

    public init(productID: Int64?, sku: String, title: String, unitPrice: Money, discount: Percentage, quantity: Int,
                returned: Int = 0, couponShare: Int64 = 0) {
        self.returned = returned
        self.couponShare = couponShare
        self.productID = productID
        self.sku = sku
        self.title = title
        self.unitPrice = unitPrice
        self.discount = discount
        self.quantity = quantity
    }
}

extension OrderLine {
    /// What the customer paid for the line: its discounted total less its part of the coupon.
    public var paidTotal: Money {
        get throws(ShopError) {
            let discounted = try discountedTotal
            return Money(minorUnits: discounted.minorUnits - min(max(couponShare, 0), discounted.minorUnits), currency: discounted.currency)
        }
    }
}

/// An order placed by a user.
public struct Order: Hashable, Sendable, Identifiable {
    public var id: Int64
    /// nil once the user was deleted (the order is kept).
    public var userID: Int64?
    /// The username the order was placed under (kept when the user is deleted).
    public var customer: String
    public var status: OrderStatus
    public var total: Money
    public var discountedTotal: Money
    /// What went back to the customer so far (returns and goodwill; never more than `discountedTotal`).
    public var refunded: Money
    public var createdAt: String
    public var updatedAt: String
    public var lines: [OrderLine]
    /// The order's refunds, oldest first (filled in where an order is read whole, as lines are).
    public var refunds: [OrderRefund]
    /// Where the order goes: the customer's address as it was at checkout (nil: they had none).
    public var shipTo: PostalAddress?
    /// The coupon the order used, with what it took off (`discountedTotal` is after it).
    public var coupon: OrderCoupon?

    public init(id: Int64, userID: Int64?, customer: String, status: OrderStatus, total: Money, discountedTotal: Money,
                refunded: Money? = nil, createdAt: String, updatedAt: String, lines: [OrderLine] = [],
                refunds: [OrderRefund] = [], shipTo: PostalAddress? = nil, coupon: OrderCoupon? = nil) {
        self.shipTo = shipTo
        self.coupon = coupon
        self.refunded = refunded ?? .zero(total.currency)
        self.refunds = refunds
        self.id = id
        self.userID = userID
        self.customer = customer
        self.status = status
        self.total = total
        self.discountedTotal = discountedTotal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lines = lines
    }
}
