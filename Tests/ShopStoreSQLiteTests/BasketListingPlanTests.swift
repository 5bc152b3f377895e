// BasketListingPlanTests: `basket list --idle` reads a store two ways (SQLiteBasketService.fewIdle):
// by last change when few baskets are idle, in the sort's order when many are. Both give the page
// that the whole list, filtered and sorted here, gives — on either side of the bound.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class BasketListingPlanTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("basket-plan-tests-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func anIdleListingGivesTheSamePageWhicheverWayItReads() async throws {
        let store = try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
        let baskets = SQLiteBasketService.fewIdleBaskets + 500
        // One basket per user, its last change a minute apart going back in time, totals repeating
        // (ties are ordered by user id).
        try store.write { db in
            try db.execute(sql: "INSERT INTO products (id, sku, title, category, price_minor, stock) VALUES (1, 'P-1', 'Thing', 'misc', 100, 10)")
            for user in 1...baskets {
                try db.execute(sql: "INSERT INTO users (id, username, email) VALUES (?, ?, ?)",
                               arguments: [user, "user\(user)", "user\(user)@example.com"])
                let changed = String(format: "2026-%02d-%02dT%02d:%02d:00Z", 1 + user / 5_000, 1 + user % 28, user % 24, user % 60)
                try db.execute(sql: "INSERT INTO basket_lines (user_id, product_id, quantity, added_at, changed_at) VALUES (?, 1, ?, ?, ?)",
                               arguments: [user, 1 + user % 97, changed, changed])
            }
        }
        var all: [BasketSummary] = []
        try await store.services.baskets.listBaskets(BasketListQuery()) { all.append($0) }
        #expect(all.count == baskets)

        let sort = [SortKey(field: "total", descending: true)]
        // Idle before 2026-02-01: users 1…4,999 (few: under the bound); before 2026-03-01: every one of them.
        for before in ["2026-01-15T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"] {
            for page in [Page(sort: sort, limit: 50), Page(sort: sort, limit: 50, offset: 120)] {
                let query = BasketListQuery(changedBefore: before, page: page)
                var listed: [BasketSummary] = []
                try await store.services.baskets.listBaskets(query) { listed.append($0) }
                let expected = all.filter { $0.lastChange <= before }
                    .sorted { ($0.total.minorUnits, -$0.userID) > ($1.total.minorUnits, -$1.userID) }
                    .dropFirst(page.offset).prefix(50)
                #expect(listed == Array(expected), "idle before \(before), from \(page.offset)")
            }
        }
        let plans = try store.read { db in
            try ["2026-01-15T00:00:00Z", "2026-03-01T00:00:00Z"].map {
                try SQLiteBasketService.fewIdle(db, BasketListQuery(changedBefore: $0, page: Page(sort: sort)))
            }
        }
        #expect(plans == [true, false], "both ways were taken")
        store.close()
    }
}
