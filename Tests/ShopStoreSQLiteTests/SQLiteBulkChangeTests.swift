// SQLiteBulkChangeTests: the SQLite store's set-based bulk change (SQLiteProductService.applyAtOnce)
// where the store contract cannot reach: a value stored in another form than shopsh writes (at
// sqlite3) passes the check against the plan and is changed, hostile text goes through the plans'
// rows and the audit's rows as it is, and a change of more products than one UPDATE takes is
// checked and changed in every statement.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class SQLiteBulkChangeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-change-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    func store() throws -> SQLiteStore {
        try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
    }

    func addLamps(_ shop: ShopServices) async throws -> [Product] {
        var lamps: [Product] = []
        for number in 1...3 {
            lamps.append(try await shop.products.addProduct(NewProduct(sku: "LAMP-\(number)", title: "Lamp \(number)", category: "lighting",
                                                                       price: Money(minorUnits: 1_000, currency: .usd), stock: 4)))
        }
        return lamps
    }

    func auditRows(_ shop: ShopServices, changeSet: Int64?) async throws -> [AuditEntry] {
        var rows: [AuditEntry] = []
        try await shop.audit.listAudit(AuditFilter(changeSet: changeSet), page: Page(sort: [SortKey(field: "id")])) { rows.append($0) }
        return rows
    }

    @Test func detailsStoredInAnotherFormPassTheCheckAndAreChanged() async throws {
        let store = try store()
        defer { store.close() }
        let shop = store.services
        let lamps = try await addLamps(shop)
        // Spaces shopsh never writes: the same details, another text.
        try store.write { db in try db.execute(sql: #"UPDATE products SET details = '{ "warranty" : "1 year" }'"#) }
        var products: [Product] = []
        for lamp in lamps { products.append(try await shop.products.product(lamp.sku)) }
        #expect(products.allSatisfy { $0.details.warranty == "1 year" })
        let plans = try ProductChangePlan.plan(ProductEdit(details: ProductDetailEdit(shipping: .set("Ships in 2 days"))), over: products)
        #expect(plans.count == 3)
        let changeSet = try await shop.products.applyProductChanges(plans)
        for lamp in lamps {
            let details = try await shop.products.product(lamp.sku).details
            #expect(details.warranty == "1 year" && details.shipping == "Ships in 2 days")
        }
        let stored = try store.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT details FROM products") }
        #expect(stored == [ProductDetails(warranty: "1 year", shipping: "Ships in 2 days").storedJSON])
        let rows = try await auditRows(shop, changeSet: changeSet)
        #expect(rows.map(\.entityID) == lamps.map { String($0.id) })
        #expect(rows.allSatisfy { $0.after?.fieldNames == ["details"] })
    }

    @Test func aProductChangedAtSQLiteSinceThePlanStopsTheWholeChange() async throws {
        let store = try store()
        defer { store.close() }
        let shop = store.services
        let lamps = try await addLamps(shop)
        let plans = try ProductChangePlan.plan(ProductEdit(price: .percent(hundredths: 1_000)), over: lamps)
        try store.write { db in try db.execute(sql: "UPDATE products SET price_minor = 1200 WHERE sku = 'LAMP-3'") }
        await #expect {
            try await shop.products.applyProductChanges(plans)
        } throws: { error in
            let message = (error as? ShopError)?.message ?? ""
            return message.contains("LAMP-3") && message.contains("12.00") && message.contains("10.00")
        }
        let prices = try store.read { db in try Int64.fetchAll(db, sql: "SELECT price_minor FROM products ORDER BY id") }
        #expect(prices == [1_000, 1_000, 1_200])
        #expect(try await auditRows(shop, changeSet: nil).allSatisfy { $0.action == "add" })
    }

    @Test func hostileTextGoesThroughThePlansAndTheAuditAsItIs() async throws {
        let store = try store()
        defer { store.close() }
        let shop = store.services
        let lamps = try await addLamps(shop)
        let title = "evil \"q\" \\ \u{2028} caf\u{E9} \u{1F600} '); DROP TABLE products; --"
        let description = "line one\nline \"two\"\t\\\r"
        let changeSet = try await shop.products.applyProductChanges(
            try ProductChangePlan.plan(ProductEdit(title: title, description: description), over: lamps))
        for lamp in lamps {
            let product = try await shop.products.product(lamp.sku)
            #expect(product.title == title && product.description == description)
        }
        let rows = try await auditRows(shop, changeSet: changeSet)
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.after?["title"] == .text(title) && $0.after?["description"] == .text(description) })
        #expect(rows.map { $0.before?["title"] } == lamps.map { .text($0.title) })
    }

    @Test func aChangeOfMoreProductsThanOneStatementTakesChecksAndChangesThemAll() async throws {
        let store = try store()
        defer { store.close() }
        let shop = store.services
        let count = SQLiteProductService.rowsPerUpdate * 2 + 5
        var products: [Product] = []
        for number in 1...count {
            products.append(try await shop.products.addProduct(NewProduct(sku: "BOX-\(number)", title: "Box \(number)", category: "boxes",
                                                                          price: Money(minorUnits: 1_000, currency: .usd))))
        }
        // The third statement's product holds its details in another form: skipped by the first
        // UPDATE, checked, then changed.
        let odd = products[count - 2]
        try store.write { db in
            try db.execute(sql: #"UPDATE products SET details = '{ "warranty" : "1 year" }' WHERE id = ?"#, arguments: [odd.id])
        }
        products[count - 2] = try await shop.products.product(odd.sku)
        let shipping = try ProductChangePlan.plan(ProductEdit(details: ProductDetailEdit(shipping: .set("Ships in 2 days"))), over: products)
        let changeSet = try await shop.products.applyProductChanges(shipping)
        let details = try store.read { db in try String.fetchAll(db, sql: "SELECT details FROM products ORDER BY id") }
        #expect(details.count == count)
        #expect(details.filter { $0 == ProductDetails(shipping: "Ships in 2 days").storedJSON }.count == count - 1)
        #expect(details[count - 2] == ProductDetails(warranty: "1 year", shipping: "Ships in 2 days").storedJSON)
        let rows = try await auditRows(shop, changeSet: changeSet)
        #expect(rows.map(\.entityID) == products.map { String($0.id) })
        #expect(rows.allSatisfy { $0.after?.fieldNames == ["details"] })

        // A price changed at sqlite3 in the second statement's rows stops it all: the first
        // statement's changes are undone with it.
        let prices = try ProductChangePlan.plan(ProductEdit(price: .percent(hundredths: 1_000)), over: products)
        let changed = products[SQLiteProductService.rowsPerUpdate + 7]
        try store.write { db in try db.execute(sql: "UPDATE products SET price_minor = 1200 WHERE id = ?", arguments: [changed.id]) }
        await #expect {
            try await shop.products.applyProductChanges(prices)
        } throws: { error in
            ((error as? ShopError)?.message ?? "").contains(changed.sku)
        }
        let stored = try store.read { db in try Int64.fetchAll(db, sql: "SELECT price_minor FROM products ORDER BY id") }
        #expect(stored.filter { $0 == 1_000 }.count == count - 1 && stored.filter { $0 == 1_200 }.count == 1)
        #expect(try await auditRows(shop, changeSet: nil).filter { $0.action == "update" }.count == count)
    }
}
