// CurrencyRate: an ECB reference rate, units of a currency per one euro on a date.

/// How many units of `currency` one euro bought on `date` (ECB reference rate).
public struct CurrencyRate: Hashable, Sendable {
    /// ISO date, `YYYY-MM-DD`.
    public var date: String
    public var currency: String
    /// The rate as published, e.g. 1.0823 (exact, not floating point).
    public var rate: ExactDecimal

    public init(date: String, currency: String, rate: ExactDecimal) {
        self.date = date
        self.currency = currency
        self.rate = rate
    }
}

extension CurrencyRate {
    /// The rate as a store writes it: the exact decimal without trailing zeros (`1.2`, `170.5`).
    public var storedText: String { rate.normalized.description }

    /// A rate as a store reads it back: `text` is the decimal it stored, parsed exactly (never
    /// through floating point) to at most `ECBRatesDecoder.rateScale` places. A rate that does
    /// not parse means the stored data was damaged.
    public static func stored(date: String, currency code: String, text: String) throws(ShopError) -> CurrencyRate {
        guard let rate = ExactDecimal.parse(text, maxScale: ECBRatesDecoder.rateScale) else {
            throw .storage("the stored \(code) rate of \(date) is not a number: \"\(text)\"")
        }
        return CurrencyRate(date: date, currency: code, rate: rate)
    }
}
