// CurrencyConverter: converts money through EUR cross rates with full precision and rounds
// once, half away from zero, to the target's minor unit. The only conversion rule.

/// Conversion between currencies quoted against the euro (ECB reference rates).
public enum CurrencyConverter {
    /// `money` in `target`, where `sourceRate` and `targetRate` are units per euro (EUR itself is 1).
    ///
    /// minor_to = minor_from × targetRate × 10^targetDigits / (sourceRate × 10^sourceDigits),
    /// computed in 128-bit integers and rounded once.
    public static func convert(_ money: Money, to target: Currency, sourceRate: ExactDecimal,
                               targetRate: ExactDecimal) throws(ShopError) -> Money {
        guard sourceRate.units > 0, targetRate.units > 0 else { throw .invalidInput("exchange rates must be positive") }
        let scale = max(sourceRate.scale, targetRate.scale)
        guard let source = sourceRate.rescaled(to: scale), let targetValue = targetRate.rescaled(to: scale) else {
            throw .invalidInput("exchange rate out of range")
        }
        let numerator = Int128(money.minorUnits) * Int128(targetValue.units) * power(target.minorUnitDigits)
        let denominator = Int128(source.units) * power(money.currency.minorUnitDigits)
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        var rounded = quotient
        if remainder.magnitude * 2 >= denominator.magnitude { rounded += numerator < 0 ? -1 : 1 }
        guard let minor = Int64(exactly: rounded) else { throw .invalidInput("converted amount is too large") }
        return Money(minorUnits: minor, currency: target)
    }

    /// Units of the target per unit of the source (targetRate / sourceRate), rounded to `scale` digits; for display.
    public static func crossRate(sourceRate: ExactDecimal, targetRate: ExactDecimal, scale: Int = 6) throws(ShopError) -> ExactDecimal {
        let unit = Money(minorUnits: 1, currency: Currency(code: "XXX", minorUnitDigits: 0))
        let converted = try convert(unit, to: Currency(code: "XXX", minorUnitDigits: scale),
                                    sourceRate: sourceRate, targetRate: targetRate)
        return converted.amount
    }

    private static func power(_ exponent: Int) -> Int128 {
        var result: Int128 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
