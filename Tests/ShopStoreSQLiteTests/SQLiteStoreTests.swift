// SQLiteStoreTests: the demo import, the schema and transactions of the SQLite store.

import Foundation
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class SQLiteStoreTests {
    /// Each test's own folder, removed when the test ends.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    func newStore() throws -> SQLiteStore {
        try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
    }

    @Test func demoImportFillsEveryTableOnce() async throws {
        let store = try newStore()
        let summary = try #require(try store.importDemoShop())
        #expect(summary.products == 194)
        #expect(summary.users == 208)
        #expect(summary.baskets == 208)
        #expect(summary.rates == 59)
        #expect(try store.importDemoShop() == nil)   // a second import changes nothing
        #expect(try await store.services.products.countProducts(ProductFilter()) == 194)

        // Duplicate cart lines are merged: 800 lines in the carts, 788 distinct (user, product) pairs.
        let lines = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM basket_lines") }
        #expect(lines == 788)
        let quantity = try store.read { db in try Int.fetchOne(db, sql: "SELECT sum(quantity) FROM basket_lines") }
        #expect(quantity == Self.cartQuantityInShippedData())
        let minorUnits = try store.read { db in try Int.fetchOne(db, sql: "SELECT minor_units FROM currencies WHERE code = 'JPY'") }
        #expect(minorUnits == 0)
    }

    /// `--read-only` is the engine's refusal, not only the shell's: the file is opened read-only,
    /// so a write that reaches the store fails in one line and the file keeps its bytes.
    @Test func aStoreOpenedReadOnlyRefusesWritesItself() async throws {
        let path = folder.appendingPathComponent("shop.sqlite").path
        let store = try newStore()
        _ = try store.importDemoShop()
        store.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        #expect(readOnly.isReadOnly && readOnly.identity.readOnlyReason == "--read-only")
        #expect(try await readOnly.services.baskets.basket("emilys").lines.count == 4)
        await #expect { try await readOnly.services.baskets.addToBasket("emilys", product: "1", quantity: 1) } throws: { error in
            guard case ShopError.storage(let message) = error else { return false }
            return message.contains("read-only")
        }
        await #expect(throws: ShopError.self) { try await readOnly.beginRun() }
        readOnly.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    static func cartQuantityInShippedData() -> Int {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ShopStoreKit/DemoData/carts.json")
        guard let data = try? Data(contentsOf: url),
              let carts = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return -1 }
        return carts.compactMap { $0["totalQuantity"] as? Int }.reduce(0, +)
    }

    @Test func demoPasswordsAreSaltedHashesThatVerify() throws {
        let store = try newStore()
        _ = try store.importDemoShop()
        let hashes = try store.read { db in try String.fetchAll(db, sql: "SELECT password_hash FROM users ORDER BY id LIMIT 2") }
        #expect(hashes.count == 2 && hashes[0] != hashes[1])
        #expect(hashes.allSatisfy { $0.hasPrefix("demo-pbkdf2-sha256$4096$") })   // cheap, and marked as the demo's
        #expect(try PasswordHasher.verify("emilyspass", against: hashes[0]).matches)
        #expect(try !PasswordHasher.verify("emilyspas", against: hashes[0]).matches)
        // Same password, different salt, different hash.
        #expect(try PasswordHasher.hash("x", iterations: 1000) != PasswordHasher.hash("x", iterations: 1000))
    }

    @Test func aFailedImportLeavesNothingBehind() async throws {
        let store = try newStore()
        let products = [NewProduct(sku: "A-1", title: "A", category: "c", price: Money(minorUnits: 100, currency: .usd)),
                        NewProduct(sku: "A-1 bad", title: "B", category: "c", price: Money(minorUnits: 100, currency: .usd))]
        await #expect(throws: ShopError.self) { try await store.services.products.importProducts(products) }
        #expect(try await store.services.products.countProducts(ProductFilter()) == 0)
    }

    @Test func unknownSortFieldsAreRefusedBeforeAnySQLRuns() async throws {
        let store = try newStore()
        await #expect(throws: ShopError.self) {
            try await store.services.products.listProducts(ProductFilter(), page: Page(sort: [SortKey(field: "price; DROP TABLE products")])) { _ in }
        }
    }

    @Test func storeLocationFollowsXDG() {
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"]) == "/x/data/shopsh/shop.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/shopsh/shop.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/shopsh/shop.sqlite")
        let a = StoreLocation.historyPath(forStore: "/s/a.sqlite", environment: ["HOME": "/h"])
        let b = StoreLocation.historyPath(forStore: "/t/a.sqlite", environment: ["HOME": "/h"])
        #expect(a != b && a.hasPrefix("/h/.local/state/shopsh/history-a-"))
    }

    /// A server's history is one file wherever shopsh starts (the prompt saves it from one folder,
    /// `shopsh -c 'history export F'` may read it from another).
    @Test func aServersHistoryDoesNotDependOnTheWorkingDirectory() throws {
        let url = "postgres://ann@db1:5432/shop"
        // Named by the URL itself, never by the URL read as a path below the working directory.
        #expect(StoreLocation.historyPath(forStore: url, environment: ["HOME": "/h"])
                == "/h/.local/state/shopsh/history-shop-" + StoreLocation.stableHash(url))
        #expect(StoreLocation.historyPath(forStore: "rel/a.sqlite", environment: ["HOME": "/h"])
                == "/h/.local/state/shopsh/history-a-" + StoreLocation.stableHash(FileManager.default.currentDirectoryPath + "/rel/a.sqlite"))
    }

    /// A successful check replaces a demo hash with one at the full cost; a failed one changes nothing.
    @Test func aMatchRehashesDemoPasswordsAtTheFullCost() async throws {
        let store = try newStore()
        _ = try store.importDemoShop()
        func storedHash() throws -> String? {
            try store.read { db in try String.fetchOne(db, sql: "SELECT password_hash FROM users WHERE username = 'emilys'") }
        }
        let demoHash = try #require(try storedHash())
        #expect(try await !store.services.users.checkPassword("emilys", "wrong"))
        #expect(try storedHash() == demoHash)
        #expect(try await store.services.users.checkPassword("emilys", "emilyspass"))
        let rehashed = try #require(try storedHash())
        #expect(rehashed.hasPrefix("pbkdf2-sha256$600000$"))
        #expect(try await store.services.users.checkPassword("emilys", "emilyspass"))
        #expect(try storedHash() == rehashed)   // already at the full cost: kept
    }
}
