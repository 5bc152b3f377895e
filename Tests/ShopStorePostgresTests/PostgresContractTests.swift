// PostgresContractTests: the store contract (Tests/StoreContract) against the PostgreSQL store,
// each case on a new schema of the server in SHOPSH_TEST_POSTGRES. Only the areas the store has
// so far run here (products, users, favourites, currency); the others join as their services are
// written (issue 12).

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

    /// Cases that need services the PostgreSQL store does not have yet (baskets, checkout, orders):
    /// a refusal's check (`expectRefused`) snapshots the whole store through every service, listing
    /// the orders and each user's basket, so every case with a refusal fails there; the others
    /// place an order. They report as known issues until those services exist, and as errors once
    /// they pass (then remove them here).
    var knownIssues: [String: Comment] {
        let snapshot: Comment = "a refusal's store snapshot lists the orders and each user's basket: not on PostgreSQL yet"
        let checkout: Comment = "places an order (baskets, checkout and orders): not on PostgreSQL yet"
        return [
            "products/delete removes the product and its lines, orders keep copies": checkout,
            "products/a taken SKU is refused": snapshot,
            "products/SKU lookup and uniqueness agree on case": snapshot,
            "products/bad products are refused": snapshot,
            "products/a price in another currency is refused": snapshot,
            "products/out-of-range discount and rating are refused as input": snapshot,
            "products/bad updates are refused": snapshot,
            "products/stock +N, -N and =N": snapshot,
            "products/negative stock amounts are refused": snapshot,
            "products/import is all or nothing": snapshot,
            "products/list filters and counts": snapshot,
            "products/sort ascending and descending on every sortable field": snapshot,
            "users/unknown users are notFound": snapshot,
            "users/a taken username or email is refused in any case": snapshot,
            "users/bad users are refused": snapshot,
            "users/bad updates are refused": snapshot,
            "users/passwords are set and checked": snapshot,
            "users/delete keeps the user's orders": checkout,
            "users/list filters, sort and paging": snapshot,
            "favorites/a user's list sorts and pages in the store": snapshot,
            "favorites/unknown users and products are notFound": snapshot,
            "currency/the ISO list and minor units": snapshot,
            "currency/an ECB import stores all its rates or none": snapshot,
            "currency/a store without an ISO list refuses imports": snapshot,
        ]
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresStoreContractTests {
    let fixture = PostgresFixture()

    @Test func products() async { await StoreContract.products(fixture) }
    @Test func users() async { await StoreContract.users(fixture) }
    @Test func favorites() async { await StoreContract.favorites(fixture) }
    @Test func currency() async { await StoreContract.currency(fixture) }
}
