// PostgresCompletionPlanTests: Tab completion stays instant on a big shop — each of the completion
// source's queries, on tables of 20,000 rows, is planned as an index search, never a table scan.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import Testing
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresCompletionPlanTests {
    /// The server's plan for `query`, one line per node.
    func plan(_ store: PostgresStore, _ query: PostgresQuery) async throws -> String {
        try await store.textColumn(PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds)).joined(separator: "\n")
    }

    @Test func completionQueriesUseIndexes() async throws {
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(),
                                                 searchPath: try await PostgresTestServer.makeSchema())
        defer { store.close() }
        // Rows written with SQL: the plans are what is tested, not the services.
        for statement in [
            """
            INSERT INTO products (id, sku, title, category, price_minor, stock)
            SELECT n, 'SKU-' || n, 'Product ' || n, 'category-' || (n % 300), 100, 5 FROM generate_series(1, 20000) AS n
            """,
            """
            INSERT INTO users (id, username, email) SELECT n, 'user' || n, 'mail' || n || '@example.com'
            FROM generate_series(1, 20000) AS n
            """,
            """
            INSERT INTO orders (id, user_id, customer, currency, total_minor, discounted_total_minor)
            SELECT n, 1, 'user1', 'USD', 100, 100 FROM generate_series(1, 20000) AS n
            """,
            "INSERT INTO currencies (code, name, minor_units) VALUES ('EUR', 'Euro', 2), ('USD', 'US Dollar', 2)",
            "ANALYZE",
        ] {
            try await store.execute(PostgresQuery(unsafeSQL: statement))
        }
        let source = PostgresCompletionSource.self
        let queries: [(String, PostgresQuery)] = [
            ("usernames", source.usernameQuery("user12", limit: 20)),
            ("usernames, no prefix", source.usernameQuery("", limit: 20)),
            ("emails", source.emailQuery("MAIL7", limit: 20)),
            ("SKUs", source.skuQuery("sku-19", limit: 20)),
            ("product ids", source.productRangeQuery(120...129, limit: 20)),
            ("order ids", source.orderRangeQuery(1200...1299, limit: 20)),
            ("first category", source.nextCategoryQuery(after: "category-1", inclusive: true)),
            ("next category", source.nextCategoryQuery(after: "category-1", inclusive: false)),
            ("highest product id", source.maxProductQuery),
            ("highest order id", source.maxOrderQuery),
        ]
        for (name, query) in queries {
            let plan = try await plan(store, query)
            #expect(!plan.contains("Seq Scan") && plan.contains("Index"), "\(name):\n\(plan)")
        }
        // The answers themselves, on the big tables.
        let completions = try #require(store.services.completions)
        #expect(try await completions.skus(prefix: "sku-1999", limit: 5) == ["SKU-1999", "SKU-19990", "SKU-19991", "SKU-19992", "SKU-19993"])
        #expect(try await completions.categories(prefix: "category-29", limit: 3) == ["category-29", "category-290", "category-291"])
        #expect(try await completions.orderIDs(prefix: "2", limit: 3) == [2, 20, 21])
        #expect(try await completions.users(prefix: "user1999", limit: 2).map(\.username) == ["user1999", "user19990"])
    }
}
