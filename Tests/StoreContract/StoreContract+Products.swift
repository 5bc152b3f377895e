// StoreContract+Products: the catalogue's contract — adding, showing, updating, deleting,
// stock changes, imports, categories, and listings with every filter, sort and page.

import ShopCore
import Testing

extension StoreContract {
    /// The catalogue (`ProductService`).
    public static func products(_ fixture: some StoreFixture) async {
        await run("products", fixture, [
            Case("add assigns ids and keeps every field", addKeepsEveryField),
            Case("an id asked for is used when free", addUsesFreeRequestedID),
            Case("a SKU is made up when none is given", addMakesUpSKU),
            Case("a made-up SKU avoids SKUs already taken", madeUpSKUAvoidsTakenOnes),
            Case("a taken SKU is refused", duplicateSKURefused),
            Case("SKU lookup and uniqueness agree on case", skuCaseIsConsistent),
            Case("bad products are refused", badProductsRefused),
            Case("a price in another currency is refused", foreignPriceRefused),
            Case("out-of-range discount and rating are refused as input", outOfRangeDiscountRefused),
            Case("texts too long or holding control characters are refused alike", badTextsRefused),
            Case("show by id and SKU; unknown is notFound", showByIDAndSKU),
            Case("update changes each field alone", updateEachField),
            Case("bad updates are refused", badUpdatesRefused),
            Case("delete removes the product and its lines, orders keep copies", deleteKeepsOrders),
            Case("stock +N, -N and =N", stockChanges),
            Case("negative stock amounts are refused", negativeStockAmountsRefused),
            Case("import inserts new SKUs and updates known ones", importInsertsAndUpdates),
            Case("an import update without a brand clears it", importClearsBrand),
            Case("import is all or nothing", importAllOrNothing),
            Case("categories with counts", categoriesWithCounts),
            Case("list filters and counts", listFilters),
            Case("search text is words, never a pattern", searchTextIsWordsNeverAPattern),
            Case("search ignores case beyond ASCII", searchIgnoresUnicodeCase),
            Case("sort ascending and descending on every sortable field", sortEveryField),
            Case("limit and offset page through a listing", paging),
        ])
    }

    // MARK: - Adding and showing

    static func addKeepsEveryField(_ shop: ShopServices) async throws {
        let new = NewProduct(sku: "KIT-LADLE", title: "Ladle", description: "A deep ladle", category: "kitchen",
                             brand: "Acme", price: ContractData.usd(1_299), discount: ContractData.percent(1_050), stock: 7,
                             rating: Rating(hundredths: 450), tags: ["steel", "soup"], minimumOrderQuantity: 2)
        let added = try await shop.products.addProduct(new)
        let other = try await ContractData.addProduct(shop, sku: "KIT-PAN")
        #expect(added.id > 0 && other.id > 0 && added.id != other.id)
        let expected = Product(id: added.id, sku: "KIT-LADLE", title: "Ladle", description: "A deep ladle", category: "kitchen",
                               brand: "Acme", price: ContractData.usd(1_299), discount: ContractData.percent(1_050), stock: 7,
                               rating: Rating(hundredths: 450), tags: ["steel", "soup"], minimumOrderQuantity: 2)
        #expect(added == expected)
        #expect(try await shop.products.product(String(added.id)) == expected)
        #expect(try await shop.products.product("KIT-LADLE") == expected)
        #expect(try await shop.products.countProducts(ProductFilter()) == 2)
    }

    static func addUsesFreeRequestedID(_ shop: ShopServices) async throws {
        let first = try await ContractData.addProduct(shop, sku: "A-1", id: 500)
        #expect(first.id == 500)
        let second = try await ContractData.addProduct(shop, sku: "A-2", id: 500)   // taken: the store picks another
        #expect(second.id != 500 && second.id > 0)
        #expect(try await shop.products.product("500").sku == "A-1")
        await #expect(throws: ShopError.self) { try await ContractData.addProduct(shop, sku: "A-3", id: 0) }
        await #expect(throws: ShopError.self) { try await ContractData.addProduct(shop, sku: "A-4", id: ProductLimits.maxID + 1) }
    }

