// StoreContract+Currency: the currency store's contract — the ISO 4217 list with minor units,
// which stored rate each question gets, imports, and conversions rounded to each currency's
// minor unit (JPY 0, KWD 3), checked against Foundation's Decimal.

import Foundation
import ShopCore
import Testing

extension StoreContract {
    /// ISO 4217 currencies and ECB rates (`CurrencyService` and its ShopCore rules).
    public static func currency(_ fixture: some StoreFixture) async {
        await run("currency", fixture, [
            Case("the ISO list and minor units", start: .currencyList, isoList),
            Case("each question gets the right stored rate", start: .currencyList, storedRates),
            Case("conversions round once to the target's minor unit", start: .currencyList, conversions),
            Case("an ECB import stores all its rates or none", start: .currencyList, ecbImport),
            Case("a store without an ISO list refuses imports", emptyStoreRefusesImport),
        ])
    }

    static let day1 = "2026-04-10", day2 = "2026-04-13"

    /// A rate from its text, e.g. `rate("1.0823")`.
    static func rate(_ date: String, _ code: String, _ text: String) throws -> CurrencyRate {
        guard let value = ExactDecimal.parse(text, maxScale: 6) else { throw ShopError.invalidInput("bad rate \(text)") }
        return CurrencyRate(date: date, currency: code, rate: value)
    }

    /// `rate` with its value normalised, so 1.1 and 1.100000 compare equal.
    static func normalized(_ rate: CurrencyRate?) -> CurrencyRate? {
        rate.map { CurrencyRate(date: $0.date, currency: $0.currency, rate: $0.rate.normalized) }
    }

    static func isoList(_ shop: ShopServices) async throws {
        let listed = try await shop.currencies.currencies()
        #expect(Set(listed) == Set(ContractData.currencyList) && listed.count == ContractData.currencyList.count)
        #expect(try await shop.currencies.currency("JPY") == Currency(code: "JPY", minorUnitDigits: 0))
        #expect(try await shop.currencies.currency("KWD") == Currency(code: "KWD", minorUnitDigits: 3))
        #expect(try await shop.currencies.currency("USD") == .usd)
        #expect(try await shop.currencies.currency("EUR") == .eur)
        try await expectRefused(.notFound, shop) { try await shop.currencies.currency("ABC") }
        await #expect(throws: ShopError.self) { try await shop.currencies.currency("XAU") }   // no minor unit
    }

