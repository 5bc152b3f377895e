// SQLiteAddressTests: customers' saved addresses on SQLite (Schema v10; the contract's
// `addresses` area covers both stores) — the first is the default for both uses, one default per use,
// another customer's address is not found, bad input changes nothing, every change audited and
// masked for a viewer.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit
import Testing
@testable import ShopStoreSQLite

@Suite final class SQLiteAddressTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("address-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func defaultsFollowTheRulesAndEveryChangeIsAudited() async throws {
        let store = try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
        defer { store.close() }
        let shop = store.services
        _ = try await shop.users.addUser(NewUser(username: "ada", email: "ada@example.com"))
        _ = try await shop.users.addUser(NewUser(username: "bob", email: "bob@example.com"))
        let addresses = SQLiteAddressService(database: store.database, clock: store.clock)

        let home = try await addresses.addAddress("ada", PostalAddress(name: "Ada L", line1: "1 High Street", city: "York", country: "gb"),
                                                  defaults: [])
        #expect(home.defaults == [.shipping, .billing] && home.address.country == "GB")
        let work = try await addresses.addAddress("ada", PostalAddress(line1: "Unter den Linden 5", city: "Berlin", postalCode: "10117",
                                                                       country: "DE"), defaults: [.shipping])
        var saved = try await addresses.addresses("ada")
        #expect(saved.map(\.id) == [home.id, work.id] && saved.map(\.defaults) == [[.billing], [.shipping]])
        #expect(try await addresses.defaultAddress("ada", for: .shipping)?.id == work.id)
        _ = try await addresses.setDefaultAddress("ada", home.id, for: .shipping)
        saved = try await addresses.addresses("ada")
        #expect(saved.map(\.defaults) == [[.shipping, .billing], []])
        let moved = try await addresses.updateAddress("ada", work.id, AddressChanges(line2: "3rd floor", phone: .some("+49 30 1234")))
        #expect(moved.address.line2 == "3rd floor" && moved.address.phone == "+49 30 1234" && moved.address.city == "Berlin")

        // Bad input and another customer's address change nothing.
        let before = try await addresses.addresses("ada")
        let auditRows = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM audit_log") }
        await #expect(throws: ShopError.self) { try await addresses.updateAddress("ada", work.id, AddressChanges(country: "XX")) }
        await #expect(throws: ShopError.self) { try await addresses.updateAddress("ada", work.id, AddressChanges(city: "  ")) }
        await #expect(throws: ShopError.self) { try await addresses.removeAddress("bob", work.id) }
        await #expect(throws: ShopError.self) { try await addresses.setDefaultAddress("bob", home.id, for: .billing) }
        await #expect(throws: ShopError.self) { try await addresses.updateAddress("ada", work.id, AddressChanges()) }
        #expect(try await addresses.addresses("ada") == before)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM audit_log") } == auditRows)

        _ = try await addresses.removeAddress("ada", work.id)
        #expect(try await addresses.addresses("ada").map(\.id) == [home.id])
        var entries: [AuditEntry] = []
        try await shop.audit.listAudit(AuditFilter(), page: .all) { entries.append($0) }
        let actions = entries.filter { $0.action.hasPrefix("address ") }.map(\.action)
        // Each changed address is a row: the second add and the default move a default from another address too.
        #expect(actions.sorted() == ["address add", "address add", "address add", "address default", "address default", "address remove",
                                     "address update"])
        let added = try #require(entries.first { $0.action == "address add" && $0.after?["city"] == .text("York") })
        #expect(added.after?["line1"] == .text("1 High Street"))
        #expect(added.maskedForViewer.after?["line1"] == .text("***") && added.maskedForViewer.after?["name"] == .text("A***")
                && added.maskedForViewer.after?["city"] == .text("York"))
    }

    @Test func everyDemoCustomerHasTheBundledAddressAsBothDefaults() async throws {
        let store = try SQLiteStore(path: folder.appendingPathComponent("demo.sqlite").path, create: true)
        defer { store.close() }
        _ = try await store.seed { seeder in try DemoShopData.load().write(into: seeder) }
        let addresses = SQLiteAddressService(database: store.database, clock: store.clock)
        // The bundled file itself, read with Foundation's JSON parser (not shopsh's).
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/ShopStoreKit/DemoData/users.json")
        let users = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        #expect(users.count == 208)
        for user in users {
            let username = try #require(user["username"] as? String)
            let bundled = try #require(user["address"] as? [String: Any])
            let saved = try await addresses.addresses(username)
            try #require(saved.count == 1, "\(username)")
            let address = saved[0].address
            #expect(address.line1 == bundled["address"] as? String && address.city == bundled["city"] as? String
                    && address.state == bundled["state"] as? String && address.postalCode == bundled["postalCode"] as? String
                    && address.country == "US" && bundled["country"] as? String == "United States", "\(username): \(address)")
            #expect(address.name == "\(user["firstName"] as? String ?? "") \(user["lastName"] as? String ?? "")" && address.phone == user["phone"] as? String)
            #expect(saved[0].defaults == [.shipping, .billing])
        }
    }
}
