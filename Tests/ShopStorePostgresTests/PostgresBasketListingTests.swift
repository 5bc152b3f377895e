// PostgresBasketListingTests: `basket list --idle --sort total:desc` on PostgreSQL reads the
// basket summaries through the index by last change, so a listing where few baskets are idle
// reads few of them, however many baskets there are.

import Foundation
import ShopCore
import ShopStoreKit
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresBasketListingTests {
    /// The rows of `basket_summaries` read so far, by its scans and by its index on totals (the
    /// server's counters, flushed when each session ends).
    static let summaryReads = """
        SELECT 'read=' || (SELECT COALESCE(seq_tup_read, 0) FROM pg_stat_user_tables
                           WHERE schemaname = current_schema() AND relname = 'basket_summaries')
                        + (SELECT COALESCE(sum(idx_tup_read), 0) FROM pg_stat_user_indexes
                           WHERE schemaname = current_schema() AND relname = 'basket_summaries'
                             AND indexrelname <> 'basket_summaries_by_last_change')
        """

    /// 3,000 baskets changed today, none idle for a week: the listing of the week-idle ones,
    /// largest first, is empty and read (nearly) no summary. Before, the filter was
    /// `$1 IS NULL OR last_change <= $1`, which the server cannot fold, and it walked the index
    /// on totals backwards through every basket (3,000 rows read) to find none.
    @Test func anIdleListingLargestFirstReadsOnlyTheIdleBaskets() async throws {
        let (server, schema) = try await PostgresCachedPlanTests.shop(users: 3_000)
        let read = { () throws -> Int in
            let lines = try PostgresReceiptTests.psql(server, schema: schema, [Self.summaryReads])
            return try #require(lines.first { $0.hasPrefix("read=") }.flatMap { Int($0.dropFirst("read=".count)) })
        }
        _ = try PostgresReceiptTests.psql(server, schema: schema, ["ANALYZE basket_summaries", "ANALYZE users"])
        let before = try read()
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema)
        let now = ShopClock.system.now()
        let largestFirst = [SortKey(field: "total", descending: true)]
        var idle: [BasketSummary] = []
        try await store.services.baskets.listBaskets(BasketListQuery(
            changedBefore: ShopClock.timestamp(now - 7 * 86_400), page: Page(sort: largestFirst, limit: 50))) { idle.append($0) }
        store.close()
        #expect(idle.isEmpty)
        // The session's counters reach the shared ones when it ends: wait for that.
        var after = try read()
        for _ in 0..<20 where after == before {
            try await Task.sleep(for: .milliseconds(100))
            after = try read()
        }
        #expect(after - before < 10, "summaries read to find no idle basket: \(after - before)")

        // The same listing with a bound every basket passes: the largest baskets, by user id among equals.
        let again = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema)
        var largest: [BasketSummary] = []
        try await again.services.baskets.listBaskets(BasketListQuery(
            changedBefore: ShopClock.timestamp(now + 86_400), page: Page(sort: largestFirst, limit: 3))) { largest.append($0) }
        again.close()
        #expect(largest.map(\.total.minorUnits) == [5997, 5997, 5997])
        #expect(largest.map(\.userID) == [2, 5, 8], "users 2, 5, 8… hold three teapots")
    }
}
