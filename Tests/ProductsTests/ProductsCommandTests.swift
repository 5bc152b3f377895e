// ProductsCommandTests: the products plugin's commands run through the shell on a real,
// temporary SQLite store, with output read back from a memory sink.

import Foundation
import Products
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import Testing
import TestSupport

/// The products plugin on a new empty store.
func productsShell() async throws -> ShellHarness { try await ShellHarness(plugins: [productsPlugin]) }

extension ShellHarness {
    func stock(_ reference: String) async throws -> Int {
        try await services.products.product(reference).stock
    }
}

@Suite struct ProductsCommandTests {
    @Test func addShowUpdateDelete() async throws {
        let shop = try await productsShell()
        #expect(await shop.run("products add --title Mug --price 12.5 --category kitchen --sku K-MUG --stock 3").0 == .success)
        let shown = try #require(try await shop.json("products show K-MUG -o json") as? [String: Any])
        #expect((shown["price"] as? NSNumber)?.stringValue == "12.5")
        #expect(await shop.run("products show K-MUG -o json --fields price").stdout == "{\"price\":12.50}\n")

        #expect(await shop.run("products update K-MUG --price 9.95 --title 'Big Mug'").0 == .success)
        let product = try await shop.services.products.product("K-MUG")
        #expect(product.price == Money(minorUnits: 995, currency: .usd))
        #expect(product.title == "Big Mug")

        #expect(await shop.run("products update K-MUG").0 == .usageError)
        #expect(await shop.run("products delete K-MUG").0 == .success)
        #expect(await shop.run("products show K-MUG").0 == .failure)
        #expect(shop.stderr.contains("no product with id or SKU \"K-MUG\""))
    }

    @Test func badInputIsRefusedAndChangesNothing() async throws {
        let shop = try await productsShell()
        #expect(await shop.run("products add --title Mug --price 1 --category kitchen --sku K-1").0 == .success)
        for line in ["products add --title Cup --price 1,5 --category kitchen",
                     "products add --title Cup --price 1.999 --category kitchen",
                     "products add --title Cup --price 2 --category 'Kitchen Stuff'",
                     "products add --title Cup --price 2 --category kitchen --sku K-1",
                     "products add --title Cup --price 2 --category kitchen --discount 120",
                     "products add --title Cup --price 1000000000.01 --category kitchen",
                     "products update K-1 --price -3"] {
            let (outcome, output) = await shop.run(line)
            #expect(outcome != .success, "\(line) was accepted")
            #expect(output.isEmpty)
        }
        #expect(try await shop.services.products.countProducts(ProductFilter()) == 1)
        #expect(try await shop.services.products.product("K-1").price.minorUnits == 100)
    }

    @Test func stockNeverGoesBelowZero() async throws {
        let shop = try await productsShell()
        _ = await shop.run("products add --title Mug --price 1 --category kitchen --sku K-1 --stock 5")
        #expect(await shop.run("products stock K-1 +10").0 == .success)
        #expect(try await shop.stock("K-1") == 15)
        #expect(await shop.run("products stock K-1 -15").0 == .success)
        #expect(try await shop.stock("K-1") == 0)
        #expect(await shop.run("products stock K-1 -1").0 == .failure)
        #expect(shop.stderr.contains("only 0 in stock"))
        #expect(try await shop.stock("K-1") == 0)
        #expect(await shop.run("products stock K-1 =7").0 == .success)
        #expect(try await shop.stock("K-1") == 7)
        #expect(await shop.run("products stock K-1 7").0 == .failure)
        #expect(try await shop.stock("K-1") == 7)
    }

    @Test func importIsAllOrNothing() async throws {
        let shop = try await productsShell()
        let good = shop.folder.appendingPathComponent("good.json")
        try #"[{"title":"A","category":"c","price":1.10,"sku":"A-1"},{"title":"B","category":"c","price":2,"sku":"B-1"}]"#
            .write(to: good, atomically: true, encoding: .utf8)
        #expect(await shop.run("products import \(good.path)").0 == .success)
        #expect(try await shop.services.products.countProducts(ProductFilter()) == 2)

        let bad = shop.folder.appendingPathComponent("bad.csv")
        try "sku,title,category,price\r\nA-1,A renamed,c,1.20\r\nC-1,C,c,abc\r\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(await shop.run("products import \(bad.path)").0 == .failure)
        #expect(shop.stderr.contains("record 2 (line 3)"))
        #expect(try await shop.services.products.product("A-1").title == "A")   // not half-imported

        let update = shop.folder.appendingPathComponent("update.csv")
        try "sku,title,category,price\r\nA-1,A renamed,c,1.20\r\n".write(to: update, atomically: true, encoding: .utf8)
        #expect(await shop.run("products import \(update.path)").0 == .success)
        #expect(try await shop.services.products.product("A-1").title == "A renamed")
        #expect(try await shop.services.products.countProducts(ProductFilter()) == 2)
    }

    @Test func importRefusesFilesThatUsedToImportNothingOrHalfRight() async throws {
        let shop = try await productsShell()
        let headerless = shop.folder.appendingPathComponent("headerless.csv")
        try "A-1,A,c,1.10\r\nB-1,B,c,2\r\n".write(to: headerless, atomically: true, encoding: .utf8)
        #expect(await shop.run("products import \(headerless.path)").0 == .failure)
        #expect(shop.stderr.contains("line 1 is not a products header"))

        let twice = shop.folder.appendingPathComponent("twice.csv")
        try "\u{FEFF}sku,title,category,price\r\nA-1,A,c,1.10\r\na-1,A again,c,1.20\r\n".write(to: twice, atomically: true, encoding: .utf8)
        #expect(await shop.run("products import \(twice.path)").0 == .failure)
        #expect(shop.stderr.contains(#"SKU "a-1" is in the file twice: record 1 (line 2) and record 2 (line 3)"#))
        #expect(try await shop.services.products.countProducts(ProductFilter()) == 0)
    }

    @Test func filtersCombine() async throws {
        let shop = try await productsShell()
        for (sku, price, stock, category) in [("P-1", "5", 0, "a"), ("P-2", "15", 2, "a"), ("P-3", "25", 2, "b"), ("P-4", "35", 2, "a")] {
            _ = await shop.run("products add --title 'Item \(sku)' --price \(price) --category \(category) --sku \(sku) --stock \(stock)")
        }
        let rows = try #require(try await shop.json("products list --category a --min-price 5 --max-price 30 --in-stock -o json") as? [[String: Any]])
        #expect(rows.compactMap { $0["sku"] as? String } == ["P-2"])
        let found = try #require(try await shop.json("products search 'item p-3' -o json") as? [[String: Any]])
        #expect(found.compactMap { $0["sku"] as? String } == ["P-3"])
        let none = try await shop.json("products search '100%' -o json") as? [Any]
        #expect(none?.isEmpty == true)   // % is literal, not a wildcard
    }
}
