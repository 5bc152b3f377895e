// Coupon: a promotion code a customer's basket carries — what it takes off (a percentage or a
// fixed amount), which lines it applies to, when and how often it may be used.

/// What a coupon takes off the lines it applies to.
public enum CouponValue: Hashable, Sendable {
    /// A percentage of the eligible lines' total after product discounts.
    case percent(Percentage)
    /// A fixed amount in its currency, capped at the eligible lines' total.
    case amount(Money)

    /// `10%` or `5.00 USD`.
    public var described: String {
        switch self {
        case .percent(let percent): return "\(percent)%"
        case .amount(let money): return money.description
        }
    }
}

/// Which lines of a basket a coupon applies to.
public enum CouponScope: Hashable, Sendable {
    case everything
    /// Products of one category (as the catalogue spells it, any case).
    case category(String)
    /// These products (ids).
    case products([Int64])

    /// `all`, `category beauty`, `products 1, 2`.
    public var described: String {
        switch self {
        case .everything: return "all"
        case .category(let name): return "category \(name)"
        case .products(let ids): return "products " + ids.map(String.init).joined(separator: ", ")
        }
    }
}

/// Where a coupon stands today.
public enum CouponState: String, CaseIterable, Hashable, Sendable {
    case active, scheduled, expired
    case usedUp = "used up"
    case disabled
}

/// A coupon as a store keeps it: its terms (`coupon.code`, `coupon.value`… read through to
/// them), whether it is disabled, and how often it was used.
@dynamicMemberLookup
public struct Coupon: Hashable, Sendable {
    public var id: Int64
    /// What it gives, to which lines, when and how often (the code upper case).
    public var terms: CouponDefinition
    public var disabled: Bool
    /// Orders that carry it.
    public var uses: Int
    public var createdAt: String

    public init(id: Int64, terms: CouponDefinition, disabled: Bool = false, uses: Int = 0, createdAt: String = "") {
        self.id = id
        self.terms = terms
        self.disabled = disabled
        self.uses = uses
        self.createdAt = createdAt
    }

    /// A term: `coupon.code`, `coupon.maxUses`, …
    public subscript<T>(dynamicMember term: WritableKeyPath<CouponDefinition, T>) -> T {
        get { terms[keyPath: term] }
        set { terms[keyPath: term] = newValue }
    }

    /// The currency the coupon's amounts are in.
    public var currency: Currency { terms.currency }

    /// Uses left, if limited (never negative).
    public var usesLeft: Int? { terms.maxUses.map { max(0, $0 - uses) } }

    /// Where it stands on `day`: disabled first, then used up, then not started, then expired.
    public func state(on day: CalendarDay) -> CouponState {
        if disabled { return .disabled }
        if let maxUses = terms.maxUses, uses >= maxUses { return .usedUp }
        if let starts = terms.starts, day < starts { return .scheduled }
        if let expires = terms.expires, day > expires { return .expired }
        return .active
    }
}

/// What `coupons add` and `coupons generate` give a store: a coupon before it has an id.
public struct CouponDefinition: Hashable, Sendable {
    public var code: String
    public var value: CouponValue
    public var minTotal: Money?
    public var starts: CalendarDay?
    public var expires: CalendarDay?
    public var maxUses: Int?
    public var perCustomer: Int?
    public var scope: CouponScope
    public var description: String

    public init(code: String, value: CouponValue, minTotal: Money? = nil, starts: CalendarDay? = nil, expires: CalendarDay? = nil,
                maxUses: Int? = nil, perCustomer: Int? = nil, scope: CouponScope = .everything, description: String = "") {
        self.code = code
        self.value = value
        self.minTotal = minTotal
        self.starts = starts
        self.expires = expires
        self.maxUses = maxUses
        self.perCustomer = perCustomer
        self.scope = scope
        self.description = description
    }

    /// The currency its amounts are in (a percentage coupon: its minimum's, else the shop's).
    public var currency: Currency {
        if case .amount(let money) = value { return money.currency }
        return minTotal?.currency ?? .usd
    }

    /// The same definition under another code (`coupons generate`).
    public func withCode(_ code: String) -> CouponDefinition {
        var copy = self
        copy.code = code
        return copy
    }
}

/// A basket's coupon with what the customer already used of it.
public struct BasketCoupon: Hashable, Sendable {
    public var coupon: Coupon
    /// Orders of this customer that carry it.
    public var customerUses: Int

    public init(coupon: Coupon, customerUses: Int) {
        self.coupon = coupon
        self.customerUses = customerUses
    }
}

/// An order's coupon: its code and what it took off in all.
public struct OrderCoupon: Hashable, Sendable {
    public var code: String
    public var discount: Money

    public init(code: String, discount: Money) {
        self.code = code
        self.discount = discount
    }
}

/// One order that used a coupon (`coupons show`).
public struct CouponUse: Hashable, Sendable {
    public var orderID: Int64
    public var customer: String
    public var at: String
    public var discount: Money
    public var status: OrderStatus

    public init(orderID: Int64, customer: String, at: String, discount: Money, status: OrderStatus) {
        self.orderID = orderID
        self.customer = customer
        self.at = at
        self.discount = discount
        self.status = status
    }
}
