// PostgresCurrencyService: ISO 4217 currencies and ECB euro reference rates on PostgreSQL. It only
// fetches and stores: which day a conversion uses is ShopCore's rule (CurrencyService+Rates).
// Rates are NUMERIC, read as text and parsed as ExactDecimal: never floating point.

import Logging
import PostgresNIO
import ShopCore

/// `CurrencyService` on a PostgreSQL server.
struct PostgresCurrencyService: CurrencyService {
    let database: PostgresDatabase

    func currencies() async throws -> [CurrencyInfo] {
        try await database.read("listing currencies") { connection in
            var list: [CurrencyInfo] = []
            let rows = try await connection.query("SELECT code, name, minor_units FROM currencies ORDER BY code COLLATE \"C\"",
                                                  logger: database.logger)
            for try await (code, name, digits) in rows.decode((String, String, Int?).self) {
                list.append(CurrencyInfo(code: code, name: name, minorUnits: digits))
            }
            return list
        }
    }

    func currency(_ code: String) async throws -> Currency {
        let code = code.uppercased()
        let found = try await database.read("reading a currency") { connection -> Int?? in
            let rows = try await connection.query("SELECT minor_units FROM currencies WHERE code = \(code)", logger: database.logger)
            for try await digits in rows.decode(Int?.self) { return .some(digits) }
            return .none
        }
        guard let row = found else {
            throw ShopError.notFound("unknown currency code \"\(code)\" (see: currency codes)")
        }
        guard let digits = row else {
            throw ShopError.invalidInput("\(code) has no minor unit (it is not a currency one can price in)")
        }
        return Currency(code: code, minorUnitDigits: digits)
    }

    func latestRate(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate? {
        let code = code.uppercased()
        let date = try Self.day(date)
        return try await database.read("reading a rate") { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: PostgresTimes.day("date")), rate::text FROM currency_rates
                WHERE code = \(code) AND date <= COALESCE(\(date)::date, 'infinity')
                ORDER BY date DESC LIMIT 1
                """, logger: database.logger)
            for try await (day, text) in rows.decode((String, String).self) {
                return try CurrencyRate.stored(date: day, currency: code, text: text)
            }
            return nil
        }
    }

    func latestRates(onOrBefore date: String?) async throws -> [CurrencyRate] {
        let date = try Self.day(date)
        return try await database.read("reading rates") { connection in
            var rates: [CurrencyRate] = []
            // Codes are ISO 4217's three capital letters: `ORDER BY code` is the same in every collation.
            let rows = try await connection.query("""
                SELECT DISTINCT ON (code) code, \(unescaped: PostgresTimes.day("date")), rate::text FROM currency_rates
                WHERE date <= COALESCE(\(date)::date, 'infinity')
                ORDER BY code, date DESC
                """, logger: database.logger)
            for try await (code, day, text) in rows.decode((String, String, String).self) {
                rates.append(try CurrencyRate.stored(date: day, currency: code, text: text))
            }
            return rates
        }
    }

    func latestRateDay(onOrBefore date: String?) async throws -> String? {
        let date = try Self.day(date)
        return try await database.read("reading the latest rate day") { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: PostgresTimes.day("max(date)")) FROM currency_rates
                WHERE date <= COALESCE(\(date)::date, 'infinity')
                """, logger: database.logger)
            for try await day in rows.decode(String?.self) { return day }
            return nil
        }
    }

    func firstRateDay(_ code: String?) async throws -> String? {
        let code = code?.uppercased()
        return try await database.read("reading the first rate day") { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: PostgresTimes.day("min(date)")) FROM currency_rates
                WHERE \(code)::text IS NULL OR code = \(code)
                """, logger: database.logger)
            for try await day in rows.decode(String?.self) { return day }
            return nil
        }
    }

    /// Stores `rates` in one transaction through the server's `shopsh_store_rates` (a later rate
    /// of the same date and code replacing an earlier one, in the store or in `rates`, as the
    /// SQLite store's `INSERT OR REPLACE` does; one audit row for them all). Returns how many
    /// rates were given.
    func storeRates(_ rates: [CurrencyRate]) async throws -> Int {
        for rate in rates { _ = try CalendarDay.validate(rate.date, for: "the \(rate.currency) rate's date") }
        guard !rates.isEmpty else { return 0 }
        try await database.write(.importRates, action: "import") { connection in
            _ = try await connection.query("""
                SELECT shopsh_store_rates(\(rates.map(\.date))::text[]::date[], \(rates.map(\.currency))::text[],
                                          \(rates.map(\.storedText))::text[]::numeric[])
                """, logger: database.logger).collect()
        }
        return rates.count
    }

    // MARK: - Helpers

    /// A day to compare stored dates with, checked first so that a day that does not exist is an
    /// input error, not the server's refusal to cast it.
    static func day(_ text: String?) throws(ShopError) -> String? {
        guard let text else { return nil }
        return try CalendarDay.validate(text, for: "the date").description
    }
}
