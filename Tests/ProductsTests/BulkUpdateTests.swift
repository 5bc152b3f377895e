// BulkUpdateTests: `products update` over a selection on the demo shop, on the store under test —
// every price a diff shows equals Foundation's Decimal rounding of the same percentage (half away
// from zero to the cent, as Python's ROUND_HALF_UP does for prices), a dry run and a refused batch
// change nothing, and an applied change is one change set in the audit log.

import Foundation
import ShopCore
import Testing
import TestSupport
import Products

@Suite struct BulkUpdateTests {
    /// `value × (100 + percent) / 100`, rounded to cents half away from zero, by Foundation.
    static func expected(_ price: String, percent: Int) -> String {
        var exact = Decimal(string: price)! * Decimal(100 + percent) / 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 2, .plain)
        return String(format: "%.2f", NSDecimalNumber(decimal: rounded).doubleValue)
    }

    /// Every product, as `products list --all -o json` shows it.
    static func catalogue(_ shop: ShellHarness) async throws -> String {
        let (outcome, text) = await shop.run("products list --all -o json")
        #expect(outcome == .success)
        return text
    }

    @Test func aDryRunShowsExactPricesAndChangesNothing() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        let before = try await Self.catalogue(shop)
        let rows = try #require(try await shop.json("products update --category smartphones --price -10% --dry-run -o json") as? [[String: Any]])
        let smartphones = try #require(try await shop.json("products list --category smartphones --all -o json") as? [[String: Any]])
        #expect(rows.count == smartphones.count && rows.count >= 10)
        for row in rows {
            let before = try #require(row["before"] as? String), after = try #require(row["after"] as? String)
            #expect(row["field"] as? String == "price")
            #expect(after == Self.expected(before, percent: -10), "product \(row["id"] ?? "?"): \(before) → \(after)")
        }
        #expect(try await Self.catalogue(shop) == before)
        #expect(shop.stderr.contains("dry run: \(rows.count) changes to \(rows.count) products; nothing was applied"))
    }

    @Test func aBatchNeedsYesAndThenAppliesOneChangeSet() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        let before = try await Self.catalogue(shop)
        let refused = await shop.run("products update --category smartphones --price -10%")
        #expect(refused.outcome != .success && shop.stderr.contains("add --yes"))
        #expect(try await Self.catalogue(shop) == before)

        let rows = try #require(try await shop.json("products update --category smartphones --price +5% --yes -o json") as? [[String: Any]])
        for row in rows {
            let id = try #require(row["id"] as? Int)
            let now = try #require(try await shop.json("products show \(id) -o json") as? [String: Any])
            let price = try #require(now["price"] as? NSNumber)
            #expect(String(format: "%.2f", price.doubleValue) == Self.expected(try #require(row["before"] as? String), percent: 5))
        }
        var audit: [AuditEntry] = []
        try await shop.services.audit.listAudit(AuditFilter(entity: .product), page: Page(limit: rows.count)) { audit.append($0) }
        let sets = Set(audit.map(\.changeSet))
        #expect(sets.count == 1, "\(sets)")
        let changeSet = try #require(sets.first ?? nil)
        var inSet: [AuditEntry] = []
        try await shop.services.audit.listAudit(AuditFilter(changeSet: changeSet), page: Page()) { inSet.append($0) }
        #expect(Set(inSet.map(\.entityID)) == Set(rows.compactMap { ($0["id"] as? Int).map(String.init) }))
        #expect(inSet.count == rows.count && shop.stderr.contains("change set \(changeSet)"))
    }

    @Test func aChangeOneProductCannotTakeChangesNone() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        let before = try await Self.catalogue(shop)
        // Product 1 has 99 in stock: taking 100 from every product of ids 1-5 fails on the first.
        let result = await shop.run("products update --ids 1-5 --stock -100 --yes")
        #expect(result.outcome != .success)
        #expect(shop.stderr.contains("product 1 (BEA-ESS-ESS-001)"), "\(shop.stderr)")
        #expect(shop.stderr.split(separator: "\n").count == 1)
        // A relative price may not reach zero.
        _ = await shop.run("products update --ids 1-5 --price -100% --yes")
        #expect(shop.stderr.contains("stays above 0"))
        #expect(try await Self.catalogue(shop) == before)
    }

    @Test func oneProductTakesRelativeValuesAsBefore() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        let product = try #require(try await shop.json("products update 1 --price *1.1 --discount +1.5 --stock +1 -o json") as? [String: Any])
        #expect((product["price"] as? NSNumber)?.doubleValue == 10.99)              // 9.99 × 1.1 = 10.989
        #expect((product["discount_percentage"] as? NSNumber)?.doubleValue == 11.98)  // 10.48 + 1.5
        #expect(product["stock"] as? Int == 100)
        #expect(await shop.run("products update 1 --category beauty --price 19.99").outcome == .success)
        let moved = try #require(try await shop.json("products show 1 -o json") as? [String: Any])
        #expect(moved["price"] as? NSNumber == 19.99)
    }
}
