// CouponRules: the one place for what a coupon code may be, what a definition may hold, whether a
// basket's coupon gives a discount (and why not), how much, and how that discount is split over
// the eligible lines (largest remainder, so the parts add up exactly). Both stores follow these;
// the PostgreSQL server's checkout follows the same rules in SQL (ShopStoreKit's CouponSQL), and
// the contract's property test holds the two to each other.

/// Why a basket's coupon gives no discount now (checkout then refuses, unless told to go without).
public enum CouponRefusal: Hashable, Sendable {
    case disabled
    case usedUp(maxUses: Int)
    case customerLimit(perCustomer: Int)
    case scheduled(starts: CalendarDay)
    case expired(expires: CalendarDay)
    case otherCurrency(coupon: Currency, basket: Currency)
    case belowMinimum(minimum: Money, total: Money)
    case noEligibleLine(scope: CouponScope)

    /// The short name a table or json shows: `expired`, `below minimum`, …
    public var name: String {
        switch self {
        case .disabled: return "disabled"
        case .usedUp: return "used up"
        case .customerLimit: return "customer limit"
        case .scheduled: return "not started"
        case .expired: return "expired"
        case .otherCurrency: return "other currency"
        case .belowMinimum: return "below minimum"
        case .noEligibleLine: return "no eligible line"
        }
    }

    /// The reason without the code, for a line that names it already: `expired on 2026-11-30`.
    public var detail: String {
        switch self {
        case .disabled: return "disabled"
        case .usedUp(let maxUses): return "used up (\(maxUses) uses)"
        case .customerLimit(let perCustomer): return "the customer's limit is reached (\(perCustomer) per customer)"
        case .scheduled(let starts): return "starts on \(starts)"
        case .expired(let expires): return "expired on \(expires)"
        case .otherCurrency(let coupon, let basket): return "in \(coupon.code); the basket is in \(basket.code)"
        case .belowMinimum(let minimum, let total): return "the basket comes to \(total), below its \(minimum) minimum"
        case .noEligibleLine(let scope): return "no line is in its scope (\(scope.described))"
        }
    }

    /// One line naming the coupon `code` and the reason.
    public func message(code: String) -> String {
        switch self {
        case .disabled: return "coupon \(code) is disabled"
        case .usedUp(let maxUses): return "coupon \(code) is used up (\(maxUses) uses)"
        case .customerLimit(let perCustomer):
            return "the customer used coupon \(code) \(perCustomer) time\(perCustomer == 1 ? "" : "s") already, its limit per customer"
        case .scheduled(let starts): return "coupon \(code) starts on \(starts)"
        case .expired(let expires): return "coupon \(code) expired on \(expires)"
        case .otherCurrency(let coupon, let basket): return "coupon \(code) is in \(coupon.code); the basket is in \(basket.code)"
        case .belowMinimum(let minimum, let total):
            return "the basket comes to \(total); coupon \(code) needs at least \(minimum)"
        case .noEligibleLine(let scope): return "no line of the basket is in coupon \(code)'s scope (\(scope.described))"
        }
    }
}

/// What a coupon gives a basket now: the discount and each line's part of it, or why none.
public struct CouponQuote: Hashable, Sendable {
    /// What it takes off in all (zero when `refusal` says why not).
    public var discount: Money
    /// Each line's part of `discount`, in the basket's line order (0 for lines out of scope).
    public var shares: [Int64]
    public var refusal: CouponRefusal?

    public init(discount: Money, shares: [Int64], refusal: CouponRefusal?) {
        self.discount = discount
        self.shares = shares
        self.refusal = refusal
    }
}

public enum CouponRules {
    /// The shortest and longest code, in characters.
    public static let codeLength = 3...40
    /// The longest description, in characters.
    public static let maxDescriptionLength = 200
    /// The most uses a limit may name.
    public static let maxUsesLimit = 1_000_000_000
    /// The most products a scope may name.
    public static let maxScopeProducts = 1_000
    /// The most codes one `coupons generate` makes.
    public static let maxGenerated = 100_000
    /// What generated codes are made of: upper-case letters and digits without the ones read as
    /// another (0/O, 1/I/L), 31 symbols.
    public static let generatedAlphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    /// Random symbols per generated code: 31^12 ≈ 2^59 codes, so guessing one is hopeless.
    public static let generatedLength = 12

    // MARK: - Codes

    /// A code as typed, in the one form stores keep: trimmed, upper case. Letters A–Z, digits,
    /// `-` and `_`, `codeLength` long; one line naming the code otherwise.
    public static func code(_ text: String) throws(ShopError) -> String {
        let trimmed = text.trimmingASCIISpaces
        let upper = String(String.UnicodeScalarView(trimmed.unicodeScalars.map { scalar in
            (scalar.value >= 0x61 && scalar.value <= 0x7A) ? Unicode.Scalar(scalar.value - 0x20) ?? scalar : scalar
        }))
        guard codeLength.contains(upper.unicodeScalars.count), upper.unicodeScalars.allSatisfy(isCodeScalar) else {
            throw .invalidInput("invalid coupon code \(text.quotedForMessage()): \(codeLength.lowerBound) to \(codeLength.upperBound) letters A–Z, digits, - or _")
        }
        return upper
    }

