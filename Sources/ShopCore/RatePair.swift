// RatePair: the rates of two currencies on one common day, which every conversion uses
// (chosen by `CurrencyService.ratePair(from:to:on:)`), and how old that day is.

/// Two currencies' rates per euro on the same day: the latest day, on or before the date asked
/// for, on which both have a rate (EUR has one, 1, on every day that has any rates).
public struct RatePair: Hashable, Sendable {
    /// The currency converted from, and its rate per euro on `date`.
    public var source: CurrencyRate
    /// The currency converted to, and its rate per euro on `date`.
    public var target: CurrencyRate
    /// The newest day with any rates on or before the date asked for (the newest in the store
    /// without one): the day a pair of currencies quoted every day would have used.
    public var newestDate: String

    /// A note is due when the common day is more than this many days older than `newestDate`.
    public static let staleAfterDays = 7

    public init(source: CurrencyRate, target: CurrencyRate, newestDate: String) {
        self.source = source
        self.target = target
        self.newestDate = newestDate
    }

    /// The day both rates are from.
    public var date: String { source.date }

    /// How many days `date` is older than `newestDate` (nil if either is not a day).
    public var daysOld: Int? {
        guard let day = CalendarDay(iso: date), let newest = CalendarDay(iso: newestDate) else { return nil }
        return day.days(until: newest)
    }

    /// One line for stderr when the common day is much older than the newest rates; nil otherwise.
    public var stalenessNote: String? {
        guard let days = daysOld, days > Self.staleAfterDays else { return nil }
        let pair = source.currency == target.currency ? source.currency : "\(source.currency) and \(target.currency)"
        return "note: using the rates of \(date), the latest day with rates for both \(pair): "
            + "\(days) days older than the newest rates (\(newestDate))"
    }

    /// `money` (in the source currency) in `currency` (the target), rounded once.
    public func convert(_ money: Money, to currency: Currency) throws(ShopError) -> Money {
        guard money.currency.code == source.currency, currency.code == target.currency else {
            throw .invalidInput("rates for \(source.currency) → \(target.currency) cannot convert \(money.currency.code) → \(currency.code)")
        }
        return try CurrencyConverter.convert(money, to: currency, sourceRate: source.rate, targetRate: target.rate)
    }

    /// Units of the target per unit of the source, rounded to `scale` digits; for display.
    public func crossRate(scale: Int = 6) throws(ShopError) -> ExactDecimal {
        try CurrencyConverter.crossRate(sourceRate: source.rate, targetRate: target.rate, scale: scale)
    }
}
