// StoreContract+Completions: the completion source's contract (CompletionSource.swift) — values
// that start with the prefix, at most `limit`, in ascending order. Skipped for a store without one.

import ShopCore
import Testing

extension StoreContract {
    /// Live values for Tab completion (`CompletionSource`); nothing to check when a store has none.
    public static func completions(_ fixture: some StoreFixture) async {
        await run("completions", fixture, [
            Case("users by username or email prefix", completeUsers),
            Case("product ids by decimal prefix", completeProductIDs),
            Case("SKUs and categories by prefix", completeSKUsAndCategories),
            Case("products by the words of their titles", completeProductTitles),
            Case("order ids by decimal prefix", completeOrderIDs),
            Case("currency codes by prefix", start: .currencyList, completeCurrencyCodes),
        ])
    }

    static func completeUsers(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        for (name, email) in [("anna", "zed@example.com"), ("andy", "andy@example.com"), ("bob", "an.bob@example.com"),
                              ("carl", "carl@example.com"), ("anton", "anton@example.com")] {
            _ = try await shop.users.addUser(NewUser(username: name, email: email))
        }
        let all = try await source.users(prefix: "an", limit: 10)
        #expect(all.map(\.username) == ["andy", "anna", "anton", "bob"])   // bob by email; each once; by username
        #expect(try await source.users(prefix: "AN", limit: 10).map(\.username) == ["andy", "anna", "anton", "bob"])
        let anna = try await shop.users.user("anna")
        #expect(all.contains(UserMatch(id: anna.id, username: "anna", email: "zed@example.com")))
        let limited = try await source.users(prefix: "an", limit: 1)
        #expect(!limited.isEmpty && limited.count <= 2, "at most one of each kind: \(limited)")
        #expect(limited.allSatisfy { $0.username.hasPrefix("an") || $0.email.hasPrefix("an") })
        #expect(limited.map(\.username) == limited.map(\.username).sorted())
        #expect(try await source.users(prefix: "zed", limit: 5).map(\.username) == ["anna"])
        #expect(try await source.users(prefix: "q", limit: 5).isEmpty)
        #expect(try await source.users(prefix: "an", limit: 0).isEmpty)
    }

    static func completeProductTitles(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        try await addSearchable(shop, 5, "iPhone 13 Pro", description: "a samsung rival")
        try await addSearchable(shop, 3, "Samsung Galaxy S8")
        try await addSearchable(shop, 9, "iPhone 6", brand: "Apple")
        func titles(_ prefix: String, limit: Int = 10) async throws -> [Int64] {
            try await source.productTitles(prefix: prefix, limit: limit).map(\.id)
        }
        #expect(try await source.productTitles(prefix: "IPH", limit: 10).map(\.title) == ["iPhone 13 Pro", "iPhone 6"])
        #expect(try await titles("iphone 1") == [5])      // every word, the last as the start of a word
        #expect(try await titles("samsung") == [3])       // in the title only, not the description
        #expect(try await titles("apple").isEmpty)        // nor the brand
        #expect(try await titles("iph", limit: 1).count == 1)
        #expect(try await titles("iph", limit: 0).isEmpty)
        _ = try await shop.products.updateProduct("9", ProductChanges(title: "Pixel 6"))
        #expect(try await titles("iph") == [5])           // the index follows the change
        #expect(try await titles("pix") == [9])
    }

    static func completeProductIDs(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        for id: Int64 in [1, 2, 10, 11, 12, 100, 123, 200] {
            try await ContractData.addProduct(shop, sku: "ID-\(id)", title: "Title \(id)", id: id)
        }
        #expect(try await source.productIDs(prefix: "1", limit: 10).map(\.id) == [1, 10, 11, 12, 100, 123])
        #expect(try await source.productIDs(prefix: "1", limit: 3).map(\.id) == [1, 10, 11])
        #expect(try await source.productIDs(prefix: "12", limit: 10).map { "\($0.id) \($0.title)" } == ["12 Title 12", "123 Title 123"])
        #expect(try await source.productIDs(prefix: "", limit: 3).map(\.id) == [1, 2, 10])
        for prefix in ["0", "01", "x", "3", "-1", "1a"] {
            #expect(try await source.productIDs(prefix: prefix, limit: 10).isEmpty, "prefix \(prefix)")
        }
        #expect(try await source.productIDs(prefix: "1", limit: 0).isEmpty)
    }

    static func completeSKUsAndCategories(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        for (sku, category) in [("ABD-1", "audio"), ("ABC-2", "kitchen"), ("ABC-1", "kitchen"), ("X-1", "kids"),
                                ("ABC-10", "garden")] {
            try await ContractData.addProduct(shop, sku: sku, category: category)
        }
        #expect(try await source.skus(prefix: "AB", limit: 10) == ["ABC-1", "ABC-10", "ABC-2", "ABD-1"])
        #expect(try await source.skus(prefix: "ABC", limit: 2) == ["ABC-1", "ABC-10"])
        #expect(try await source.skus(prefix: "Z", limit: 10).isEmpty)
        #expect(try await source.skus(prefix: "", limit: 10).count == 5)
        #expect(try await source.categories(prefix: "k", limit: 10) == ["kids", "kitchen"])   // each once
        #expect(try await source.categories(prefix: "", limit: 10) == ["audio", "garden", "kids", "kitchen"])
        #expect(try await source.categories(prefix: "", limit: 2) == ["audio", "garden"])
        #expect(try await source.categories(prefix: "toys", limit: 10).isEmpty)
    }

    static func completeOrderIDs(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        #expect(try await source.orderIDs(prefix: "", limit: 10).isEmpty)
        try await ContractData.addUser(shop, "olive")
        try await ContractData.addProduct(shop, sku: "OI-1", stock: 100)
        var ids: [Int64] = []
        for _ in 0..<12 { ids.append(try await ContractData.placeOrder(shop, "olive", [("OI-1", 1)]).id) }
        let all = try await source.orderIDs(prefix: "", limit: 100)
        #expect(Set(all) == Set(ids) && all.count == ids.count)
        #expect(all == all.sorted())
        let prefix = String(String(ids[0]).prefix(1))
        let matching = try await source.orderIDs(prefix: prefix, limit: 100)
        #expect(Set(matching) == Set(ids.filter { String($0).hasPrefix(prefix) }))
        #expect(try await source.orderIDs(prefix: prefix, limit: 2).count == min(2, matching.count))
        #expect(try await source.orderIDs(prefix: "0", limit: 10).isEmpty)
    }

    static func completeCurrencyCodes(_ shop: ShopServices) async throws {
        guard let source = shop.completions else { return }
        #expect(try await source.currencyCodes(prefix: "", limit: 100) == ContractData.currencyList.map(\.code).sorted())
        #expect(try await source.currencyCodes(prefix: "", limit: 2) == ["EUR", "GBP"])
        #expect(try await source.currencyCodes(prefix: "K", limit: 10) == ["KWD"])
        #expect(try await source.currencyCodes(prefix: "j", limit: 10) == ["JPY"])
        #expect(try await source.currencyCodes(prefix: "Q", limit: 10).isEmpty)
    }
}
