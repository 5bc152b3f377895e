// StoreContract+Search: product search's contract — every word must match (the last as a
// prefix), title above brand and category above description, an id or SKU first, typos when the
// words as typed find nothing, the index kept in step with every change, paging and sorting of
// the ranked results.

import ShopCore
import Testing

extension StoreContract {
    /// Product search (`ProductService.searchProducts`).
    public static func search(_ fixture: some StoreFixture) async {
        await run("search", fixture, [
            Case("title above brand and category above description; ties by id", rankingOrder),
            Case("every word must match, the last as a prefix", everyWordAndPrefix),
            Case("words holding the typed word match below it", wordsHoldingTheWord),
            Case("an id or SKU typed exactly comes first", exactReferenceFirst),
            Case("typos within the budget when the words as typed find nothing", typos),
            Case("the index follows add, update, delete and import", indexFollowsChanges),
            Case("the listing's filters apply; paging and --sort cut the ranking", pagingAndSorting),
            Case("suggestions name the closest words, none for words under 3 letters", suggestions),
            Case("a page of the ranking is that page of the whole ranking", pagesOfTheRanking),
        ])
    }

    /// The ids a search finds, in order.
    static func found(_ shop: ShopServices, _ text: String, filter: ProductFilter = ProductFilter(),
                      page: Page = Page()) async throws -> [Int64] {
        var ids: [Int64] = []
        try await shop.products.searchProducts(text, filter: filter, page: page) { ids.append($0.product.id) }
        return ids
    }

    static func addSearchable(_ shop: ShopServices, _ id: Int64, _ title: String, brand: String? = nil,
                              category: String = "misc", description: String = "", tags: [String] = []) async throws {
        _ = try await shop.products.addProduct(NewProduct(id: id, sku: "S-\(id)", title: title, description: description,
                                                          category: category, brand: brand, price: ContractData.usd(1_000),
                                                          tags: tags))
    }

    static func rankingOrder(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Plain Box", description: "a lamp for the desk")
        try await addSearchable(shop, 2, "Desk Thing", brand: "Lamp")
        try await addSearchable(shop, 3, "Bright Lamp")
        try await addSearchable(shop, 4, "Other Thing", category: "lamp")
        try await addSearchable(shop, 5, "Reading Lamp")
        #expect(try await found(shop, "lamp") == [3, 5, 2, 4, 1])
    }

    static func everyWordAndPrefix(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Red Lipstick")
        try await addSearchable(shop, 2, "Red Nail Polish")
        try await addSearchable(shop, 3, "Lip Balm")
        #expect(try await found(shop, "red lip") == [1])
        #expect(try await found(shop, "red") == [1, 2])
        #expect(try await found(shop, "LIP") == [3, 1])   // the word itself above a word it begins
        #expect(try await found(shop, "lip red") == [1])   // in any order; "lip" also in "lipstick", below itself
        #expect(try await found(shop, "blue").isEmpty)
    }

    static func wordsHoldingTheWord(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Wireless Earphones")
        try await addSearchable(shop, 2, "Phone Stand")
        try await addSearchable(shop, 3, "Charger", category: "smartphones")
        #expect(try await found(shop, "phone") == [2, 1, 3])
    }

