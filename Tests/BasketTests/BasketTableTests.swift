// BasketTableTests: `basket show` as a table for people at 40, 80, 120 and 200 columns.

import Basket
import Testing
import TestSupport

@Suite struct BasketTableTests {
    @Test func basketShowIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [basketPlugin], setup: { _ = try await $0.baskets.addToBasket("emilys", product: "1", quantity: 2) }, command: "basket show emilys",
                                               uncutFields: ["product_id", "quantity", "unit_price", "discounted_total", "currency"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
