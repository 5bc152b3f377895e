// BasketTableTests: `basket show` and `basket list` as tables for people at 40, 80, 120 and 200 columns.

import Basket
import Testing
import TestSupport

@Suite struct BasketTableTests {
    @Test func basketShowIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [basketPlugin], setup: { _ = try await $0.baskets.addToBasket("emilys", product: "1", quantity: 2) }, command: "basket show emilys",
                                               uncutFields: ["product_id", "quantity", "unit_price", "discounted_total", "currency"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Issue 32: at 80 columns `basket list` cut its last change to `2026-11-26T21:…`. Now the
    /// last change shows to the minute, whole, at 80 columns and more; json keeps the full time.
    @Test func basketListShowsTheLastChangeToTheMinute() async throws {
        let problems = try await tableProblems(plugins: [basketPlugin], command: "basket list --limit 5",
                                               uncutFields: ["user_id", "customer", "total", "discounted_total"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        for width in [80, 120] {
            let shell = try await ShellHarness(plugins: [basketPlugin], demo: true, terminalWidth: width)
            let (_, table) = await shell.run("basket list --limit 5")
            let rows = try #require(try await shell.json("basket list --limit 5 -o json") as? [[String: Any]])
            for row in rows {
                let full = try #require(row["last_change"] as? String)
                #expect(full.count == 20 && full.hasSuffix("Z"), "\(full)")
                let short = String(full.prefix(10)) + " " + String(full.dropFirst(11).prefix(5))
                #expect(table.contains(short) && !table.contains(full), "\(width): \(short) in\n\(table)")
            }
        }
    }
}
