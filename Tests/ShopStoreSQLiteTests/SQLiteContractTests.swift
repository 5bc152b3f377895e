// SQLiteContractTests: the store contract (Tests/StoreContract) run against the SQLite store,
// one test per area, each case on a new store file in a folder removed afterwards.

import Foundation
import GRDB
import ShopCore
import StoreContract
import Testing
@testable import ShopStoreSQLite

/// New SQLite stores in a temporary folder of their own, removed with the fixture.
final class SQLiteFixture: StoreFixture {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-contract-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    func makeEmptyStore() async throws -> any ShopStore {
        try newStore()
    }

    /// The ISO list is written with SQL here: no service can add to it (see `StoreFixture`).
    func makeStore(currencyList: [CurrencyInfo]) async throws -> any ShopStore {
        let store = try newStore()
        try store.write { db in
            for currency in currencyList {
                try db.execute(sql: "INSERT INTO currencies (code, name, minor_units) VALUES (?, ?, ?)",
                               arguments: [currency.code, currency.name, currency.minorUnits])
            }
        }
        return store
    }

    private func newStore() throws -> SQLiteStore {
        try SQLiteStore(path: folder.appendingPathComponent(UUID().uuidString).appendingPathComponent("shop.sqlite").path, create: true)
    }
}

@Suite struct SQLiteStoreContractTests {
    let fixture = SQLiteFixture()

    @Test(arguments: StoreContract.Area.allCases) func area(_ area: StoreContract.Area) async {
        await area.run(fixture)
    }
}
