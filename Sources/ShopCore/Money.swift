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
    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "adding amounts in different currencies")
        return Money(minorUnits: lhs.minorUnits + rhs.minorUnits, currency: lhs.currency)
    }

    /// The amount times a whole quantity.
    public func times(_ quantity: Int) -> Money {
        Money(minorUnits: minorUnits * Int64(quantity), currency: currency)
    }

    /// The amount reduced by a percentage, rounded once to the minor unit.
    public func discounted(by percent: Percentage) -> Money {
        let keptHundredthsOfPercent = Int64(10_000 - percent.hundredths)
        return Money(minorUnits: ExactDecimal.divideRounded(minorUnits * keptHundredthsOfPercent, by: 10_000),
                     currency: currency)
    }
}
