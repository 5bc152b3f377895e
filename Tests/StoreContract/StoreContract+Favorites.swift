// StoreContract+Favorites: the favourites' contract — add is idempotent, remove and toggle
// say what they did, a user's list, and the most favourited products with their counts.

import ShopCore
import Testing

extension StoreContract {
    /// Favourites (`FavoritesService`).
    public static func favorites(_ fixture: some StoreFixture) async {
        await run("favorites", fixture, [
            Case("add is idempotent, remove and toggle say what they did", addRemoveToggle),
            Case("a user's list shows the products now", favoritesList),
            Case("a user's list sorts and pages in the store", favoritesSortedAndPaged),
            Case("top counts favourites per product", topFavorites),
            Case("unknown users and products are notFound", favoriteUnknowns),
        ])
    }

    static func addRemoveToggle(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "xena")
        try await ContractData.addProduct(shop, sku: "F-1")
        #expect(try await shop.favorites.addFavorite("xena", product: "F-1"))
        #expect(try await shop.favorites.addFavorite("xena", product: "F-1") == false)
        #expect(try await shop.favorites.favorites("xena").count == 1)   // no duplicate
        #expect(try await shop.favorites.removeFavorite("xena", product: "F-1"))
        #expect(try await shop.favorites.removeFavorite("xena", product: "F-1") == false)
        #expect(try await shop.favorites.favorites("xena").isEmpty)
        #expect(try await shop.favorites.toggleFavorite("xena", product: "F-1"))
        #expect(try await shop.favorites.favorites("xena").count == 1)
        #expect(try await shop.favorites.toggleFavorite("xena", product: "F-1") == false)
        #expect(try await shop.favorites.favorites("xena").isEmpty)
    }

    static func favoritesList(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "yan")
        try await ContractData.addUser(shop, "zoe")
        for sku in ["L-1", "L-2", "L-3"] { try await ContractData.addProduct(shop, sku: sku) }
        for sku in ["L-2", "L-1"] { _ = try await shop.favorites.addFavorite("yan", product: sku) }
        _ = try await shop.favorites.addFavorite("zoe", product: "L-3")
        let listed = try await shop.favorites.favorites("yan")
        #expect(Set(listed.map(\.product.sku)) == ["L-1", "L-2"] && listed.count == 2)
        #expect(listed.allSatisfy { ContractData.isTimestamp($0.addedAt) }, "\(listed.map(\.addedAt))")
        // Oldest first, as added.
        #expect(zip(listed, listed.dropFirst()).allSatisfy { $0.addedAt <= $1.addedAt })
        let changed = try await shop.products.updateProduct("L-1", ProductChanges(title: "Renamed", price: ContractData.usd(1)))
        #expect(try await shop.favorites.favorites("yan").first { $0.product.id == changed.id }?.product == changed)
        #expect(try await shop.favorites.favorites("zoe").map(\.product.sku) == ["L-3"])
    }

    static func favoritesSortedAndPaged(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "yan")
        for (sku, cents) in [("S-1", 300), ("S-2", 100), ("S-3", 200)] {
            try await ContractData.addProduct(shop, sku: sku, price: Int64(cents))
            _ = try await shop.favorites.addFavorite("yan", product: sku)
        }
        func skus(_ page: Page) async throws -> [String] {
            var listed: [String] = []
            try await shop.favorites.listFavorites("yan", page: page) { listed.append($0.product.sku) }
            return listed
        }
        #expect(try await skus(Page(sort: [SortKey(field: "price")])) == ["S-2", "S-3", "S-1"])
        #expect(try await skus(Page(sort: [SortKey(field: "price", descending: true)], limit: 2)) == ["S-1", "S-3"])
        #expect(try await skus(Page(sort: [SortKey(field: "price")], limit: 5, offset: 1)) == ["S-3", "S-1"])
        for field in FavoriteSortField.all {
            #expect(try await skus(Page(sort: [SortKey(field: field, descending: true)])).count == 3, "\(field)")
        }
        try await expectRefused(.invalidInput, shop) {
            try await shop.favorites.listFavorites("yan", page: Page(sort: [SortKey(field: "nope")])) { _ in }
        }
    }

    static func topFavorites(_ shop: ShopServices) async throws {
        #expect(try await shop.favorites.topFavorites(limit: 10).isEmpty)
        for name in ["u1", "u2", "u3"] { try await ContractData.addUser(shop, name) }
        for sku in ["T-A", "T-B", "T-C", "T-D"] { try await ContractData.addProduct(shop, sku: sku) }
        for (user, sku) in [("u1", "T-B"), ("u2", "T-B"), ("u3", "T-B"), ("u1", "T-C"), ("u2", "T-C"), ("u3", "T-A")] {
            _ = try await shop.favorites.addFavorite(user, product: sku)
        }
        _ = try await shop.favorites.addFavorite("u1", product: "T-B")   // again: still one
        let top = try await shop.favorites.topFavorites(limit: 10)
        #expect(top.map { "\($0.product.sku)×\($0.count)" } == ["T-B×3", "T-C×2", "T-A×1"])
        #expect(try await shop.favorites.topFavorites(limit: 2).map(\.product.sku) == ["T-B", "T-C"])
        #expect(try await shop.favorites.topFavorites(limit: 0).isEmpty)
        _ = try await shop.favorites.toggleFavorite("u2", product: "T-B")
        _ = try await shop.favorites.toggleFavorite("u2", product: "T-C")
        // Ties may come in any order.
        let tied = try await shop.favorites.topFavorites(limit: 10).map { "\($0.product.sku)×\($0.count)" }
        #expect(tied == ["T-B×2", "T-A×1", "T-C×1"] || tied == ["T-B×2", "T-C×1", "T-A×1"], "\(tied)")
    }

    static func favoriteUnknowns(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ada")
        try await ContractData.addProduct(shop, sku: "U-1")
        _ = try await shop.favorites.addFavorite("ada", product: "U-1")
        try await expectRefused(.notFound, shop) { try await shop.favorites.favorites("nobody") }
        try await expectRefused(.notFound, shop) { try await shop.favorites.addFavorite("nobody", product: "U-1") }
        try await expectRefused(.notFound, shop) { try await shop.favorites.addFavorite("ada", product: "U-9") }
        try await expectRefused(.notFound, shop) { try await shop.favorites.removeFavorite("ada", product: "U-9") }
        try await expectRefused(.notFound, shop) { try await shop.favorites.toggleFavorite("nobody", product: "U-1") }
    }
}