    private static func isCodeScalar(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "_"
    }

    /// `count` distinct codes `prefix` + `generatedLength` symbols of `generatedAlphabet`, drawn
    /// from `generator` (the system's CSPRNG unless a test gives another).
    public static func generate(_ count: Int, prefix: String, using generator: inout some RandomNumberGenerator) throws(ShopError) -> [String] {
        guard (1...maxGenerated).contains(count) else {
            throw .invalidInput("coupons generate makes 1 to \(maxGenerated) codes at a time, not \(count)")
        }
        let checkedPrefix = prefix.isEmpty ? "" : try Self.prefix(prefix)
        var seen = Set<String>(minimumCapacity: count)
        var codes: [String] = []
        codes.reserveCapacity(count)
        while codes.count < count {
            var symbols = checkedPrefix
            for _ in 0..<generatedLength {
                symbols.append(generatedAlphabet[Int(generator.next(upperBound: UInt64(generatedAlphabet.count)))])
            }
            if seen.insert(symbols).inserted { codes.append(symbols) }
        }
        return codes
    }

    /// A prefix for generated codes: what a code may hold, short enough to leave room for the symbols.
    public static func prefix(_ text: String) throws(ShopError) -> String {
        let room = codeLength.upperBound - generatedLength
        guard text.unicodeScalars.count <= room, let checked = try? code(text + "AAA"), !text.isEmpty else {
            throw .invalidInput("invalid --prefix \(text.quotedForMessage()): at most \(room) letters A–Z, digits, - or _")
        }
        return String(checked.dropLast(3))
    }

    // MARK: - Definitions

    /// Refuses a definition that cannot work, in one line naming the option.
    public static func check(_ definition: CouponDefinition) throws(ShopError) -> CouponDefinition {
        var checked = definition
        checked.code = try code(definition.code)
        switch definition.value {
        case .percent(let percent):
            guard percent.hundredths > 0, percent.hundredths <= Percentage.hundredthsRange.upperBound else {
                throw .invalidInput("--percent must be more than 0 and at most 100")
            }
        case .amount(let money):
            guard money.minorUnits > 0, money.minorUnits <= ProductLimits.maxPriceMinorUnits else {
                throw .invalidInput("--amount must be more than 0 and at most \(Money(minorUnits: ProductLimits.maxPriceMinorUnits, currency: money.currency))")
            }
        }
        if let minTotal = definition.minTotal {
            guard minTotal.minorUnits >= 0, minTotal.minorUnits <= ProductLimits.maxPriceMinorUnits else {
                throw .invalidInput("--min-total must be 0 or more and at most \(Money(minorUnits: ProductLimits.maxPriceMinorUnits, currency: minTotal.currency))")
            }
            if case .amount(let money) = definition.value, money.currency != minTotal.currency {
                throw .invalidInput("--min-total is in \(minTotal.currency.code) but --amount in \(money.currency.code): give both in one currency")
            }
        }
        if let starts = definition.starts, let expires = definition.expires, expires < starts {
            throw .invalidInput("--expires \(expires) is before --starts \(starts)")
        }
        for (option, limit) in [("--max-uses", definition.maxUses), ("--per-customer", definition.perCustomer)] {
            if let limit, !(1...maxUsesLimit).contains(limit) {
                throw .invalidInput("\(option) must be from 1 to \(maxUsesLimit), not \(limit)")
            }
        }
        switch definition.scope {
        case .everything: break
        case .category(let name):
            let lower = name.lowercased()
            try ProductRules.checkCategory(lower)
            checked.scope = .category(lower)
        case .products(let ids):
            guard !ids.isEmpty, ids.count <= maxScopeProducts, ids.allSatisfy(ProductLimits.idRange.contains) else {
                throw .invalidInput("--products takes 1 to \(maxScopeProducts) product ids separated by commas")
            }
            var seen = Set<Int64>()
            checked.scope = .products(ids.filter { seen.insert($0).inserted })
        }
        let description = definition.description.trimmingASCIISpaces
        try ProductRules.checkText(description, field: "description", maxLength: maxDescriptionLength)
        checked.description = description
        return checked
    }

    // MARK: - Attaching

    /// Refuses attaching `coupon` to a basket on `day` when it can no longer give anything
    /// (disabled, used up, expired, or the customer's limit reached); a coupon that starts later,
    /// or that the basket does not reach yet, may be attached.
    public static func checkAttach(_ coupon: BasketCoupon, on day: CalendarDay) throws(ShopError) {
        switch standing(coupon, on: day) {
        case nil, .scheduled?: return
        case let refusal?: throw .conflict(refusal.message(code: coupon.coupon.code))
        }
    }

