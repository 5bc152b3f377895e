// SQLiteCurrencyService: ISO 4217 currencies and ECB euro reference rates on SQLite.

import GRDB
import ShopCore

/// `CurrencyService` on a SQLite store.
struct SQLiteCurrencyService: CurrencyService {
    let database: DatabaseQueue

    func currencies() async throws -> [CurrencyInfo] {
        try database.shopRead { db in
            try Row.fetchAll(db, sql: "SELECT code, name, minor_units FROM currencies ORDER BY code")
                .map { CurrencyInfo(code: $0[0], name: $0[1], minorUnits: $0[2]) }
        }
    }

    func currency(_ code: String) async throws -> Currency {
        let code = code.uppercased()
        return try database.shopRead { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT code, minor_units FROM currencies WHERE code = ?", arguments: [code]) else {
                throw ShopError.notFound("unknown currency code \"\(code)\" (see: currency codes)")
            }
            guard let digits: Int = row[1] else {
                throw ShopError.invalidInput("\(code) has no minor unit (it is not a currency one can price in)")
            }
            return Currency(code: code, minorUnitDigits: digits)
        }
    }

    func rates(on date: String?) async throws -> [CurrencyRate] {
        try database.shopRead { db in
            let day = try Self.rateDate(db, onOrBefore: date)
            return try Row.fetchAll(db, sql: "SELECT code, rate FROM currency_rates WHERE date = ? ORDER BY code", arguments: [day])
                .compactMap { row in
                    ExactDecimal.parse(row[1], maxScale: ECBRatesDecoder.rateScale).map { CurrencyRate(date: day, currency: row[0], rate: $0) }
                }
        }
    }

    func rate(_ code: String, on date: String?) async throws -> CurrencyRate {
        let code = code.uppercased()
        return try database.shopRead { db in
            if code == Currency.eur.code {
                return CurrencyRate(date: try Self.rateDate(db, onOrBefore: date), currency: code,
                                    rate: ExactDecimal(units: 1, scale: 0))
            }
            var sql = "SELECT date, rate FROM currency_rates WHERE code = ?"
            var arguments: StatementArguments = [code]
            if let date {
                sql += " AND date <= ?"
                arguments += [date]
            }
            guard let row = try Row.fetchOne(db, sql: sql + " ORDER BY date DESC LIMIT 1", arguments: arguments),
                  let rate = ExactDecimal.parse(row[1], maxScale: ECBRatesDecoder.rateScale) else {
                if let first = try String.fetchOne(db, sql: "SELECT min(date) FROM currency_rates WHERE code = ?", arguments: [code]),
                   let date {
                    throw ShopError.notFound("no \(code) rate on or before \(date); the first \(code) rate is from \(first)")
                }
                throw ShopError.notFound("no exchange rate for \(code) (import one with: currency import FILE)")
            }
            return CurrencyRate(date: row[0], currency: code, rate: rate)
        }
    }

    func importRates(_ rates: [CurrencyRate]) async throws -> Int {
        try database.shopWrite { db in
            for rate in rates {
                try db.execute(sql: "INSERT OR REPLACE INTO currency_rates (date, code, rate) VALUES (?, ?, ?)",
                               arguments: [rate.date, rate.currency, rate.rate.normalized.description])
            }
            return rates.count
        }
    }

    /// The latest date with rates on or before `date` (the newest when nil).
    static func rateDate(_ db: Database, onOrBefore date: String?) throws -> String {
        if let date, !ECBRatesDecoder.isISODate(date) {
            throw ShopError.invalidInput("invalid date \"\(date)\": expected YYYY-MM-DD")
        }
        let found: String? = if let date {
            try String.fetchOne(db, sql: "SELECT max(date) FROM currency_rates WHERE date <= ?", arguments: [date])
        } else {
            try String.fetchOne(db, sql: "SELECT max(date) FROM currency_rates")
        }
        guard let found else {
            if let date, let first = try String.fetchOne(db, sql: "SELECT min(date) FROM currency_rates") {
                throw ShopError.notFound("no exchange rates on or before \(date); the first are from \(first)")
            }
            throw ShopError.notFound("the store has no exchange rates (import some with: currency import FILE)")
        }
        return found
    }
}
