// FavoritesTests: the favorites plugin through the shell on a real, temporary demo store.

import Favorites
import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import Testing
import TestSupport

/// The favorites plugin on a new demo shop.
func favoritesShell() async throws -> ShellHarness { try await ShellHarness(plugins: [favoritesPlugin], demo: true) }

extension ShellHarness {
    /// The product ids of a customer's favourites, as `favorites list` shows them.
    func favoriteIDs(_ user: String) async throws -> [Int] {
        let rows = try #require(try await json("favorites list \(user) --all -o json") as? [[String: Any]])
        return rows.compactMap { $0["product_id"] as? Int }
    }
}

@Suite struct FavoritesTests {
    @Test func addingTwiceDoesNotDuplicate() async throws {
        let shop = try await favoritesShell()
        #expect(await shop.run("favorites add emilys 122").0 == .success)
        #expect(shop.stderr.contains("added 122 (iPhone 6) to emilys's favourites"))
        #expect(await shop.run("favorites add EMILY.JOHNSON@x.dummyjson.com SMA-APP-IPH-122").0 == .success)
        #expect(shop.stderr.contains("122 (iPhone 6) is already in emilys's favourites"))
        #expect(try await shop.services.favorites.favorites("1").filter { $0.product.id == 122 }.count == 1)
        #expect(try await shop.favoriteIDs("emilys") == [122])
    }

    @Test func toggleGoesBothWaysAndSaysWhich() async throws {
        let shop = try await favoritesShell()
        let on = await shop.run("favorites toggle emilys 122")
        #expect(on.outcome == .success)
        #expect(on.stdout.isEmpty)
        #expect(shop.stderr.hasSuffix("added 122 (iPhone 6) to emilys's favourites\n"))
        #expect(try await shop.favoriteIDs("emilys") == [122])

        let off = await shop.run("favorites toggle 1 SMA-APP-IPH-122")
        #expect(off.outcome == .success)
        #expect(shop.stderr.hasSuffix("removed 122 (iPhone 6) from emilys's favourites\n"))
        #expect(try await shop.favoriteIDs("emilys").isEmpty)
        #expect(try await shop.services.favoriteTotal() == 0)
    }

    @Test func currentCustomerMayBeLeftOut() async throws {
        let shop = try await favoritesShell()
        #expect(await shop.run("favorites toggle 122").0 == .usageError)   // no USER and no `use`
        #expect(shop.stderr.contains("use USER"))
        #expect(await shop.run("use emilys").0 == .success)
        #expect(await shop.run("favorites toggle 122").0 == .success)
        #expect(await shop.run("favorites add 1").0 == .success)
        let rows = try #require(try await shop.json("favorites list -o json") as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["product_id"] as? Int }) == [1, 122])
        let iphone = try #require(rows.first { $0["product_id"] as? Int == 122 })
        #expect(iphone["sku"] as? String == "SMA-APP-IPH-122")
        #expect(iphone["title"] as? String == "iPhone 6")
        #expect((iphone["price"] as? NSNumber)?.stringValue == "299.99")
        #expect(iphone["currency"] as? String == "USD")
        #expect(iphone["added_at"] is String)
        // With USER given explicitly, another customer's list is shown.
        #expect(await shop.run("favorites add michaelw 2").0 == .success)
        #expect(try await shop.favoriteIDs("michaelw") == [2])
        #expect(await shop.run("favorites remove 122").0 == .success)
        #expect(try await shop.favoriteIDs("emilys") == [1])
    }

    @Test func removeAndUnknownNames() async throws {
        let shop = try await favoritesShell()
        #expect(await shop.run("favorites remove emilys 122").0 == .success)   // not a favourite: says so
        #expect(shop.stderr.contains("122 (iPhone 6) was not in emilys's favourites"))
        #expect(await shop.run("favorites add emilsy 122").0 == .failure)
        #expect(shop.stderr.contains("did you mean emilys"))
        #expect(await shop.run("favorites add emilys NO-SUCH-SKU").0 == .failure)
        #expect(shop.stderr.contains("no product with id or SKU \"NO-SUCH-SKU\""))
        #expect(await shop.run("favorites add emilys 122 123").0 == .usageError)
        #expect(await shop.run("favorites list nobody-here").0 == .failure)
        #expect(try await shop.services.favoriteTotal() == 0)
        let empty = try #require(try await shop.json("favorites list emilys -o json") as? [Any])
        #expect(empty.isEmpty)
    }

    @Test func listSortsAndPages() async throws {
        let shop = try await favoritesShell()
        for product in ["122", "1", "30", "2"] { #expect(await shop.run("favorites add emilys \(product)").0 == .success) }
        let byTitle = try #require(try await shop.json("favorites list emilys --sort title -o json --fields product_id,title") as? [[String: Any]])
        let titles = byTitle.compactMap { $0["title"] as? String }
        #expect(titles.count == 4)
        #expect(titles == titles.sorted { $0.lowercased() < $1.lowercased() })
        #expect(byTitle.first?.keys.sorted() == ["product_id", "title"])
        let page = try #require(try await shop.json("favorites list emilys --sort product_id:desc --limit 2 --offset 1 -o json") as? [[String: Any]])
        #expect(page.compactMap { $0["product_id"] as? Int } == [30, 2])
        #expect(await shop.run("favorites list emilys --sort nonsense").0 == .failure)
        let csv = await shop.run("favorites list emilys --sort product_id -o csv --fields product_id,sku")
        var skus: [String] = []
        for id in [1, 2, 30, 122] { skus.append(try await shop.services.products.product(String(id)).sku) }
        #expect(skus.count == 4)
        let expected = "product_id,sku\r\n" + zip([1, 2, 30, 122], skus).map { "\($0),\($1)\r\n" }.joined()
        #expect(csv.stdout == expected)
    }

    @Test func topCountsFavourites() async throws {
        let shop = try await favoritesShell()
        for user in ["emilys", "michaelw", "sophiab"] { _ = await shop.run("favorites add \(user) 122") }
        for user in ["emilys", "michaelw"] { _ = await shop.run("favorites add \(user) 5") }
        _ = await shop.run("favorites add emilys 1")
        _ = await shop.run("favorites add emilys 122")   // again: still counted once
        let top = try #require(try await shop.json("favorites top -o json") as? [[String: Any]])
        #expect(top.compactMap { $0["product_id"] as? Int } == [122, 5, 1])
        #expect(top.compactMap { $0["favorite_count"] as? Int } == [3, 2, 1])
        #expect(top.first?["title"] as? String == "iPhone 6")
        let first = try #require(try await shop.json("favorites top --limit 1 -o json") as? [[String: Any]])
        #expect(first.count == 1)
        #expect(first.first?["favorite_count"] as? Int == 3)
        let rest = try #require(try await shop.json("favorites top --offset 1 -o json") as? [[String: Any]])
        #expect(rest.compactMap { $0["product_id"] as? Int } == [5, 1])
        // Removing a favourite lowers the count.
        _ = await shop.run("favorites toggle sophiab 122")
        let after = try #require(try await shop.json("favorites top --limit 1 -o json") as? [[String: Any]])
        #expect(after.first?["favorite_count"] as? Int == 2)
    }

    @Test func topOfAnEmptyShopIsEmpty() async throws {
        let shop = try await favoritesShell()
        let (outcome, output) = await shop.run("favorites top -o tsv")
        #expect(outcome == .success)
        #expect(output == "product_id\tsku\ttitle\tcategory\tbrand\tfavorite_count\n")
    }
}
