// FavoritesTableTests: `favorites list` as a table for people at 40, 80, 120 and 200 columns.

import Favorites
import Testing
import TestSupport

@Suite struct FavoritesTableTests {
    @Test func favoritesListIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [favoritesPlugin],
                                               setup: { services in
                                                   for product in ["1", "113", "78"] { _ = try await services.favorites.addFavorite("emilys", product: product) }
                                               },
                                               command: "favorites list emilys",
                                               uncutFields: ["product_id", "sku", "price", "currency"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
