// SQLiteCurrencyService: ISO 4217 currencies and ECB euro reference rates on SQLite. It only
// fetches and stores: which day a conversion uses is ShopCore's rule (CurrencyService+Rates).

import GRDB
import ShopCore

/// `CurrencyService` on a SQLite store.
struct SQLiteCurrencyService: CurrencyService {
    let database: DatabaseQueue
    let clock: ShopClock

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

    func latestRate(_ code: String, onOrBefore date: String?) async throws -> CurrencyRate? {
        let code = code.uppercased()
        return try database.shopRead { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT date, rate FROM currency_rates WHERE code = ? AND (?2 IS NULL OR date <= ?2)
                ORDER BY date DESC LIMIT 1
                """, arguments: [code, date])
            return try row.map { try CurrencyRate.stored(date: $0[0], currency: code, text: $0[1]) }
        }
    }

    func latestRates(onOrBefore date: String?) async throws -> [CurrencyRate] {
        try database.shopRead { db in
            // SQLite takes the bare `rate` from the row that holds max(date).
            try Row.fetchAll(db, sql: """
                SELECT code, max(date), rate FROM currency_rates WHERE ?1 IS NULL OR date <= ?1
                GROUP BY code ORDER BY code
                """, arguments: [date])
                .map { try CurrencyRate.stored(date: $0[1], currency: $0[0], text: $0[2]) }
        }
    }

    func latestRateDay(onOrBefore date: String?) async throws -> String? {
        try database.shopRead { db in
            try String.fetchOne(db, sql: "SELECT max(date) FROM currency_rates WHERE ?1 IS NULL OR date <= ?1", arguments: [date])
        }
    }

    func firstRateDay(_ code: String?) async throws -> String? {
        try database.shopRead { db in
            try String.fetchOne(db, sql: "SELECT min(date) FROM currency_rates WHERE ?1 IS NULL OR code = ?1",
                                arguments: [code?.uppercased()])
        }
    }

    func storeRates(_ rates: [CurrencyRate]) async throws -> Int {
        try database.shopWrite { db in
            // One prepared statement for all rows: the full ECB history is over 200,000 of them.
            let insert = try db.makeStatement(sql: "INSERT OR REPLACE INTO currency_rates (date, code, rate) VALUES (?, ?, ?)")
            for rate in rates {
                try insert.execute(arguments: [rate.date, rate.currency, rate.storedText])
            }
            if !rates.isEmpty { try SQLiteAuditLog.record(.rates(rates, stored: rates.count), in: db, at: clock.timestamp()) }
            return rates.count
        }
    }
}