    static func storedRates(_ shop: ShopServices) async throws {
        let currencies = shop.currencies
        #expect(try await currencies.latestRateDay(onOrBefore: nil) == nil)
        #expect(try await currencies.latestRates(onOrBefore: nil).isEmpty)
        let stored = [try rate(day1, "USD", "1.1000"), try rate(day1, "JPY", "160"), try rate(day1, "KWD", "0.3321"),
                      try rate(day2, "USD", "1.2"), try rate(day2, "JPY", "170.5")]
        #expect(try await currencies.storeRates(stored) == 5)
        #expect(normalized(try await currencies.latestRate("USD", onOrBefore: nil)) == normalized(try rate(day2, "USD", "1.2")))
        #expect(normalized(try await currencies.latestRate("KWD", onOrBefore: nil)) == normalized(try rate(day1, "KWD", "0.3321")))
        #expect(normalized(try await currencies.latestRate("USD", onOrBefore: day1)) == normalized(try rate(day1, "USD", "1.1")))
        #expect(normalized(try await currencies.latestRate("USD", onOrBefore: "2026-04-12")) == normalized(try rate(day1, "USD", "1.1")))
        #expect(try await currencies.latestRate("USD", onOrBefore: "2026-04-09") == nil)
        #expect(try await currencies.latestRate("GBP", onOrBefore: nil) == nil)
        #expect(try await currencies.latestRates(onOrBefore: nil).map(normalized) == [
            normalized(try rate(day2, "JPY", "170.5")), normalized(try rate(day1, "KWD", "0.3321")), normalized(try rate(day2, "USD", "1.2")),
        ])
        #expect(try await currencies.latestRates(onOrBefore: day1).map { "\($0.currency) \($0.date)" } == ["JPY \(day1)", "KWD \(day1)", "USD \(day1)"])
        #expect(try await currencies.latestRates(onOrBefore: "2026-01-01").isEmpty)
        #expect(try await currencies.latestRateDay(onOrBefore: nil) == day2)
        #expect(try await currencies.latestRateDay(onOrBefore: "2026-04-12") == day1)
        #expect(try await currencies.latestRateDay(onOrBefore: "2026-04-09") == nil)
        #expect(try await currencies.firstRateDay(nil) == day1)
        #expect(try await currencies.firstRateDay("JPY") == day1)
        #expect(try await currencies.firstRateDay("GBP") == nil)
        // A rate of the same day and code replaces the stored one.
        #expect(try await currencies.storeRates([try rate(day2, "USD", "1.25")]) == 1)
        #expect(normalized(try await currencies.latestRate("USD", onOrBefore: nil)) == normalized(try rate(day2, "USD", "1.25")))
        #expect(try await currencies.latestRates(onOrBefore: nil).count == 3)
        // The day a pair uses is the latest both have: KWD has only day 1.
        #expect(try await currencies.ratePair(from: "USD", to: "KWD", on: nil).date == day1)
        #expect(try await currencies.ratePair(from: "JPY", to: "USD", on: nil).date == day2)
    }

    static func conversions(_ shop: ShopServices) async throws {
        let rates = ["USD": "1.0823", "JPY": "162.37", "KWD": "0.3005", "GBP": "0.85"]
        _ = try await shop.currencies.storeRates(try rates.map { try rate(day2, $0.key, $0.value) })
        func decimal(_ text: String) throws -> Decimal {
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw ShopError.invalidInput("not a number: \(text)")
            }
            return value
        }
        let pairs = [("USD", "JPY"), ("USD", "KWD"), ("JPY", "KWD"), ("KWD", "JPY"), ("EUR", "JPY"), ("EUR", "KWD"),
                     ("GBP", "USD"), ("JPY", "EUR"), ("USD", "USD")]
        let amounts: [Int64] = [1, 5, 50, 99, 100, 500, 1_000, 12_345, 999_999, 123_456_789]
        for (from, to) in pairs {
            let source = try await shop.currencies.currency(from)
            let target = try await shop.currencies.currency(to)
            let pair = try await shop.currencies.ratePair(from: from, to: to, on: nil)
            #expect(pair.date == day2)
            let sourceRate = from == "EUR" ? Decimal(1) : try decimal(try #require(rates[from]))
            let targetRate = to == "EUR" ? Decimal(1) : try decimal(try #require(rates[to]))
            for units in amounts {
                let money = Money(minorUnits: units, currency: source)
                let amount = Decimal(units) / pow(Decimal(10), source.minorUnitDigits)
                let expected = ContractData.roundedUnits(amount * targetRate / sourceRate, scale: target.minorUnitDigits)
                let converted = try pair.convert(money, to: target)
                #expect(converted == Money(minorUnits: expected, currency: target), "\(money) → \(to)")
            }
        }
        // Exact halves round away from zero: 1.00 EUR at 0.3005 × 5 is 1.5025 KWD → 1.503.
        _ = try await shop.currencies.storeRates([try rate(day2, "KWD", "0.3005"), try rate(day2, "JPY", "100.5")])
        let kwd = try await shop.currencies.currency("KWD"), jpy = try await shop.currencies.currency("JPY")
        #expect(try await shop.currencies.ratePair(from: "EUR", to: "KWD", on: nil).convert(Money(minorUnits: 500, currency: .eur), to: kwd)
                == Money(minorUnits: 1_503, currency: kwd))
        #expect(try await shop.currencies.ratePair(from: "EUR", to: "JPY", on: nil).convert(Money(minorUnits: 100, currency: .eur), to: jpy)
                == Money(minorUnits: 101, currency: jpy))
    }

    /// An ECB daily file with one rate per currency of the list (EUR is the base, 1).
    static func ecbXML(date: String, rates: [(String, String)]) -> [UInt8] {
        let cubes = rates.map { "<Cube currency='\($0.0)' rate='\($0.1)'/>" }.joined(separator: "\n")
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube><Cube time='\(date)'>
            \(cubes)
            </Cube></Cube></gesmes:Envelope>
            """.utf8)
    }

    static func ecbImport(_ shop: ShopServices) async throws {
        let imported = try await shop.currencies.importRates(from: ecbXML(date: day2, rates: [("USD", "1.1684"), ("JPY", "186.75"), ("KWD", "0.35")]))
        #expect(imported.count == 3)
        #expect(try await shop.currencies.latestRates(onOrBefore: nil).map { "\($0.currency) \($0.date) \($0.rate.normalized)" }
                == ["JPY \(day2) 186.75", "KWD \(day2) 0.35", "USD \(day2) 1.1684"])
        // A code outside the store's list refuses the whole file.
        try await expectRefused(.invalidInput, shop) {
            try await shop.currencies.importRates(from: ecbXML(date: "2026-04-14", rates: [("USD", "1.17"), ("CHF", "0.93")]))
        }
        #expect(try await shop.currencies.latestRateDay(onOrBefore: nil) == day2)
    }

    /// The protocols cannot fill the ISO list, so a store made empty has none: imports are refused
    /// (a conflict), and without rates there is nothing to convert with.
    static func emptyStoreRefusesImport(_ shop: ShopServices) async throws {
        #expect(try await shop.currencies.currencies().isEmpty)
        try await expectRefused(.conflict, shop) {
            try await shop.currencies.importRates(from: ecbXML(date: day2, rates: [("USD", "1.1684")]))
        }
        try await expectRefused(.notFound, shop) { try await shop.currencies.ratePair(from: "USD", to: "EUR", on: nil) }
    }
}
