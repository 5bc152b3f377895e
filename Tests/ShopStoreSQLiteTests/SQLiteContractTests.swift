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

    @Test func products() async { await StoreContract.products(fixture) }
    @Test func users() async { await StoreContract.users(fixture) }
    @Test func baskets() async { await StoreContract.baskets(fixture) }
    @Test func checkout() async { await StoreContract.checkout(fixture) }
    @Test func favorites() async { await StoreContract.favorites(fixture) }
    @Test func orders() async { await StoreContract.orders(fixture) }
    @Test func concurrency() async { await StoreContract.concurrency(fixture) }
    @Test func completions() async { await StoreContract.completions(fixture) }
    @Test func currency() async { await StoreContract.currency(fixture) }
    @Test func runTransactions() async { await StoreContract.runTransactions(fixture) }
}
