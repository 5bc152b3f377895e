// StoreFileTests: the store as a file: marked as shopsh's, other applications' databases and newer
// stores refused byte for byte unchanged, created 0600, built aside atomically, opened read-only.

import Foundation
import GRDB
import ShopCore
import Testing
@testable import ShopStoreSQLite

@Suite final class StoreFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-file-tests-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Runs SQL on a file with a plain SQLite connection (another application's).
    func foreign(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }

    func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func newStoresAreMarkedAndPrivate() throws {
        let file = path("shop.sqlite")
        let store = try SQLiteStore(path: file, create: true)
        let marks = try store.read { db in try Row.fetchOne(db, sql: "SELECT * FROM pragma_application_id(), pragma_user_version()") }
        #expect(marks?[0] == StoreIdentity.applicationID)
        #expect(marks?[1] == Schema.version)
        _ = try store.importDemoShop()   // writes: the -wal and -shm files exist now
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file + suffix) {
            #expect(try mode(file + suffix) == 0o600, "\(file + suffix)")
        }
        #expect(store.warnings.isEmpty)
    }

    @Test func aStoreOthersCanReadIsOpenedWithAWarning() throws {
        let file = path("shared.sqlite")
        _ = try SQLiteStore(path: file, create: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let store = try SQLiteStore(path: file)
        #expect(store.warnings.count == 1)
        #expect(store.warnings.first?.contains("chmod 600") == true)
    }

    @Test func anotherApplicationsDatabaseIsRefusedUnchanged() throws {
        let notes = path("notes.db")
        try foreign(notes, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi')")
        let before = try contents(notes)
        #expect(throws: ShopError.self) { try SQLiteStore(path: notes) }
        #expect(try contents(notes) == before)
        #expect(!FileManager.default.fileExists(atPath: notes + "-wal"))

        // A clashing table name does not make it ours either.
        let clash = path("clash.db")
        try foreign(clash, "CREATE TABLE products (x)")
        let clashBefore = try contents(clash)
        #expect(throws: ShopError.self) { try SQLiteStore(path: clash) }
        #expect(try contents(clash) == clashBefore)

        // Another application's mark.
        let marked = path("marked.db")
        try foreign(marked, "PRAGMA application_id = 1234; CREATE TABLE t (x)")
        #expect(throws: ShopError.self) { try SQLiteStore(path: marked) }

        // Not SQLite at all.
        let text = path("text.txt")
        try "hello\n".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: ShopError.self) { try SQLiteStore(path: text) }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "hello\n")
    }

    @Test func aStoreFromANewerShopshIsRefused() throws {
        let file = path("newer.sqlite")
        _ = try SQLiteStore(path: file, create: true)
        try foreign(file, "PRAGMA user_version = \(Schema.version + 1)")
        let error = #expect(throws: ShopError.self) { try SQLiteStore(path: file) }
        #expect(error?.message.contains("newer shopsh") == true)

        let unknown = path("unknown-migration.sqlite")
        _ = try SQLiteStore(path: unknown, create: true)
        try foreign(unknown, "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        #expect(throws: ShopError.self) { try SQLiteStore(path: unknown) }
    }

    /// A store made before stores were marked (schema v1 only, no application id) is recognised and upgraded.
    @Test func anUnmarkedStoreOfAnOlderShopshIsUpgraded() throws {
        let file = path("old.sqlite")
        let queue = try DatabaseQueue(path: file)
        try Schema.migrator.migrate(queue, upTo: Schema.migrationNames[0])
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 0") }   // v1 did not count
        try queue.close()
        let store = try SQLiteStore(path: file)
        let marks = try store.read { db in try Row.fetchOne(db, sql: "SELECT * FROM pragma_application_id(), pragma_user_version()") }
        #expect(marks?[0] == StoreIdentity.applicationID)
        #expect(marks?[1] == Schema.version)
    }

    @Test func creatingAStoreIsAllOrNothingAndOneWins() throws {
        let file = path("first-run/shop.sqlite")
        // A creation that fails half-way leaves nothing behind, not even its build file.
        #expect(throws: ShopError.self) {
            _ = try SQLiteStore.create(at: file) { _ throws(ShopError) in throw ShopError.storage("killed half-way") }
        }
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("first-run")).isEmpty)
        #expect(try mode(path("first-run")) == 0o700)

        #expect(try SQLiteStore.create(at: file) { store throws(ShopError) in _ = try store.importDemoShop() })
        // A second creation finds the store there and changes nothing.
        let before = try contents(file)
        #expect(try !SQLiteStore.create(at: file) { _ throws(ShopError) in })
        #expect(try contents(file) == before)
        #expect(try mode(file) == 0o600)
        let store = try SQLiteStore(path: file)
        #expect(try store.isEmpty() == false)
    }

    @Test func buildsLeftByDeadProcessesAreRemoved() throws {
        let file = path("shop.sqlite")
        // No process has pid 2^22 + 1 (above Linux's pid_max limit).
        let abandoned = path(".shop.sqlite.building-4194305-1")
        FileManager.default.createFile(atPath: abandoned, contents: Data("half".utf8))
        #expect(try SQLiteStore.create(at: file) { _ throws(ShopError) in })
        #expect(!FileManager.default.fileExists(atPath: abandoned))
    }
}
