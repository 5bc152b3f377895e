// RefundedStatusMigrationTests: migration v8 rebuilds the orders table so that its status CHECK
// takes `refunded` (v1's lists the five statuses of its time). A store of v7 with the demo's
// history opens as the current one with every order, its indexes and the triggers on it or
// naming it as they were; sales_days still follows the orders; the CHECK refuses what it did.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class RefundedStatusMigrationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refunded-status-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Indexes and triggers on `orders`, or naming it, with their SQL; and the rows of the tables v7 had.
    static func contents(_ db: Database) throws -> (dependents: [String], orders: [Row], counts: [String: Int], sales: [Row]) {
        let dependents = try String.fetchAll(db, sql: """
            SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
            WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND (tbl_name = 'orders' OR sql LIKE '%orders%') ORDER BY type, name
            """)
        var counts: [String: Int] = [:]
        for table in ["orders", "order_lines", "products", "users", "sales_days"] {
            counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")
        }
        let orders = try Row.fetchAll(db, sql: """
            SELECT id, user_id, customer, status, currency, total_minor, discounted_total_minor, created_at, updated_at, items
            FROM orders ORDER BY id
            """)
        return (dependents, orders, counts, try Row.fetchAll(db, sql: "SELECT * FROM sales_days ORDER BY day, currency, status"))
    }

    static func refusedByCheck(_ db: Database, _ sql: String) throws -> Bool {
        try db.execute(sql: "SAVEPOINT probe")
        defer { try? db.execute(sql: "ROLLBACK TO probe; RELEASE probe") }
        do {
            try db.execute(sql: sql)
            return false
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
            return true
        }
    }

    @Test func aStoreOfV7OpensWithTheRefundedStatusAndEverythingElseAsItWas() async throws {
        let file = folder.appendingPathComponent("v7.sqlite").path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let old = try DatabaseQueue(path: file, configuration: configuration)
        try Schema.migrator.migrate(old, upTo: "v7: orders' units; an index for sales reports")
        try await old.write { db in
            // The demo's history as that shopsh wrote it: no refunds yet (its seeder had none).
            let seeder = SQLiteSeeder(db: db, now: "2026-06-15T12:00:00Z")
            _ = try DemoShopData.load().write(into: NoRefunds(seeder: seeder), history: true)
            try db.execute(sql: Schema.refillSalesDays)
        }
        let before = try await old.read { db in try Self.contents(db) }
        #expect(try await old.write { db in try Self.refusedByCheck(db, "UPDATE orders SET status = 'refunded' WHERE id = 1") })
        try old.close()
        #expect((before.counts["orders"] ?? 0) > 1_000 && before.dependents.count >= 7, "\(before.dependents)")

        let store = try SQLiteStore(path: file)
        let after = try store.read { db in try Self.contents(db) }
        #expect(after.orders == before.orders && after.counts == before.counts && after.sales == before.sales)
        // v8 keeps every index and trigger of orders (v10 adds one of its own, for addresses, and
        // v14 those of the day summaries).
        #expect(after.dependents.filter { !$0.contains("orders_by_ship_country") && !$0.contains("_summary_") } == before.dependents)
        #expect(try store.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Schema.version)
        #expect(try store.write { db in try Self.refusedByCheck(db, "UPDATE orders SET status = 'lost' WHERE id = 1") })

        // A whole refund through the service moves the order, and sales_days with it.
        let delivered = try #require(try store.read { db in try Int64.fetchOne(db, sql: "SELECT min(id) FROM orders WHERE status = 'delivered'") })
        let order = try await store.services.orders.order(delivered)
        _ = try await store.services.orders.refund(delivered, amount: order.discountedTotal, reason: "lost in the post")
        let moved = try store.read { db in
            try Row.fetchOne(db, sql: """
                SELECT (SELECT status FROM orders WHERE id = ?),
                       (SELECT sum(orders) FROM sales_days WHERE status = 'refunded'), (SELECT sum(orders) FROM sales_days)
                """, arguments: [delivered])
        }
        #expect(moved?[0] == "refunded" && moved?[1] == 1 && moved?[2] == before.counts["orders"])
        store.close()
    }
}

/// The demo's seed without its refunds, as a shopsh before them wrote it.
private struct NoRefunds: ShopSeeder {
    let seeder: SQLiteSeeder
    var now: String { seeder.now }
    func addProduct(_ product: NewProduct) throws { try seeder.addProduct(product) }
    func addUser(_ user: SeedUser) throws { try seeder.addUser(user) }
    func addBasketLine(user: Int64, product: Int64, quantity: Int) throws { try seeder.addBasketLine(user: user, product: product, quantity: quantity) }
    func addFavorite(user: Int64, product: Int64) throws -> Bool { try seeder.addFavorite(user: user, product: product) }
    func addOrder(_ order: SeedOrder) throws { try seeder.addOrder(order) }
    func addRefund(_ refund: SeedRefund) throws {}
    func addCurrency(_ currency: CurrencyInfo) throws { try seeder.addCurrency(currency) }
    func addRate(_ rate: CurrencyRate) throws { try seeder.addRate(rate) }
    func setNote(_ key: String, _ value: String) throws { try seeder.setNote(key, value) }
}
