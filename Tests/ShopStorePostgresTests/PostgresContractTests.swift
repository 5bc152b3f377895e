// PostgresContractTests: the store contract (Tests/StoreContract) against the PostgreSQL store,
// each case on a new schema of the server in SHOPSH_TEST_POSTGRES: every area, as on SQLite.

import Foundation
import PostgresNIO
import ShopCore
import StoreContract
import Testing
@testable import ShopStorePostgres

/// New PostgreSQL stores, one schema each, on the test server.
final class PostgresFixture: StoreFixture {
    func makeEmptyStore() async throws -> any ShopStore {
        try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: try await PostgresTestServer.makeSchema())
    }

    /// The ISO list is written with SQL here: no service can add to it (see `StoreFixture`).
    func makeStore(currencyList: [CurrencyInfo]) async throws -> any ShopStore {
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(),
                                                 searchPath: try await PostgresTestServer.makeSchema())
        for currency in currencyList {
            try await store.execute("""
                INSERT INTO currencies (code, name, minor_units) VALUES (\(currency.code), \(currency.name), \(currency.minorUnits))
                """)
        }
        return store
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresStoreContractTests {
    let fixture = PostgresFixture()

    @Test(arguments: StoreContract.Area.allCases) func area(_ area: StoreContract.Area) async {
        await area.run(fixture)
    }
}
