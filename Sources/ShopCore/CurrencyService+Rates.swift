// CurrencyService+Rates: the shop's rules for exchange rates, over what a store fetches:
// which day's rates a conversion uses, what `currency rates` lists, what an import may hold.

extension CurrencyService {
    /// The rates of `source` and `target` on the latest day on or before `date` (any day when
    /// nil) on which both have a rate. EUR has the rate 1 on every day that has any rates.
    ///
    /// The same day is chosen whichever way round the pair is asked for. Errors are one line:
    /// a date that is not a day, a currency without rates, a date before a currency's first rate.
    public func ratePair(from source: String, to target: String, on date: String?) async throws -> RatePair {
        let source = source.uppercased(), target = target.uppercased()
        if let date { _ = try CalendarDay.validate(date, for: "--date") }
        guard let newest = try await latestRateDay(onOrBefore: date) else {
            if let date, let first = try await firstRateDay(nil) {
                throw ShopError.notFound("no exchange rates on or before \(date); the first are from \(first)")
            }
            throw ShopError.notFound("the store has no exchange rates (import some with: currency import FILE)")
        }
        // Each step looks one currency up on or before the other's day; the day only ever moves
        // back, and stops on the first day both have, which is the latest common one.
        var day = newest
        while true {
            guard let sourceRate = try await rateOrBase(source, onOrBefore: day) else {
                throw try await noCommonDay(missing: source, other: target, asked: date ?? newest)
            }
            guard let targetRate = try await rateOrBase(target, onOrBefore: sourceRate.date) else {
                throw try await noCommonDay(missing: target, other: source, asked: date ?? newest)
            }
            if targetRate.date == sourceRate.date {
                return RatePair(source: sourceRate, target: targetRate, newestDate: newest)
            }
            day = targetRate.date
        }
    }

    /// Each currency's latest rate on or before `date` (the newest when nil), with its own date;
    /// an error when there is none.
    public func rates(on date: String?) async throws -> [CurrencyRate] {
        if let date { _ = try CalendarDay.validate(date, for: "--date") }
        let rates = try await latestRates(onOrBefore: date)
        if rates.isEmpty {
            if let date, let first = try await firstRateDay(nil) {
                throw ShopError.notFound("no exchange rates on or before \(date); the first are from \(first)")
            }
            throw ShopError.notFound("the store has no exchange rates (import some with: currency import FILE)")
        }
        return rates
    }

    /// Decodes an ECB rates file (see `ECBRatesDecoder`), accepting only the store's ISO 4217
    /// codes, and stores all its rates or none. Returns the rates stored.
    public func importRates(from bytes: [UInt8]) async throws -> [CurrencyRate] {
        let known = Set(try await currencies().map(\.code))
        guard !known.isEmpty else {
            throw ShopError.conflict("the store has no ISO 4217 currency list to check the codes against (a store made with init --empty has none)")
        }
        let rates = try ECBRatesDecoder.decode(bytes, knownCodes: known)
        _ = try await storeRates(rates)
        return rates
    }

    // MARK: - Pieces

    /// The stored rate of `code`, or for EUR the rate 1 on the latest day with any rates.
    func rateOrBase(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate? {
        guard code == Currency.eur.code else { return try await latestRate(code, onOrBefore: date) }
        return try await latestRateDay(onOrBefore: date).map { CurrencyRate(date: $0, currency: code, rate: ExactDecimal(units: 1, scale: 0)) }
    }

    /// Why `missing` has no rate on a day that `other` also has, on or before `asked`.
    func noCommonDay(missing: String, other: String, asked: String) async throws -> ShopError {
        guard let first = try await firstRateDay(missing == Currency.eur.code ? nil : missing) else {
            return .notFound("no exchange rate for \(missing) (import one with: currency import FILE)")
        }
        if first > asked {
            return .notFound("no \(missing) rate on or before \(asked); the first \(missing) rate is from \(first)")
        }
        return .notFound("no day on or before \(asked) has rates for both \(missing) and \(other)")
    }
}
