// SQLiteCurrencyService: CurrencyService on SQLite (STUB: being written).

import GRDB
import ShopCore

struct SQLiteCurrencyService: CurrencyService {
    let pool: DatabasePool

    func currencies() async throws -> [CurrencyInfo] { throw ShopError.storage("SQLiteCurrencyService: not implemented yet") }
    func currency(_ code: String) async throws -> Currency { throw ShopError.storage("SQLiteCurrencyService: not implemented yet") }
    func rates(on date: String?) async throws -> [CurrencyRate] { throw ShopError.storage("SQLiteCurrencyService: not implemented yet") }
    func rate(_ code: String, on date: String?) async throws -> CurrencyRate { throw ShopError.storage("SQLiteCurrencyService: not implemented yet") }
    func importRates(_ rates: [CurrencyRate]) async throws -> Int { throw ShopError.storage("SQLiteCurrencyService: not implemented yet") }
}
