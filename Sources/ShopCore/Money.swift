// Money: an exact amount in integer minor units that always carries its currency.

/// An exact amount of money: integer minor units plus the currency they are counted in.
///
/// `Money(minorUnits: 999, currency: .usd)` is USD 9.99. There is no floating point
/// anywhere on this type; rounding happens in one place, half away from zero.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The amount as an exact decimal with the currency's number of digits.
    public var amount: ExactDecimal { ExactDecimal(units: minorUnits, scale: currency.minorUnitDigits) }

    /// `9.99`: the exact decimal text without the currency code.
    public var decimalString: String { amount.description }

    /// `9.99 USD`.
    public var description: String { "\(decimalString) \(currency.code)" }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Parses what a person typed as an amount in `currency`: digits, an optional `.` and at
    /// most the currency's minor-unit digits. `12.5` and `12.50` are accepted; `1,5`, `12.345`
    /// (for USD), `abc`, `-0`, `1e3` and negative amounts are rejected with a message.
    public static func parse(_ text: String, currency: Currency) throws(ShopError) -> Money {
        guard let value = ExactDecimal.parse(text, maxScale: currency.minorUnitDigits) else {
            let digits = currency.minorUnitDigits
            let shape = digits == 0 ? "a whole number" : "a number with at most \(digits) decimal\(digits == 1 ? "" : "s")"
            throw .invalidInput("invalid amount \"\(text)\" for \(currency.code): expected \(shape), like \(digits == 0 ? "1200" : "12." + String(repeating: "5", count: digits))")
        }
        return Money(minorUnits: value.units, currency: currency)
    }

    /// The sum of two amounts in the same currency.
    ///
    /// - Throws: `ShopError.invalidInput` when the sum does not fit in 64-bit minor units (the
    ///   shop's limits keep real totals far below that; a store edited by hand may not).
    public static func + (lhs: Money, rhs: Money) throws(ShopError) -> Money {
        precondition(lhs.currency == rhs.currency, "adding amounts in different currencies")
        let (sum, overflow) = lhs.minorUnits.addingReportingOverflow(rhs.minorUnits)
        guard !overflow else { throw tooLarge(lhs.currency) }
        return Money(minorUnits: sum, currency: lhs.currency)
    }

    /// The amount times a whole quantity.
    ///
    /// - Throws: `ShopError.invalidInput` when the product does not fit in 64-bit minor units.
    public func times(_ quantity: Int) throws(ShopError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(quantity))
        guard !overflow else { throw Self.tooLarge(currency) }
        return Money(minorUnits: product, currency: currency)
    }

    /// The amount reduced by a percentage, rounded once to the minor unit. Computed in 128 bits:
    /// the result is never larger than the amount, so it cannot overflow.
    public func discounted(by percent: Percentage) -> Money {
        let whole = Int128(Percentage.hundredthsRange.upperBound)   // 100 %
        let kept = whole - Int128(min(max(percent.hundredths, 0), Percentage.hundredthsRange.upperBound))
        let rounded = ExactDecimal.divideRounded(Int128(minorUnits) * kept, by: whole)
        // |rounded| ≤ |minorUnits|, so it always fits back into 64 bits.
        return Money(minorUnits: Int64(truncatingIfNeeded: rounded), currency: currency)
    }

    /// The amount times `numerator / denominator` (denominator > 0), rounded once to the minor
    /// unit, half away from zero (`ExactDecimal.divideRounded`): a price times 0.9 or 105 %.
    ///
    /// - Throws: `ShopError.invalidInput` when the result does not fit in 64-bit minor units.
    public func scaled(by numerator: Int64, over denominator: Int64) throws(ShopError) -> Money {
        let rounded = ExactDecimal.divideRounded(Int128(minorUnits) * Int128(numerator), by: Int128(denominator))
        guard let units = Int64(exactly: rounded) else { throw Self.tooLarge(currency) }
        return Money(minorUnits: units, currency: currency)
    }

    /// The sum of `amounts`, all in `currency` (zero when there are none).
    public static func sum(_ amounts: some Sequence<Money>, currency: Currency) throws(ShopError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total + amount }
        return total
    }

    private static func tooLarge(_ currency: Currency) -> ShopError {
        .invalidInput("amount too large: the total does not fit in \(currency.code) minor units (at most \(Money(minorUnits: .max, currency: currency).decimalString))")
    }
}
