// ProductIDBoundMigrationTests: migration v4 rebuilds the products table with the id bound
// (ProductLimits.idRange, as the PostgreSQL schema has it). A store of the version before opens as
// the current one with every row, index and foreign key as it was; a new store has the bound too;
// a store holding an id outside it is refused in one line and left as it was.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class ProductIDBoundMigrationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("id-bound-tests-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The migration before the id bound.
    static let previous = Schema.migrationNames[Schema.migrationNames.firstIndex(of: "v4: product id bound")! - 1]
    /// Its schema version (3).
    static let previousVersion = Schema.migrationNames.firstIndex(of: "v4: product id bound")!

    /// A store as the shopsh before v4 left it: migrated up to v3, with the demo shop, an order
    /// whose line names product 113, and favourites (written as that shopsh's seeder writes them).
    func previousVersionStore(_ name: String, extra: String = "") throws -> String {
        let file = path(name)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: file, configuration: configuration)
        try Schema.migrator.migrate(queue, upTo: Self.previous)
        let demo = try DemoShopData.load()
        try queue.write { db in
            _ = try demo.write(into: SQLiteSeeder(db: db, now: "2026-01-02T03:04:05Z"), history: false)
            try db.execute(sql: """
                INSERT INTO orders (id, user_id, customer, currency, total_minor, discounted_total_minor)
                    VALUES (7, 1, 'emilys', 'USD', 2997, 2997);
                INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor, discount_hundredths, quantity)
                    VALUES (7, 1, 113, 'MOT-GEN-GEN-113', 'Generic Motorcycle', 999, 0, 3);
                INSERT INTO favorites (user_id, product_id) VALUES (1, 113), (2, 113), (2, 1);
                \(extra)
                """)
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Self.previousVersion)
        try queue.close()
        return file
    }

    /// The tables later migrations add.
    static let laterTables: Set<String> = ["sales_days", "order_refunds", "stock_ledger", "stock_context", "addresses", "order_addresses", "shipments",
                                           "shipment_lines", "notes", "coupons", "basket_coupons", "coupon_uses", "reviews"]

    /// Every table's row count, the products table's rows in full, and the SQL of every index and
    /// trigger on products.
    static func contents(_ db: Database) throws -> (counts: [String: Int], products: [Row], dependents: [String]) {
        var counts: [String: Int] = [:]
        // The tables v3 had (later migrations add their own, such as sales_days).
        for table in Schema.tableNames where try db.tableExists(table) && !Self.laterTables.contains(table) {
            counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")
        }
        // v3's columns (v12 adds barcode and details).
        let products = try Row.fetchAll(db, sql: """
            SELECT id, sku, title, description, category, brand, price_minor, discount_hundredths, stock, rating_hundredths,
                   tags, minimum_order_quantity, created_at, updated_at
            FROM products ORDER BY id
            """)
        let dependents = try String.fetchAll(db, sql: """
            SELECT type || ' ' || name || ': ' || sql FROM sqlite_master
            WHERE tbl_name = 'products' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name
            """)
        return (counts, products, dependents)
    }

    /// Whether SQLite refuses `sql` with a CHECK constraint (in a transaction rolled back either way).
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

    static func insertWithID(_ id: String) -> String {
        "INSERT INTO products (id, sku, title, category, price_minor) VALUES (\(id), 'PROBE-\(id)', 'Probe', 'probes', 100)"
    }

    @Test func aStoreOfThePreviousVersionOpensWithTheBoundAndAllItsData() async throws {
        let file = try previousVersionStore("v3.sqlite")
        let old = try DatabaseQueue(path: file)
        let before = try await old.read { db in try Self.contents(db) }
        // Before: nothing stops id 0.
        #expect(try await old.write { db in try Self.refusedByCheck(db, Self.insertWithID("0")) } == false)
        try old.close()
        #expect(before.counts["products"] == 194 && before.counts["order_lines"] == 1 && before.counts["favorites"] == 3)
        #expect(before.dependents.count == 3)   // products_by_category, products_by_price, products_by_title

        let store = try SQLiteStore(path: file)
        let after = try store.read { db in try Self.contents(db) }
        // Every row kept; v13 adds one to shop_meta: from when the audit log answers `--as-of`;
        // v14 counts the one order line and its order into the day summaries, and each non-empty
        // basket into the basket summaries; v15 adds the (empty) refund summaries; v16 counts the
        // order line into the category summary.
        var expected = before.counts
        expected["shop_meta", default: 0] += 1
        expected["sales_day_products"] = 1
        expected["sales_day_customers"] = 1
        expected["sales_day_categories"] = 1
        // v15's and v17's refund summaries: empty, as a v3 store had no refunds.
        for table in ["refund_days", "refund_day_products", "refund_day_customers", "refund_day_categories"] { expected[table] = 0 }
        expected["basket_summaries"] = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(DISTINCT user_id) FROM basket_lines") }
        #expect(after.counts == expected)
        #expect(try store.read { db in try String.fetchOne(db, sql: "SELECT value FROM shop_meta WHERE key = 'history_since'") } != nil)
        #expect(after.products == before.products)
        // Later migrations add their own (v5: the search index's triggers; v9: the stock ledger's,
        // which opens it with one row per product; v14: the basket summaries'; v16, v17: the category
        // summaries'); v4 keeps v3's.
        #expect(after.dependents.filter { !$0.contains("products_search") && !$0.contains("products_stock_ledger")
                                          && !$0.contains("products_by_barcode") && !$0.contains("basket_summary")
                                          && !$0.contains("category_summary") } == before.dependents)
        // v12: no barcodes, no details and no reviews for the store's products (the README says why).
        #expect(try store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM products WHERE barcode IS NULL AND details = '{}'")
        } == 194)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM reviews") } == 0)
        let opening = try store.read { db in try Row.fetchAll(db, sql: "SELECT product_id, change, balance, reason FROM stock_ledger ORDER BY id") }
        #expect(opening.map { $0[0] as Int64 } == before.products.map { $0["id"] as Int64 })
        #expect(opening.map { $0[3] as String } == Array(repeating: "opening", count: 194))
        #expect(opening.map { $0[1] as Int64 } == before.products.map { $0["stock"] as Int64 })
        #expect(opening.map { $0[2] as Int64 } == before.products.map { $0["stock"] as Int64 })
        let marks = try store.read { db in try Row.fetchOne(db, sql: "SELECT * FROM pragma_user_version(), pragma_foreign_keys()") }
        #expect(marks?[0] == Schema.version && marks?[1] == 1)
        #expect(try store.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        let table = try store.read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'products'") }
        #expect(table?.contains("CHECK (id BETWEEN 1 AND \(ProductLimits.maxID))") == true, "\(table ?? "")")

        // The bound holds below, above and at its ends, whoever writes.
        for id in ["0", "-1", String(ProductLimits.maxID + 1)] {
            #expect(try store.write { db in try Self.refusedByCheck(db, Self.insertWithID(id)) }, "id \(id)")
        }
        #expect(try store.write { db in try Self.refusedByCheck(db, "UPDATE products SET id = 0 WHERE id = 1") })
        for id in ["1000", String(ProductLimits.maxID)] {
            #expect(try store.write { db in try Self.refusedByCheck(db, Self.insertWithID(id)) } == false, "id \(id)")
        }

        // One product's fields, read through the service, as the old table held them.
        let row = try #require(before.products.first { $0["id"] == 113 as Int64 })
        let product = try await store.services.products.product("113")
        #expect(product.sku == row["sku"] && product.title == row["title"] && product.description == row["description"]
                && product.category == row["category"] && product.brand == row["brand"] && product.price.minorUnits == row["price_minor"]
                && product.discount.hundredths == row["discount_hundredths"] && product.stock == row["stock"]
                && product.rating.hundredths == row["rating_hundredths"] && product.minimumOrderQuantity == row["minimum_order_quantity"])
        #expect(product.sku == "MOT-GEN-GEN-113" && product.title == "Generic Motorcycle")

        // The child tables' foreign keys point at the new table: deleting 113 takes its basket
        // lines and favourites, and its order line keeps the copy without the product.
        _ = try await store.services.products.deleteProduct("113")
        let left = try store.read { db in
            try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM basket_lines WHERE product_id = 113), (SELECT count(*) FROM favorites WHERE product_id = 113),
                       (SELECT count(*) FROM order_lines WHERE order_id = 7 AND product_id IS NULL)
                """)
        }
        #expect(left?[0] == 0 && left?[1] == 0 && left?[2] == 1)
        store.close()
    }

    @Test func aNewStoreHasTheBound() throws {
        let store = try SQLiteStore(path: path("new.sqlite"), create: true)
        #expect(try store.write { db in try Self.refusedByCheck(db, Self.insertWithID("0")) })
        let migrations = try store.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == Schema.migrationNames)
    }

    @Test func anIDOutsideTheBoundIsNamedAndTheStoreLeftAsItWas() throws {
        let file = try previousVersionStore("outside.sqlite", extra: """
            INSERT INTO products (id, sku, title, category, price_minor) VALUES (0, 'ZERO', 'Zero', 'probes', 100);
            """)
        let error = #expect(throws: ShopError.self) { try SQLiteStore(path: file) }
        #expect(error?.message.contains("ids outside 1…\(ProductLimits.maxID) (0)") == true, "\(String(describing: error))")
        let queue = try DatabaseQueue(path: file)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Self.previousVersion)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM products") } == 195)
        try queue.close()
    }
}