    static func exactReferenceFirst(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 7, "Widget 12")
        try await addSearchable(shop, 12, "Gadget")
        #expect(try await found(shop, "12") == [12, 7])
        #expect(try await found(shop, "s-7") == [7])
    }

    static func typos(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Essence Mascara Lash Princess")
        try await addSearchable(shop, 2, "Apple iPhone Charger")
        try await addSearchable(shop, 3, "Samsung Galaxy S8")
        try await addSearchable(shop, 4, "Mascot Figure")
        #expect(try await found(shop, "mascra") == [1])
        #expect(try await found(shop, "iphnoe") == [2])         // a transposition is one typo
        #expect(try await found(shop, "samsng galaxy") == [3])
        #expect(try await found(shop, "sansung galxy") == [3])   // one typo in each word of 5 or more letters
        #expect(try await found(shop, "ipone chrger") == [2])
        #expect(try await found(shop, "lxxh").isEmpty)           // two typos in a word of 4 letters: too many
        #expect(try await found(shop, "mascot") == [4])          // a word as typed never turns into a typo of another
    }

    static func indexFollowsChanges(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Copper Kettle")
        #expect(try await found(shop, "kettle") == [1])
        _ = try await shop.products.updateProduct("1", ProductChanges(title: "Copper Teapot"))
        #expect(try await found(shop, "kettle").isEmpty)
        #expect(try await found(shop, "teapot") == [1])
        _ = try await shop.products.updateProduct("1", ProductChanges(brand: "Brewmaster"))
        #expect(try await found(shop, "brewmaster") == [1])
        _ = try await shop.products.deleteProduct("1")
        #expect(try await found(shop, "teapot").isEmpty)
        _ = try await shop.products.importProducts([
            NewProduct(sku: "IMP-1", title: "Imported Teapot", category: "kitchen", price: ContractData.usd(500)),
        ])
        let imported = try await shop.products.product("IMP-1")
        #expect(try await found(shop, "teapot") == [imported.id])
        _ = try await shop.products.importProducts([
            NewProduct(sku: "IMP-1", title: "Imported Saucepan", category: "kitchen", price: ContractData.usd(500)),
        ])
        #expect(try await found(shop, "teapot").isEmpty)
        #expect(try await found(shop, "saucepan") == [imported.id])
        // The words typos and words held are read from follow every change too.
        #expect(try await found(shop, "sacuepan") == [imported.id])   // a typo of an imported update's word
        #expect(try await found(shop, "aucepa") == [imported.id])     // held in it
        _ = try await shop.products.updateProduct("IMP-1", ProductChanges(description: "Hammered aluminium"))
        #expect(try await found(shop, "aluminum") == [imported.id])
        try await addSearchable(shop, 2, "Gravy Boat")
        #expect(try await found(shop, "gravvy") == [2])
    }

    static func pagingAndSorting(_ shop: ShopServices) async throws {
        for id in Int64(1)...12 {
            try await addSearchable(shop, id, id % 3 == 0 ? "Blue Cup" : "Cup", category: id % 2 == 0 ? "even" : "odd")
        }
        #expect(try await found(shop, "cup") == Array(1...12))   // "cup" is the title's word in all: ties by id
        #expect(try await found(shop, "blue cup") == [3, 6, 9, 12])
        #expect(try await found(shop, "blue cup", page: Page(limit: 2, offset: 1)) == [6, 9])
        #expect(try await found(shop, "cup", filter: ProductFilter(category: "even"), page: Page(limit: 3)) == [2, 4, 6])
        #expect(try await found(shop, "blue cup", page: Page(sort: [SortKey(field: "id", descending: true)])) == [12, 9, 6, 3])
        await #expect(throws: ShopError.self) { _ = try await found(shop, "cup", page: Page(sort: [SortKey(field: "colour")])) }
    }

    static func suggestions(_ shop: ShopServices) async throws {
        try await addSearchable(shop, 1, "Wooden Spoon")
        #expect(try await found(shop, "spxxn").isEmpty)
        #expect(try await shop.products.searchSuggestions("spxxn") == ["spoon"])
        #expect(try await shop.products.searchSuggestions("qqqqqqqq").isEmpty)
        try await addSearchable(shop, 2, "Red Cup")
        #expect(try await shop.products.searchSuggestions("rx").isEmpty)      // two letters: too short to guess
        #expect(try await shop.products.searchSuggestions("rex") == ["red"])  // three: one edit
        #expect(try await shop.products.searchSuggestions("spxxn rx") == ["spoon"])
    }

    static func pagesOfTheRanking(_ shop: ShopServices) async throws {
        // Exact title matches (the best there are, tied by id) between weaker ones, with a
        // product whose id is the text: a page may come from the exact matches alone.
        let titles = ["Oak Lamp", "Lamps Set", "Oak Table", "Lamp", "Desk Lamp", "Lampshade", "Oak Lamp Stand", "Lamp Oil"]
        for (index, title) in titles.enumerated() {
            try await addSearchable(shop, Int64(index + 1), title, description: index == 2 ? "a lamp" : "")
        }
        try await addSearchable(shop, 40, "Brass Lamp", category: "lamp")
        for text in ["lamp", "oak lamp", "lamp oak", "lam", "4", "oak", "lmap", "oka lamp", "lampsha", "amp"] {
            let whole = try await found(shop, text)
            for (offset, limit) in [(0, 1), (0, 2), (1, 2), (2, 3), (0, 20), (5, 5)] {
                let page = try await found(shop, text, page: Page(limit: limit, offset: offset))
                #expect(page == Array(whole.dropFirst(offset).prefix(limit)), "\"\(text)\" offset \(offset) limit \(limit): \(page) in \(whole)")
            }
        }
        #expect(try await found(shop, "lamp", page: Page(limit: 2)) == [1, 4])   // "Oak Lamp" and "Lamp": the word itself, lowest ids
        // Sorted by a field, a search lists every match with the score the ranking gives it, even
        // from a listing that leaves the long fields out.
        for text in ["lamp", "oak", "amp", "4"] {
            var ranked: [Int64: Int] = [:], sorted: [Int64: Int] = [:]
            try await shop.products.searchProducts(text, filter: ProductFilter(), page: Page()) { ranked[$0.product.id] = $0.score }
            try await shop.products.searchProducts(text, filter: ProductFilter(withLongFields: false),
                                                   page: Page(sort: [SortKey(field: "title")])) { sorted[$0.product.id] = $0.score }
            #expect(sorted == ranked, "\"\(text)\" sorted by title")
        }
    }
}
