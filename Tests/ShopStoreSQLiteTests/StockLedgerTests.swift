// StockLedgerTests: the SQLite store's stock ledger (Schema v9) — every way stock moves writes one
// row with its reason, order and balance, a change made with sqlite3 too; after the demo and all of
// them, each product's last balance is its stock.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class StockLedgerTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stock-ledger-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func everyMovementIsARowAndTheLastBalanceIsTheStock() async throws {
        let path = folder.appendingPathComponent("shop.sqlite").path
        let store = try SQLiteStore(path: path, create: true)
        defer { store.close() }
        _ = try await store.seed { seeder in try DemoShopData.load().write(into: seeder) }
        let shop = store.services
        let product = try await shop.products.addProduct(NewProduct(sku: "LED-1", title: "Ledger lamp", category: "lighting",
                                                                    price: Money(minorUnits: 1_000, currency: .usd), stock: 20))
        _ = try await shop.users.addUser(NewUser(username: "lena", email: "lena@example.com"))
        _ = try await shop.baskets.addToBasket("lena", product: "LED-1", quantity: 3)
        let order = try await shop.baskets.checkout("lena")
        _ = try await shop.products.adjustStock("LED-1", .remove(2), reason: .damaged, note: "dropped a box")
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "LED-1", quantity: 1, restock: true, reason: "unopened"))
        _ = try await shop.orders.setOrderStatus(order.id, .shipped)
        _ = try await shop.products.updateProduct("LED-1", ProductChanges(stock: 30))
        try store.write { db in try db.execute(sql: "UPDATE products SET stock = stock + 5 WHERE id = ?", arguments: [product.id]) }

        let rows = try await shop.products.stockHistory("LED-1")
        #expect(rows.map(\.reason) == ["opening", "checkout", "damaged", "return", "update", "outside"], "\(rows)")
        #expect(rows.map(\.change) == [20, -3, -2, 1, 14, 5])
        #expect(rows.map(\.balance) == [20, 17, 15, 16, 30, 35])
        #expect(rows.map(\.orderID) == [nil, order.id, nil, order.id, nil, nil])
        #expect(rows[2].note == "dropped a box" && rows.last?.operatorName == "outside shopsh")
        #expect(try await shop.products.product("LED-1").stock == 35)

        // Every product of the demo: its last row's balance is its stock.
        let differing = try store.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM products p
                WHERE p.stock IS NOT (SELECT l.balance FROM stock_ledger l WHERE l.product_id = p.id ORDER BY l.id DESC LIMIT 1)
                """)
        }
        #expect(differing == 0)
    }

    @Test func theBalanceAtTheEndOfADayIsTheLastRowsOrTheStockBeforeTheFirst() {
        func row(_ id: Int64, _ at: String, _ change: Int64, _ balance: Int64) -> StockMovement {
            StockMovement(id: id, productID: 1, at: at, operatorName: "x", change: change, balance: balance, reason: "r", orderID: nil, note: nil)
        }
        let rows = [row(1, "2026-11-02T10:00:00Z", 5, 12), row(2, "2026-11-02T18:00:00Z", -2, 10), row(3, "2026-11-05T09:00:00Z", 4, 14)]
        #expect(rows.balance(atEndOf: "2026-11-01") == 7)
        #expect(rows.balance(atEndOf: "2026-11-02") == 10)
        #expect(rows.balance(atEndOf: "2026-11-04") == 10)
        #expect(rows.balance(atEndOf: "2026-11-30") == 14)
        #expect([StockMovement]().balance(atEndOf: "2026-11-30") == nil)
    }
}
