// SQLiteCompletionSourceTests: the indexed prefix queries behind Tab completion, on the demo shop.

import Foundation
import GRDB
import ShopCore
import Testing
@testable import ShopStoreSQLite

@Suite final class SQLiteCompletionSourceTests {
    /// Each test's own folder, removed when the test ends.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    func demoStore() throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
        _ = try store.importDemoShop()
        return store
    }

    @Test func integerPrefixRangesCoverEveryIdWithThePrefix() {
        #expect(integerPrefixRanges("12", maximum: 1300) == [12...12, 120...129, 1200...1299])
        #expect(integerPrefixRanges("1", maximum: 194) == [1...1, 10...19, 100...194])
        #expect(integerPrefixRanges("", maximum: 5) == [1...5])
        #expect(integerPrefixRanges("0", maximum: 100).isEmpty)
        #expect(integerPrefixRanges("x1", maximum: 100).isEmpty)
        #expect(integerPrefixRanges("500", maximum: 100).isEmpty)
        #expect(integerPrefixRanges("9", maximum: Int64.max).count == 19)   // no overflow
    }

    @Test func usersMatchByUsernameOrEmailCaseInsensitively() async throws {
        let source = try #require(try demoStore().services.completions)
        let users = try await source.users(prefix: "emi", limit: 10)
        #expect(users.map(\.username) == ["emilys", "emilyt"])
        #expect(users.map(\.email) == ["emily.johnson@x.dummyjson.com", "emily.brown@x.dummyjson.com"])
        #expect(try await source.users(prefix: "EMILY.J", limit: 10).map(\.username) == ["emilys"])
        #expect(try await source.users(prefix: "e", limit: 3).count <= 6)   // at most 3 per index
        #expect(try await source.users(prefix: "zzzz", limit: 10).isEmpty)
    }

    @Test func productIdsAscendWithTitlesAndStopAtTheLimit() async throws {
        let source = try #require(try demoStore().services.completions)
        let ids = try await source.productIDs(prefix: "1", limit: 200)
        #expect(ids.map(\.id) == [1] + Array(10...19) + Array(100...194))
        #expect(ids.first?.title.isEmpty == false)
        #expect(try await source.productIDs(prefix: "1", limit: 5).map(\.id) == [1, 10, 11, 12, 13])
        #expect(try await source.productIDs(prefix: "195", limit: 5).isEmpty)
        #expect(try await source.productIDs(prefix: "abc", limit: 5).isEmpty)
    }

    @Test func skusCategoriesAndCurrencies() async throws {
        let source = try #require(try demoStore().services.completions)
        #expect(try await source.skus(prefix: "bea-ess", limit: 10) == ["BEA-ESS-ESS-001"])
        let categories = try await source.categories(prefix: "", limit: 100)
        #expect(categories.count == 24 && categories == categories.sorted() && Set(categories).count == categories.count)
        #expect(try await source.categories(prefix: "mens-", limit: 10) == ["mens-shirts", "mens-shoes", "mens-watches"])
        #expect(try await source.categories(prefix: "mens-", limit: 2) == ["mens-shirts", "mens-shoes"])
        #expect(try await source.currencyCodes(prefix: "eu", limit: 10) == ["EUR"])
        // The demo's history: ids 1, 10…19 and so on, in order.
        let orderIDs = try await source.orderIDs(prefix: "1", limit: 10)
        #expect(orderIDs.count == 10 && orderIDs.allSatisfy { String($0).hasPrefix("1") } && orderIDs.first == 1)
    }

    @Test func everyQuerySearchesAnIndex() throws {
        let store = try demoStore()
        let queries: [(String, StatementArguments)] = [
            (SQLiteCompletionSource.usernameSQL, ["em", "em\u{10FFFF}", 10]),
            (SQLiteCompletionSource.emailSQL, ["em", "em\u{10FFFF}", 10]),
            (SQLiteCompletionSource.skuSQL, ["BE", "BE\u{10FFFF}", 10]),
            (SQLiteCompletionSource.currencySQL, ["E", "E\u{10FFFF}", 10]),
            (SQLiteCompletionSource.productRangeSQL, [10, 19, 10]),
            (SQLiteCompletionSource.orderRangeSQL, [10, 19, 10]),
            (SQLiteCompletionSource.firstCategorySQL, ["m"]),
            (SQLiteCompletionSource.nextCategorySQL, ["mens-shirts"]),
        ]
        for (sql, arguments) in queries {
            let plan = try store.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { row -> String in row["detail"] }
            }.joined(separator: "; ")
            #expect(plan.hasPrefix("SEARCH "), "\(sql): \(plan)")
            #expect(plan.contains("USING") && !plan.contains("SCAN") && !plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
        }
    }
}
