// PostgresContractTests: the store contract (Tests/StoreContract) against the PostgreSQL store,
// each case on a new schema of the server in SHOPSH_TEST_POSTGRES. Only the areas the store has
// so far run here (products, baskets, checkout, orders, concurrency, completions); the others join
// as their services are written (issue 12).

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
            try await store.client.query("""
                INSERT INTO currencies (code, name, minor_units) VALUES (\(currency.code), \(currency.name), \(currency.minorUnits))
                """, logger: store.logger)
        }
        return store
    }

    /// Cases that need services the PostgreSQL store does not have yet: a refusal's check
    /// (`expectRefused`) snapshots the whole store through every service (users, favourites,
    /// rates), and most cases of baskets, checkout, orders and concurrency start by adding a user.
    /// They report as known issues until those services exist, and as errors once they pass
    /// (then remove them here).
    var knownIssues: [String: Comment] {
        let snapshot: Comment = "a refusal's store snapshot reads users, favourites and rates: not on PostgreSQL yet"
        let users: Comment = "adds its customers through the user service: not on PostgreSQL yet"
        let needUsers = [
            "baskets/add creates a line and adding again increments it", "baskets/set raises and lowers; 0 removes",
            "baskets/remove and clear", "baskets/quantities outside 1…10,000 are refused",
            "baskets/unknown users and products are notFound", "baskets/a disabled user's basket cannot grow",
            "baskets/a product out of stock cannot be added", "baskets/lines show prices now and totals add up",
            "checkout/an empty basket is a conflict", "checkout/one line short of stock changes nothing",
            "checkout/a disabled user cannot check out", "checkout/checkout takes stock, empties the basket and places the order",
            "checkout/order lines keep price, title and discount as sold",
            "orders/placed → paid → shipped → delivered", "orders/cancelling a placed or paid order restocks",
            "orders/refused moves name the allowed ones", "orders/a move to the status it has is a conflict",
            "orders/unknown orders are notFound", "orders/list filters by user, status and days",
            "orders/bad date filters are refused", "orders/stats per status and day",
            "concurrency/8 tasks × 250 increments of one line make 2000", "concurrency/the last item is sold once",
            "completions/users by username or email prefix", "completions/order ids by decimal prefix",
        ]
        return Dictionary(uniqueKeysWithValues: needUsers.map { ($0, users) }).merging([
            "products/delete removes the product and its lines, orders keep copies":
                "needs users and favourites on PostgreSQL (not written yet)",
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
        ]) { first, _ in first }
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresStoreContractTests {
    let fixture = PostgresFixture()

    @Test func products() async { await StoreContract.products(fixture) }
    @Test func baskets() async { await StoreContract.baskets(fixture) }
    @Test func checkout() async { await StoreContract.checkout(fixture) }
    @Test func orders() async { await StoreContract.orders(fixture) }
    @Test func concurrency() async { await StoreContract.concurrency(fixture) }
    @Test func completions() async { await StoreContract.completions(fixture) }
}
