// RefundSummaryMigrationTests: migration v15 adds the refund summaries (RefundSummarySchema). A
// store of v14 holding the demo's history with its refunds opens with every summary equal to a
// GROUP BY over the refunds and their orders, and the summaries follow a refund given after.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class RefundSummaryMigrationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refund-summary-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Each summary's live rows next to a GROUP BY over the refunds, as two lists of rows' values.
    static func summariesAndRecounts(_ db: Database) throws -> [(summary: [[DatabaseValue]], recount: [[DatabaseValue]])] {
        let recount = "FROM order_refunds r JOIN orders o ON o.id = r.order_id"
        let figures = "count(*), sum(r.quantity), sum(r.amount_minor)"
        func values(_ sql: String) throws -> [[DatabaseValue]] { try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) } }
        return [
            (try values("SELECT day, currency, status, refunds, units, amount FROM refund_days WHERE refunds > 0 ORDER BY 1, 2, 3"),
             try values("SELECT substr(r.created_at, 1, 10), o.currency, o.status, \(figures) \(recount) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")),
            (try values("""
                SELECT day, currency, status, product_id, sku, refunds, units, amount FROM refund_day_products
                WHERE refunds > 0 ORDER BY 1, 2, 3, 4, 5
                """),
             try values("""
                SELECT substr(r.created_at, 1, 10), o.currency, o.status, coalesce(r.product_id, 0), coalesce(r.sku, ''), \(figures)
                \(recount) WHERE r.line_number IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
                """)),
            (try values("""
                SELECT day, currency, status, user_id, customer, refunds, units, amount FROM refund_day_customers
                WHERE refunds > 0 ORDER BY 1, 2, 3, 4, 5
                """),
             try values("""
                SELECT substr(r.created_at, 1, 10), o.currency, o.status, coalesce(o.user_id, 0), o.customer, \(figures)
                \(recount) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
                """)),
        ]
    }

    @Test func aStoreOfV14OpensWithRefundSummariesEqualToItsRefunds() async throws {
        let file = folder.appendingPathComponent("v14.sqlite").path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let old = try DatabaseQueue(path: file, configuration: configuration)
        try Schema.migrator.migrate(old, upTo: "v14: day summaries per product and customer; basket summaries")
        try await old.write { db in
            _ = try DemoShopData.load().write(into: SQLiteSeeder(db: db, now: "2026-06-15T12:00:00Z"), history: true)
        }
        let refunds = try await old.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM order_refunds") } ?? 0
        #expect(try await old.read { db in try db.tableExists("refund_days") } == false)
        try old.close()
        #expect(refunds > 50, "the demo's history has refunds to summarise")

        let store = try SQLiteStore(path: file)
        for (summary, recount) in try store.read({ db in try Self.summariesAndRecounts(db) }) {
            #expect(!summary.isEmpty && summary == recount)
        }
        // A return given after the migration is counted by the triggers v15 made.
        let delivered = try #require(try store.read { db in
            try Int64.fetchOne(db, sql: "SELECT min(id) FROM orders o WHERE status = 'delivered' AND NOT EXISTS (SELECT 1 FROM order_refunds WHERE order_id = o.id)")
        })
        let order = try await store.services.orders.order(delivered)
        let line = try #require(order.lines.first)
        _ = try await store.services.orders.returnUnits(ReturnRequest(orderID: delivered, product: line.sku, quantity: 1, restock: false, reason: "torn"))
        for (summary, recount) in try store.read({ db in try Self.summariesAndRecounts(db) }) {
            #expect(summary == recount)
        }
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT sum(refunds) FROM refund_days") } == refunds + 1)
        store.close()
    }
}