    /// Why the coupon gives nothing on `day`, whatever the basket (nil: it may).
    public static func standing(_ coupon: BasketCoupon, on day: CalendarDay) -> CouponRefusal? {
        let definition = coupon.coupon
        switch definition.state(on: day) {
        case .disabled: return .disabled
        case .usedUp: return .usedUp(maxUses: definition.maxUses ?? 0)
        case .scheduled: return .scheduled(starts: definition.starts ?? day)
        case .expired: return .expired(expires: definition.expires ?? day)
        case .active: break
        }
        if let perCustomer = definition.perCustomer, coupon.customerUses >= perCustomer { return .customerLimit(perCustomer: perCustomer) }
        return nil
    }

    // MARK: - The discount

    /// Whether `line` is in the coupon's scope.
    public static func applies(_ scope: CouponScope, productID: Int64, category: String) -> Bool {
        switch scope {
        case .everything: return true
        case .category(let name): return category.lowercased() == name
        case .products(let ids): return ids.contains(productID)
        }
    }

    /// What `coupon` gives `lines` (a basket's, in its order) on `day`: P % of the eligible lines'
    /// total after product discounts rounded once, half away from zero, or the fixed amount capped
    /// at that total; split over the eligible lines by `split`. The minimum is the whole basket's
    /// total after product discounts.
    public static func quote(_ coupon: BasketCoupon, lines: [BasketLine], on day: CalendarDay) throws(ShopError) -> CouponQuote {
        let currency = lines.first?.unitPrice.currency ?? coupon.coupon.currency
        let none = { (refusal: CouponRefusal) in
            CouponQuote(discount: .zero(currency), shares: Array(repeating: 0, count: lines.count), refusal: refusal)
        }
        if let refusal = standing(coupon, on: day) { return none(refusal) }
        let definition = coupon.coupon
        if definition.currency != currency { return none(.otherCurrency(coupon: definition.currency, basket: currency)) }
        var totals: [Int64] = []
        var eligible: [Int64] = []
        for line in lines {
            let total = try line.discountedTotal.minorUnits
            totals.append(total)
            eligible.append(applies(definition.scope, productID: line.productID, category: line.category) ? total : 0)
        }
        let basketTotal = try Money.sum(totals.map { Money(minorUnits: $0, currency: currency) }, currency: currency)
        if let minimum = definition.minTotal, basketTotal.minorUnits < minimum.minorUnits {
            return none(.belowMinimum(minimum: minimum, total: basketTotal))
        }
        let eligibleTotal = try Money.sum(eligible.map { Money(minorUnits: $0, currency: currency) }, currency: currency)
        guard eligibleTotal.minorUnits > 0 else {
            return none(.noEligibleLine(scope: definition.scope))
        }
        let discount = try self.discount(definition.value, eligibleTotal: eligibleTotal)
        return CouponQuote(discount: discount, shares: split(discount.minorUnits, over: eligible), refusal: nil)
    }

    /// What `value` takes off `eligibleTotal`: P % rounded once, half away from zero, or the
    /// amount capped at the total.
    public static func discount(_ value: CouponValue, eligibleTotal: Money) throws(ShopError) -> Money {
        switch value {
        case .percent(let percent):
            return try eligibleTotal.scaled(by: Int64(percent.hundredths), over: Int64(Percentage.hundredthsRange.upperBound))
        case .amount(let money):
            return Money(minorUnits: min(money.minorUnits, eligibleTotal.minorUnits), currency: eligibleTotal.currency)
        }
    }

    /// Splits `discount` minor units over lines worth `totals` (0 for a line that takes no part),
    /// in proportion, by largest remainder: each line gets ⌊discount × total / sum⌋, and the units
    /// left over go one each to the lines with the largest remainders (the earlier line first on a
    /// tie). The parts add up to `discount` exactly and none passes its line's total when
    /// `discount` ≤ the sum. Computed in 128 bits: no product can overflow.
    public static func split(_ discount: Int64, over totals: [Int64]) -> [Int64] {
        let sum = totals.reduce(Int128(0)) { $0 + Int128(max($1, 0)) }
        guard sum > 0, discount > 0 else { return Array(repeating: 0, count: totals.count) }
        var parts: [Int64] = []
        var remainders: [(remainder: Int128, index: Int)] = []
        var given = Int128(0)
        for (index, total) in totals.enumerated() {
            let share = Int128(discount) * Int128(max(total, 0))
            let part = share / sum
            parts.append(Int64(truncatingIfNeeded: part))
            given += part
            if total > 0 { remainders.append((share % sum, index)) }
        }
        let left = Int(truncatingIfNeeded: Int128(discount) - given)
        let order = remainders.sorted { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index }
        for entry in order.prefix(left) { parts[entry.index] += 1 }
        return parts
    }
}
