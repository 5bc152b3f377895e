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