    static func addMakesUpSKU(_ shop: ShopServices) async throws {
        let one = try await ContractData.addProduct(shop, sku: nil)
        let two = try await ContractData.addProduct(shop, sku: nil)
        #expect(!one.sku.isEmpty && !two.sku.isEmpty && one.sku != two.sku)
        #expect(try await shop.products.product(one.sku).id == one.id)
        #expect(try await shop.products.product(two.sku).id == two.id)
    }

    /// A product gets the SKU the store made up for another one, deleted since; a new product
    /// without a SKU, in the same category and with the same id, must still get one.
    static func madeUpSKUAvoidsTakenOnes(_ shop: ShopServices) async throws {
        let first = try await ContractData.addProduct(shop, sku: nil, category: "kitchen")
        _ = try await shop.products.deleteProduct(String(first.id))
        let holder = try await ContractData.addProduct(shop, sku: first.sku, id: first.id + 1_000)
        let again = try await ContractData.addProduct(shop, sku: nil, category: "kitchen", id: first.id)
        #expect(again.sku != holder.sku)
        #expect(try await shop.products.countProducts(ProductFilter()) == 2)
    }

    static func duplicateSKURefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "ABC-1")
        try await expectRefused(.conflict, shop) { try await ContractData.addProduct(shop, sku: "ABC-1", title: "Other") }
    }

    /// A store may or may not find a SKU in another case; if it does, that SKU must count as taken.
    static func skuCaseIsConsistent(_ shop: ShopServices) async throws {
        let added = try await ContractData.addProduct(shop, sku: "Sku-Mixed")
        let foundOtherCase: Bool
        do {
            foundOtherCase = try await shop.products.product("sku-mixed").id == added.id
        } catch let error as ShopError {
            guard case .notFound = error else { throw error }
            foundOtherCase = false
        }
        if foundOtherCase {
            try await expectRefused(.conflict, shop) { try await ContractData.addProduct(shop, sku: "SKU-MIXED") }
        }
    }

    static func badProductsRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "KEEP-1")
        let bad: [NewProduct] = [
            NewProduct(sku: "B-1", title: "", category: "kitchen", price: ContractData.usd(100)),
            NewProduct(sku: "B-2", title: "   ", category: "kitchen", price: ContractData.usd(100)),
            NewProduct(sku: "B-3", title: "T", category: "kitchen", price: ContractData.usd(-1)),
            NewProduct(sku: "B-4", title: "T", category: "kitchen", price: ContractData.usd(ProductLimits.maxPriceMinorUnits + 1)),
            NewProduct(sku: "B-5", title: "T", category: "kitchen", price: ContractData.usd(100), stock: -1),
            NewProduct(sku: "B-6", title: "T", category: "kitchen", price: ContractData.usd(100), stock: ProductLimits.maxStock + 1),
            NewProduct(sku: "12345", title: "T", category: "kitchen", price: ContractData.usd(100)),   // a SKU that reads as an id
            NewProduct(sku: "", title: "T", category: "kitchen", price: ContractData.usd(100)),
            NewProduct(sku: "B-9", title: "T", category: "", price: ContractData.usd(100)),
        ]
        for product in bad {
            try await expectRefused(.invalidInput, shop) { try await shop.products.addProduct(product) }
        }
        // The limits themselves are allowed.
        let top = try await shop.products.addProduct(NewProduct(sku: "TOP", title: "T", category: "kitchen",
                                                                price: ContractData.usd(ProductLimits.maxPriceMinorUnits),
                                                                stock: ProductLimits.maxStock))
        #expect(top.stock == ProductLimits.maxStock && top.price == ContractData.usd(ProductLimits.maxPriceMinorUnits))
    }

    /// ShopCore's text rules, the same on every store (issue 19): a 1 MB title, a NUL, an escape
    /// sequence, a field past its limit — added, updated or imported — are one line in our words,
    /// and nothing changes; the limits themselves, in 4-byte characters, are kept.
    static func badTextsRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "TXT-1")
        func product(title: String = "T", description: String = "", category: String = "kitchen", brand: String? = nil,
                     tags: [String] = []) -> NewProduct {
            NewProduct(sku: "TXT-2", title: title, description: description, category: category, brand: brand,
                       price: ContractData.usd(100), tags: tags)
        }
        let long = { (count: Int) in String(repeating: "\u{1F600}", count: count) }   // 4 bytes of UTF-8 each
        let bad: [(NewProduct, String)] = [
            (product(title: String(repeating: "t", count: 1_000_000)), "at most \(ProductLimits.maxTitleLength)"),
            (product(title: long(ProductLimits.maxTitleLength + 1)), "at most \(ProductLimits.maxTitleLength)"),
            (product(title: "nul\u{0}title"), "NUL"),
            (product(title: "red\u{1B}[31m"), "control character"),
            (product(description: "nul\u{0}"), "NUL"),
            (product(description: long(ProductLimits.maxDescriptionLength + 1)), "at most \(ProductLimits.maxDescriptionLength)"),
            (product(category: String(repeating: "k", count: ProductLimits.maxCategoryLength + 1)), "category"),
            (product(brand: long(ProductLimits.maxBrandLength + 1)), "at most \(ProductLimits.maxBrandLength)"),
            (product(tags: [long(ProductLimits.maxTagLength + 1)]), "at most \(ProductLimits.maxTagLength)"),
            (product(tags: Array(repeating: "x", count: ProductLimits.maxTags + 1)), "at most \(ProductLimits.maxTags)"),
        ]
        for (new, words) in bad {
            for call in [{ _ = try await shop.products.addProduct(new) }, { _ = try await shop.products.importProducts([new]) }] {
                let error = try await expectRefused(.invalidInput, shop) { try await call() }
                let message = error?.message ?? ""
                #expect(message.contains(words) && message.utf8.count < 300 && !message.contains("SQLSTATE")
                        && !message.unicodeScalars.contains { $0.value < 0x20 }, "\(message.prefix(300))")
            }
        }
        try await expectRefused(.invalidInput, shop) { try await shop.products.updateProduct("TXT-1", ProductChanges(title: "a\u{0}b")) }
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("TXT-1", ProductChanges(description: String(repeating: "d", count: 1_000_000)))
        }
        // The limits themselves, in 4-byte characters; a description keeps its lines and tabs.
        let most = product(title: long(ProductLimits.maxTitleLength), description: "line 1\n\tline 2\r\n" + long(ProductLimits.maxDescriptionLength - 17),
                           brand: long(ProductLimits.maxBrandLength), tags: Array(repeating: long(ProductLimits.maxTagLength), count: ProductLimits.maxTags))
        let kept = try await shop.products.addProduct(most)
        #expect(kept.title == most.title && kept.description == most.description && kept.brand == most.brand && kept.tags == most.tags)
    }

    /// Prices are in the shop's base currency (USD); a store must not keep EUR cents as dollars.
    static func foreignPriceRefused(_ shop: ShopServices) async throws {
        for currency in [Currency.eur, Currency(code: "JPY", minorUnitDigits: 0)] {
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.addProduct(NewProduct(sku: "F-\(currency.code)", title: "T", category: "kitchen",
                                                              price: Money(minorUnits: 1_000, currency: currency)))
            }
        }
        let product = try await ContractData.addProduct(shop, sku: "F-1")
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("F-1", ProductChanges(price: Money(minorUnits: 5, currency: .eur)))
        }
        #expect(try await shop.products.product("F-1").price == product.price)
    }

    static func outOfRangeDiscountRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "D-0")
        for hundredths in [-1, 10_001] {
            try await expectRefused(.invalidInput, shop) {
                try await ContractData.addProduct(shop, sku: "D-\(hundredths)", discount: hundredths)
            }
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.updateProduct("D-0", ProductChanges(discount: ContractData.percent(hundredths)))
            }
        }
        for hundredths in [-1, 501] {
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.addProduct(NewProduct(sku: "R-\(hundredths)", title: "T", category: "kitchen",
                                                              price: ContractData.usd(1), rating: Rating(hundredths: hundredths)))
            }
        }
        #expect(try await ContractData.addProduct(shop, sku: "D-ALL", discount: 10_000).discount == ContractData.percent(10_000))
    }

    static func showByIDAndSKU(_ shop: ShopServices) async throws {
        let product = try await ContractData.addProduct(shop, sku: "SHOW-1")
        #expect(try await shop.products.product(String(product.id)) == product)
        #expect(try await shop.products.product("SHOW-1") == product)
        for reference in [String(product.id + 1), "SHOW-2", "", "0", "-1"] {
            await #expect {
                try await shop.products.product(reference)
            } throws: { error in
                guard case ShopError.notFound = error else { return false }
                return true
            }
        }
    }

    // MARK: - Updating and deleting

    static func updateEachField(_ shop: ShopServices) async throws {
        var expected = try await ContractData.addProduct(shop, sku: "UPD-1", title: "Old", brand: "Old brand")
        let steps: [(ProductChanges, (inout Product) -> Void)] = [
            (ProductChanges(sku: "UPD-2"), { $0.sku = "UPD-2" }),
            (ProductChanges(title: "New"), { $0.title = "New" }),
            (ProductChanges(description: "Now with a lid"), { $0.description = "Now with a lid" }),
            (ProductChanges(category: "garden"), { $0.category = "garden" }),
            (ProductChanges(brand: "New brand"), { $0.brand = "New brand" }),
            (ProductChanges(price: ContractData.usd(4_321)), { $0.price = ContractData.usd(4_321) }),
            (ProductChanges(discount: ContractData.percent(1_234)), { $0.discount = ContractData.percent(1_234) }),
            (ProductChanges(stock: 0), { $0.stock = 0 }),
            (ProductChanges(title: "Both", stock: 9), { $0.title = "Both"; $0.stock = 9 }),
        ]
        for (changes, apply) in steps {
            apply(&expected)
            let updated = try await shop.products.updateProduct(String(expected.id), changes)
            #expect(updated == expected, "after \(changes)")
            #expect(try await shop.products.product(String(expected.id)) == expected, "after \(changes)")
        }
        // The old SKU is free again; the product is found by its new one.
        await #expect(throws: ShopError.self) { try await shop.products.product("UPD-1") }
        #expect(try await shop.products.product("UPD-2").id == expected.id)
        // A product keeps its own SKU when "changed" to it.
        #expect(try await shop.products.updateProduct("UPD-2", ProductChanges(sku: "UPD-2")).sku == "UPD-2")
    }

    static func badUpdatesRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "U-1")
        try await ContractData.addProduct(shop, sku: "U-2")
        try await expectRefused(.nothingToDo, shop) { try await shop.products.updateProduct("U-1", ProductChanges()) }
        try await expectRefused(.notFound, shop) { try await shop.products.updateProduct("U-9", ProductChanges(title: "X")) }
        try await expectRefused(.conflict, shop) { try await shop.products.updateProduct("U-1", ProductChanges(sku: "U-2")) }
        try await expectRefused(.invalidInput, shop) { try await shop.products.updateProduct("U-1", ProductChanges(title: "")) }
        try await expectRefused(.invalidInput, shop) { try await shop.products.updateProduct("U-1", ProductChanges(stock: -1)) }
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("U-1", ProductChanges(price: ContractData.usd(-5)))
        }
        // One bad field refuses the whole update.
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("U-1", ProductChanges(title: "Fine", price: ContractData.usd(-5)))
        }
    }

    static func deleteKeepsOrders(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "dora")
        let gone = try await ContractData.addProduct(shop, sku: "DEL-1", title: "Doomed", price: 250, discount: 1_000, stock: 10)
        try await ContractData.addProduct(shop, sku: "DEL-2", stock: 10)
        let order = try await ContractData.placeOrder(shop, "dora", [("DEL-1", 2)])
        _ = try await shop.baskets.addToBasket("dora", product: "DEL-1", quantity: 1)
        _ = try await shop.baskets.addToBasket("dora", product: "DEL-2", quantity: 1)
        _ = try await shop.favorites.addFavorite("dora", product: "DEL-1")

        var expectedDeleted = gone
        expectedDeleted.stock = 8
        #expect(try await shop.products.deleteProduct("DEL-1") == expectedDeleted)
        await #expect(throws: ShopError.self) { try await shop.products.product("DEL-1") }
        await #expect(throws: ShopError.self) { try await shop.products.product(String(gone.id)) }
        #expect(try await shop.baskets.basket("dora").lines.map(\.sku) == ["DEL-2"])
        #expect(try await shop.favorites.favorites("dora").isEmpty)
        #expect(try await shop.favorites.topFavorites(limit: 10).isEmpty)
        let kept = try await shop.orders.order(order.id)
        let line = try #require(kept.lines.first)
        #expect(kept.lines.count == 1)
        #expect(line.sku == "DEL-1" && line.title == "Doomed" && line.unitPrice == ContractData.usd(250)
                && line.discount == ContractData.percent(1_000) && line.quantity == 2)
        #expect(line.productID == nil || line.productID == gone.id)
        #expect(kept.total == order.total && kept.discountedTotal == order.discountedTotal)
        try await expectRefused(.notFound, shop) { try await shop.products.deleteProduct("DEL-1") }
        // The SKU is free again.
        #expect(try await ContractData.addProduct(shop, sku: "DEL-1").sku == "DEL-1")
    }

    // MARK: - Stock

    static func stockChanges(_ shop: ShopServices) async throws {
        let product = try await ContractData.addProduct(shop, sku: "ST-1", stock: 10)
        let reference = String(product.id)
        #expect(try await shop.products.adjustStock(reference, .add(5)).stock == 15)
        #expect(try await shop.products.adjustStock("ST-1", .remove(4)).stock == 11)
        try await expectRefused(.conflict, shop) { try await shop.products.adjustStock("ST-1", .remove(12)) }
        #expect(try await shop.products.adjustStock("ST-1", .remove(11)).stock == 0)
        try await expectRefused(.conflict, shop) { try await shop.products.adjustStock("ST-1", .remove(1)) }
        #expect(try await shop.products.adjustStock("ST-1", .set(7)).stock == 7)
        #expect(try await shop.products.adjustStock("ST-1", .add(0)).stock == 7)
        try await expectRefused(.invalidInput, shop) { try await shop.products.adjustStock("ST-1", .add(ProductLimits.maxStock)) }
        try await expectRefused(.invalidInput, shop) { try await shop.products.adjustStock("ST-1", .set(ProductLimits.maxStock + 1)) }
        try await expectRefused(.notFound, shop) { try await shop.products.adjustStock("ST-9", .add(1)) }
        var expected = product
        expected.stock = 7
        #expect(try await shop.products.product("ST-1") == expected)   // nothing else moved
    }

    /// `StockChange` cases can carry a negative amount; no store may read `-(-3)` as `+3`.
    static func negativeStockAmountsRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "NEG-1", stock: 10)
        for change in [StockChange.add(-3), .remove(-3), .set(-3)] {
            try await expectRefused(.invalidInput, shop) { try await shop.products.adjustStock("NEG-1", change) }
        }
    }

    // MARK: - Import

    static func importInsertsAndUpdates(_ shop: ShopServices) async throws {
        let existing = try await ContractData.addProduct(shop, sku: "IMP-1", title: "Old", price: 100, stock: 1)
        let update = NewProduct(id: existing.id + 77, sku: "IMP-1", title: "Renewed", description: "Better", category: "garden",
                                brand: "Zed", price: ContractData.usd(999), discount: ContractData.percent(500), stock: 40,
                                rating: Rating(hundredths: 321), tags: ["a", "b"], minimumOrderQuantity: 3)
        let fresh = NewProduct(sku: "IMP-2", title: "Fresh", category: "garden", price: ContractData.usd(50), stock: 2)
        let unnamed = NewProduct(title: "No SKU", category: "garden", price: ContractData.usd(60))
        let summary = try await shop.products.importProducts([update, fresh, unnamed])
        #expect(summary == ImportSummary(inserted: 2, updated: 1))
        let expected = Product(id: existing.id, sku: "IMP-1", title: "Renewed", description: "Better", category: "garden",
                               brand: "Zed", price: ContractData.usd(999), discount: ContractData.percent(500), stock: 40,
                               rating: Rating(hundredths: 321), tags: ["a", "b"], minimumOrderQuantity: 3)
        #expect(try await shop.products.product("IMP-1") == expected)   // same id, every field from the record
        #expect(try await shop.products.product("IMP-2").title == "Fresh")
        #expect(try await shop.products.countProducts(ProductFilter()) == 3)
        #expect(try await shop.products.importProducts([]) == ImportSummary(inserted: 0, updated: 0))
    }

    static func importClearsBrand(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "IMP-B", brand: "Acme")
        let record = NewProduct(sku: "IMP-B", title: "Thing", category: "kitchen", brand: nil, price: ContractData.usd(1_000))
        #expect(try await shop.products.importProducts([record]) == ImportSummary(inserted: 0, updated: 1))
        #expect(try await shop.products.product("IMP-B").brand == nil)
    }

    static func importAllOrNothing(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "ALL-1", title: "Kept", stock: 5)
        let good = NewProduct(sku: "ALL-1", title: "Changed", category: "kitchen", price: ContractData.usd(1), stock: 99)
        let new = NewProduct(sku: "ALL-2", title: "New", category: "kitchen", price: ContractData.usd(1))
        let badRecords = [
            NewProduct(sku: "ALL-3", title: "", category: "kitchen", price: ContractData.usd(1)),
            NewProduct(sku: "ALL-3", title: "T", category: "kitchen", price: ContractData.usd(-1)),
            NewProduct(sku: "ALL-3", title: "T", category: "kitchen", price: ContractData.usd(1), stock: -4),
        ]
        for bad in badRecords {
            try await expectRefused(.invalidInput, shop) { try await shop.products.importProducts([good, new, bad]) }
            try await expectRefused(.invalidInput, shop) { try await shop.products.importProducts([bad, good, new]) }
        }
    }

    // MARK: - Categories and listings

    static func categoriesWithCounts(_ shop: ShopServices) async throws {
        #expect(try await shop.products.categories().isEmpty)
        try await ContractData.addProduct(shop, sku: "C-1", category: "kitchen")
        try await ContractData.addProduct(shop, sku: "C-2", category: "kitchen")
        try await ContractData.addProduct(shop, sku: "C-3", category: "audio")
        try await ContractData.addProduct(shop, sku: "C-4", category: "kitchen")
        #expect(try await shop.products.categories() == [Category(slug: "audio", productCount: 1),
                                                        Category(slug: "kitchen", productCount: 3)])
        _ = try await shop.products.updateProduct("C-1", ProductChanges(category: "audio"))
        _ = try await shop.products.deleteProduct("C-3")
        _ = try await shop.products.deleteProduct("C-2")
        #expect(try await shop.products.categories() == [Category(slug: "audio", productCount: 1),
                                                        Category(slug: "kitchen", productCount: 1)])
    }

    /// The catalogue the listing cases filter, sort and page.
    static func addListingCatalogue(_ shop: ShopServices) async throws -> [Product] {
        let rows: [(String, String, String, String?, Int64, Int, Int, String)] = [
            // sku, title, category, brand, price, discount, stock, description
            ("LST-01", "Alpha kettle", "kitchen", "Acme", 1_500, 0, 10, "Boils water"),
            ("LST-02", "Bravo pan", "kitchen", "Brio", 2_500, 500, 0, "Non-stick"),
            ("LST-03", "Charlie speaker", "audio", "Cello", 9_900, 1_000, 3, "Loud and clear"),
            ("LST-04", "Delta headphones", "audio", "Acme", 4_999, 250, 0, "Closed back"),
            ("LST-05", "Echo 50% off mug", "kitchen", "Dune", 500, 5_000, 25, "Half price"),
            ("LST-06", "Foxtrot snake_case mat", "garden", "Ember", 1_500, 0, 1, "Under_score"),
            ("LST-07", "Golf lamp", "garden", "Fable", 20_000, 1_999, 8, "Bright KETTLE-shaped lamp"),
            ("LST-08", "Hotel rug", "garden", "Gala", 3_000, 100, 2, "Woven 100 percent wool"),
        ]
        var added: [Product] = []
        for row in rows {
            added.append(try await shop.products.addProduct(NewProduct(
                sku: row.0, title: row.1, description: row.7, category: row.2, brand: row.3, price: ContractData.usd(row.4),
                discount: ContractData.percent(row.5), stock: row.6, rating: Rating(hundredths: 100 + 37 * added.count))))
        }
        return added
    }

    /// Whether `product` holds the words of `text` as `products search` reads them (no typos):
    /// every word is a word of a searched field, begins one (the last word) or is held in one (3
    /// letters or more); or the text is the product's id or SKU.
    static func holdsWords(_ product: Product, _ text: String) -> Bool {
        func words(_ text: String) -> [String] { text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init) }
        let typed = text.trimmingASCIISpaces.lowercased()
        if typed == String(product.id) || typed == product.sku.lowercased() { return true }
        let fieldWords = [product.title, product.brand ?? "", product.category, product.tags.joined(separator: " "),
                          product.description].flatMap(words)
        let wanted = words(text)
        return !wanted.isEmpty && wanted.enumerated().allSatisfy { index, word in
            fieldWords.contains { $0 == word || (index == wanted.count - 1 && $0.hasPrefix(word))
                || (word.count >= 3 && $0.contains(word)) }
        }
    }

    static func listFilters(_ shop: ShopServices) async throws {
        let all = try await addListingCatalogue(shop)
        let filters: [(ProductFilter, (Product) -> Bool)] = [
            (ProductFilter(), { _ in true }),
            (ProductFilter(category: "audio"), { $0.category == "audio" }),
            (ProductFilter(category: "toys"), { _ in false }),
            (ProductFilter(search: "kettle"), { holdsWords($0, "kettle") }),   // title and description, any case
            (ProductFilter(search: "ACME"), { holdsWords($0, "acme") }),       // brand
            (ProductFilter(search: "lst-03"), { $0.sku == "LST-03" }),         // a SKU, any case
            (ProductFilter(search: "non-stick"), { holdsWords($0, "non-stick") }),
            (ProductFilter(search: "lamp bright"), { $0.sku == "LST-07" }),    // every word, in any field
            (ProductFilter(search: "percent 10"), { $0.sku == "LST-08" }),     // the last word as a prefix
            (ProductFilter(search: "ettl"), { holdsWords($0, "ettl") }),       // held in a word
            (ProductFilter(minPrice: ContractData.usd(2_500)), { $0.price.minorUnits >= 2_500 }),
            (ProductFilter(maxPrice: ContractData.usd(1_500)), { $0.price.minorUnits <= 1_500 }),
            (ProductFilter(minPrice: ContractData.usd(1_500), maxPrice: ContractData.usd(4_999)),
             { (1_500...4_999).contains($0.price.minorUnits) }),
            (ProductFilter(inStockOnly: true), { $0.stock > 0 }),
            (ProductFilter(category: "kitchen", search: "a", maxPrice: ContractData.usd(2_000), inStockOnly: true),
             { $0.category == "kitchen" && holdsWords($0, "a") && $0.price.minorUnits <= 2_000 && $0.stock > 0 }),
        ]
        for (filter, passes) in filters {
            let expected = all.filter(passes).map(\.sku)
            #expect(try await ContractData.list(shop, filter, Page(sort: [SortKey(field: "sku")])).map(\.sku) == expected,
                    "filter \(filter)")
            #expect(try await shop.products.countProducts(filter) == expected.count, "count of \(filter)")
            if let text = filter.search {   // the listing's search finds what `products search` finds
                var others = filter
                others.search = nil
                var searched: [String] = []
                try await shop.products.searchProducts(text, filter: others, page: Page()) { searched.append($0.product.sku) }
                #expect(searched.sorted() == expected, "search \"\(text)\"")
            }
        }
        #expect(!all.filter { holdsWords($0, "kettle") }.isEmpty && !all.filter { holdsWords($0, "ettl") }.isEmpty)
        let tooLong = ProductFilter(search: String(repeating: "x", count: ListingLimits.maxSearchLength + 1))
        try await expectRefused(.invalidInput, shop) { try await ContractData.list(shop, tooLong) }
        await #expect(throws: ShopError.self) { try await shop.products.countProducts(tooLong) }
    }

    /// Search text is words: `%`, `_` and `\\` are never a pattern, on any path.
    static func searchTextIsWordsNeverAPattern(_ shop: ShopServices) async throws {
        _ = try await addListingCatalogue(shop)
        let cases: [(String, [String])] = [
            ("%", []), ("50%", ["LST-05"]), ("_", []), ("e_c", []), ("snake_case", ["LST-06"]), ("under_", ["LST-06"]),
            ("\\", []), ("%%", []), ("a%e", []), ("*", []), ("\"", []), ("kettle OR rug", []), ("NEAR(mat rug)", []),
        ]
        for (text, expected) in cases {
            let filter = ProductFilter(search: text)
            #expect(try await ContractData.list(shop, filter, Page(sort: [SortKey(field: "sku")])).map(\.sku) == expected,
                    "search \"\(text)\"")
            #expect(try await shop.products.countProducts(filter) == expected.count, "count of search \"\(text)\"")
            var ranked: [String] = []
            try await shop.products.searchProducts(text, filter: ProductFilter(), page: Page()) { ranked.append($0.product.sku) }
            #expect(ranked.sorted() == expected, "ranked search \"\(text)\"")
        }
    }

    /// `ProductFilter.search` is documented as case-insensitive, for every letter.
    static func searchIgnoresUnicodeCase(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "UNI-1", title: "Crème brûlée torch")
        try await ContractData.addProduct(shop, sku: "UNI-2", title: "ÉCLAIR tray")
        #expect(try await ContractData.list(shop, ProductFilter(search: "CRÈME")).map(\.sku) == ["UNI-1"])
        #expect(try await ContractData.list(shop, ProductFilter(search: "éclair")).map(\.sku) == ["UNI-2"])
    }

    static func sortEveryField(_ shop: ShopServices) async throws {
        let all = try await addListingCatalogue(shop)
        // Each field's value as something comparable; the catalogue's texts share one case pattern,
        // so every collation orders them alike.
        func key(_ field: String, _ product: Product) -> SortValue {
            switch field {
            case "id": .number(product.id)
            case "sku": .text(product.sku)
            case "title": .text(product.title.lowercased())
            case "category": .text(product.category)
            case "brand": .text(product.brand?.lowercased() ?? "")
            case "price": .number(product.price.minorUnits)
            case "discount_percentage": .number(Int64(product.discount.hundredths))
            case "stock": .number(Int64(product.stock))
            case "rating": .number(Int64(product.rating.hundredths))
            default: .text("")
            }
        }
        for field in ProductSortField.all {
            for descending in [false, true] {
                let listed = try await ContractData.list(shop, ProductFilter(), Page(sort: [SortKey(field: field, descending: descending)]))
                #expect(Set(listed.map(\.id)) == Set(all.map(\.id)) && listed.count == all.count, "sort \(field)")
                let keys = listed.map { key(field, $0) }
                let ordered = zip(keys, keys.dropFirst()).allSatisfy { descending ? $0 >= $1 : $0 <= $1 }
                #expect(ordered, "sort \(field)\(descending ? ":desc" : ""): \(listed.map(\.sku))")
            }
        }
        // Two keys: category, then price descending within it.
        let twoKeys = try await ContractData.list(shop, ProductFilter(),
                                                  Page(sort: [SortKey(field: "category"), SortKey(field: "price", descending: true)]))
        let expected = all.sorted { ($0.category, -$0.price.minorUnits) < ($1.category, -$1.price.minorUnits) }.map(\.sku)
        #expect(twoKeys.map(\.sku) == expected)
        try await expectRefused(.invalidInput, shop) {
            try await ContractData.list(shop, ProductFilter(), Page(sort: [SortKey(field: "password")]))
        }
    }

    static func paging(_ shop: ShopServices) async throws {
        _ = try await addListingCatalogue(shop)
        let sort = [SortKey(field: "sku", descending: true)]
        let whole = try await ContractData.list(shop, ProductFilter(), Page(sort: sort)).map(\.sku)
        #expect(whole.count == 8)
        var pages: [String] = []
        for offset in stride(from: 0, to: 9, by: 3) {
            let page = try await ContractData.list(shop, ProductFilter(), Page(sort: sort, limit: 3, offset: offset)).map(\.sku)
            #expect(page == Array(whole.dropFirst(offset).prefix(3)), "offset \(offset)")
            pages += page
        }
        #expect(pages == whole)
        #expect(try await ContractData.list(shop, ProductFilter(), Page(sort: sort, limit: 0)).isEmpty)
        #expect(try await ContractData.list(shop, ProductFilter(), Page(sort: sort, offset: 6)).map(\.sku) == Array(whole.dropFirst(6)))
        #expect(try await ContractData.list(shop, ProductFilter(), Page(sort: sort, limit: 5, offset: 100)).isEmpty)
        // Paging applies after the filter.
        let inStock = try await ContractData.list(shop, ProductFilter(inStockOnly: true), Page(sort: sort)).map(\.sku)
        #expect(try await ContractData.list(shop, ProductFilter(inStockOnly: true), Page(sort: sort, limit: 2, offset: 1)).map(\.sku)
                == Array(inStock.dropFirst(1).prefix(2)))
    }

    /// A listed field's value, for checking an order without caring about its type.
    enum SortValue: Comparable {
        case number(Int64)
        case text(String)
    }
}
