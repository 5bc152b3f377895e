// ProductsTableTests: `products list` as a table for people at 40, 80, 120 and 200 columns.

import Products
import Testing
import TestSupport

@Suite struct ProductsTableTests {
    @Test func productsListIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [productsPlugin], command: "products list --limit 30",
                                               uncutFields: ["id", "sku", "price", "currency", "stock"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
