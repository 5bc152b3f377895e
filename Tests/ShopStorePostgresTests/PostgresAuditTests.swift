// PostgresAuditTests: the PostgreSQL audit log against the SQLite one — the same writes on the
// demo shop record the same rows (entity, id, action, before, after) on both stores — and no row
// from a rolled-back command, a failed --atomic run or a --dry-run; listing, filters and paging.

import Foundation
import ShopCore
import ShopStoreKit
import ShopStoreSQLite
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresAuditTests {
    /// The demo shop on a new schema.
    func demoStore() async throws -> PostgresStore {
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: try await PostgresTestServer.makeSchema())
        let demo = try DemoShopData.load()
        _ = try await store.seed { seeder in try demo.write(into: seeder) }
        return store
    }

    /// Every write kind, on `services`, as an operator would run them.
    func writeEverything(_ services: ShopServices) async throws {
        let baskets = services.baskets, products = services.products, users = services.users
        _ = try await baskets.addToBasket("emilys", product: "113", quantity: 2)      // 3 → 5
        _ = try await baskets.addToBasket("emilys", product: "1", quantity: 2)        // none → 2
        _ = try await baskets.setBasketQuantity("emilys", product: "122", quantity: 1)
        _ = try await baskets.setBasketQuantity("emilys", product: "138", quantity: 0)
        try await baskets.removeFromBasket("emilys", product: "162")
        _ = try await baskets.clearBasket("michaelw")
        _ = try await baskets.addToBasket("sophiab", product: "2", quantity: 1)
        _ = try await baskets.clearBasket("sophiab")
        let order = try await baskets.checkout("emilys")
        _ = try await services.orders.setOrderStatus(order.id, .paid)
        _ = try await services.orders.setOrderStatus(order.id, .cancelled)
        _ = try await services.favorites.addFavorite("emilys", product: "5")
        _ = try await services.favorites.addFavorite("emilys", product: "5")          // no change, no row
        _ = try await services.favorites.removeFavorite("emilys", product: "5")
        _ = try await services.favorites.toggleFavorite("emilys", product: "6")
        _ = try await services.favorites.toggleFavorite("emilys", product: "6")
        let added = try await users.addUser(NewUser(username: "audited", email: "audited@example.com", phone: "+1 555 0100"))
        _ = try await users.updateUser("audited", UserChanges(email: "new@example.com", phone: ""))
        _ = try await users.setUserStatus("audited", .disabled)
        _ = try await users.setUserStatus("audited", .disabled)                         // no change, no row
        try await users.setPassword("audited", "a-Good-pa55word")
        _ = try await users.deleteUser(String(added.id))
        let product = try await products.addProduct(NewProduct(sku: "AUD-1", title: "Audited", category: "tests",
                                                               price: Money(minorUnits: 1_000, currency: .usd), tags: ["a", "b"]))
        _ = try await products.updateProduct("AUD-1", ProductChanges(title: "Audited 2", price: Money(minorUnits: 1_250, currency: .usd)))
        _ = try await products.adjustStock("AUD-1", .set(7))
        _ = try await products.importProducts([
            NewProduct(sku: "AUD-1", title: "Audited 3", category: "tests", price: Money(minorUnits: 1_250, currency: .usd), stock: 7),
            NewProduct(sku: "AUD-2", title: "New", category: "tests", price: Money(minorUnits: 500, currency: .usd)),
        ])
        _ = try await products.deleteProduct(String(product.id))
        _ = try await services.currencies.storeRates([
            CurrencyRate(date: "2030-01-02", currency: "USD", rate: ExactDecimal(units: 11_000, scale: 4)),
            CurrencyRate(date: "2030-01-02", currency: "JPY", rate: ExactDecimal(units: 1_600_000, scale: 4)),
        ])
    }

    /// The log as `entity id action | before | after`, oldest first.
    func changes(_ audit: any AuditService) async throws -> [String] {
        var lines: [String] = []
        try await audit.listAudit(AuditFilter(), page: Page(sort: [SortKey(field: "id")])) { entry in
            lines.append("\(entry.entity) \(entry.entityID) \(entry.action) | \(entry.before?.jsonText ?? "-") | \(entry.after?.jsonText ?? "-")")
        }
        return lines
    }

    @Test func everyWriteRecordsWhatTheSQLiteStoreRecords() async throws {
        // Both stores write on a clock well after their seed: a line added now comes after the
        // demo's lines in the basket (and so in the order), whatever second the seed took.
        let later = try #require(ShopClock.fixed("2030-06-01T12:00:00Z"))
        let schema = try await PostgresTestServer.makeSchema()
        let seeded = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema)
        let demo = try DemoShopData.load()
        _ = try await seeded.seed { seeder in try demo.write(into: seeder) }
        seeded.close()
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema, clock: later)
        defer { store.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shop.sqlite").path
        _ = try SQLiteStore.create(at: path) { store throws(ShopError) in _ = try store.importDemoShop() }
        let sqlite = try SQLiteStore(path: path, clock: later)
        defer { sqlite.close() }

        let context = AuditContext(command: "a batch", operatorIdentity: store.identity)
        try await AuditContext.$current.withValue(context) { try await writeEverything(store.services) }
        try await AuditContext.$current.withValue(context) { try await writeEverything(sqlite.services) }
        let postgres = try await changes(store.services.audit)
        let fromSQLite = try await changes(sqlite.services.audit)
        #expect(postgres == fromSQLite, "\(fromSQLite.filter { !postgres.contains($0) })")
        #expect(postgres.count == 34, "\(postgres.joined(separator: "\n"))")
        #expect(postgres.first == #"basket 1 add | {"product":113,"quantity":3} | {"product":113,"quantity":5}"#)
        #expect(postgres.dropFirst().first == #"basket 1 add | - | {"product":1,"quantity":2}"#)

        var all: [AuditEntry] = []
        try await store.services.audit.listAudit(AuditFilter(), page: Page()) { all.append($0) }
        #expect(all.map(\.id) == all.map(\.id).sorted(by: >), "newest first")
        #expect(all.allSatisfy { $0.command == "a batch" && $0.operatorName == store.identity.name && $0.role == "admin" })
        #expect(all.allSatisfy { $0.time.hasSuffix("Z") && $0.time.count == 20 })
    }

    @Test func listingFiltersPagesAndShows() async throws {
        let store = try await demoStore()
        defer { store.close() }
        try await writeEverything(store.services)
        let audit = store.services.audit
        var baskets: [AuditEntry] = []
        try await audit.listAudit(AuditFilter(entity: .basket, entityID: "1"), page: Page(limit: 2, offset: 1)) { baskets.append($0) }
        #expect(baskets.count == 2 && baskets.allSatisfy { $0.entity == "basket" && $0.entityID == "1" })
        var byOperator: [AuditEntry] = []
        try await audit.listAudit(AuditFilter(operatorName: "nobody"), page: Page()) { byOperator.append($0) }
        #expect(byOperator.isEmpty)
        var today: [AuditEntry] = []
        // The last hour up to a minute ahead: the writes above, whatever the time of day.
        let now = ShopClock.system.now()
        try await audit.listAudit(AuditFilter(since: ShopClock.timestamp(now - 3600), until: ShopClock.timestamp(now + 60)),
                                  page: Page()) { today.append($0) }
        #expect(today.count == 34)
        var later: [AuditEntry] = []
        try await audit.listAudit(AuditFilter(since: "2999-01-01T00:00:00Z"), page: Page()) { later.append($0) }
        #expect(later.isEmpty)
        let first = try #require(baskets.first)
        #expect(try await audit.auditEntry(first.id) == first)
        await #expect(throws: AuditListing.notFound(999_999)) { _ = try await audit.auditEntry(999_999) }
        #expect(try await audit.auditOperators() == [store.identity.name])
        await #expect(throws: ShopError.self) {
            try await audit.listAudit(AuditFilter(), page: Page(sort: [SortKey(field: "nope")])) { _ in }
        }
    }

    @Test func rolledBackCommandsFailedAtomicRunsAndDryRunsLeaveNoRows() async throws {
        let store = try await demoStore()
        defer { store.close() }
        // The set-up's own change is audited too (it is a change outside any shopsh command).
        try await store.execute("UPDATE products SET stock = 0 WHERE id = 113")
        let setUp = try await store.textColumn("SELECT count(*)::text FROM audit_log WHERE entity = 'product' AND entity_id = '113'")
        #expect(setUp == ["1"])
        try await store.execute("DELETE FROM audit_log")
        let count = { try await store.textColumn("SELECT count(*)::text FROM audit_log").first ?? "" }
        // A checkout refused for stock: the stock taken, the order, the audit row — none stays.
        await #expect(throws: ShopError.self) { _ = try await store.services.baskets.checkout("emilys") }
        #expect(try await count() == "0")

        // --atomic that fails: its earlier commands' rows go with them.
        let atomic = try await store.beginRun()
        _ = try await atomic.services.baskets.setBasketQuantity("emilys", product: "122", quantity: 1)
        await #expect(throws: ShopError.self) { _ = try await atomic.services.baskets.addToBasket("emilys", product: "99999", quantity: 1) }
        try await atomic.end(commit: false)
        #expect(try await count() == "0")

        // --dry-run: every command succeeds, then everything is rolled back.
        let dryRun = try await store.beginRun()
        _ = try await dryRun.services.baskets.setBasketQuantity("emilys", product: "122", quantity: 1)
        _ = try await dryRun.services.products.adjustStock("1", .add(1))
        var seen: [AuditEntry] = []
        try await dryRun.services.audit.listAudit(AuditFilter(), page: Page()) { seen.append($0) }
        #expect(seen.count == 2, "the run sees its own rows")
        try await dryRun.end(commit: false)
        #expect(try await count() == "0")

        // A run that commits keeps them; a command that failed inside it left none.
        let committed = try await store.beginRun()
        _ = try await committed.services.baskets.setBasketQuantity("emilys", product: "122", quantity: 1)
        await #expect(throws: ShopError.self) { _ = try await committed.services.baskets.checkout("emilys") }
        try await committed.end(commit: true)
        #expect(try await count() == "1")
    }

    /// An UPDATE at psql that leaves rows as they were but for `updated_at` (or sets a column to its
    /// own value) records nothing; one that changes some rows records exactly those (migration 22
    /// leaves the unchanged ones out before the per-row audit function).
    @Test func anUpdateAtPsqlRecordsOnlyTheRowsItChanged() async throws {
        let url = try PostgresTestServer.connectionURL()
        let schema = try await PostgresTestServer.makeSchema()
        let store = try await PostgresStore.open(url, searchPath: schema)
        let demo = try DemoShopData.load()
        _ = try await store.seed { seeder in try demo.write(into: seeder, history: true) }
        let server = try #require(PostgresTestServer.url)
        let psql = { (sql: String) in try CommandLineClient.psql(server, schema: schema, sql) }
        let count = { try Int(psql("SELECT count(*) FROM audit_log")) ?? -1 }
        let before = try count()
        _ = try psql("UPDATE orders SET updated_at = updated_at + interval '1 second'")
        _ = try psql("UPDATE products SET title = title, updated_at = now()")
        #expect(try count() == before, "nothing changed but the times: no audit rows")
        let placed = try psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM (SELECT id FROM orders WHERE status = 'placed' ORDER BY id LIMIT 3) o")
        #expect(placed.split(separator: ",").count == 3)
        _ = try psql("UPDATE orders SET status = 'paid', updated_at = now() WHERE id IN (\(placed))")
        let rows = try psql("SELECT entity || ' ' || entity_id || ' ' || (before ->> 'status') || '>' || (after ->> 'status') FROM audit_log ORDER BY id OFFSET \(before)")
        #expect(rows.split(separator: "\n").map(String.init) == placed.split(separator: ",").map { "order \($0) placed>paid" })
        store.close()
    }
}
