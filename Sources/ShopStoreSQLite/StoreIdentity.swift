// StoreIdentity: tells a shopsh store from any other SQLite file before anything is written to it
// (SQLite's application_id marks our stores, user_version counts their migrations).

import GRDB
import ShopCore

/// What an existing database file is, read without changing it.
struct StoreIdentity {
    /// `PRAGMA application_id` of every shopsh store: "SHOP" in ASCII.
    static let applicationID: Int32 = 0x5348_4F50

    enum Kind: Equatable {
        /// A database with no tables yet: shopsh may make it a store.
        case empty
        /// A shopsh store (marked, or made by a shopsh from before the mark, which has our tables
        /// and migration table and no others).
        case shopsh
        /// Another application's database.
        case foreign(reason: String)
    }

    var kind: Kind
    /// How many of this binary's migrations the store has (`PRAGMA user_version` once marked).
    var schemaVersion: Int
    /// Migrations the store has that this binary does not know (a newer shopsh made them).
    var unknownMigrations: [String]

    /// Whether the store is marked and fully migrated, so opening it needs no write.
    var isCurrent: Bool { kind == .shopsh && schemaVersion == Schema.version && unknownMigrations.isEmpty }

    /// Reads the marks and, for an unmarked file, its table names.
    static func inspect(_ db: Database) throws -> StoreIdentity {
        let marks = try Row.fetchOne(db, sql: "SELECT * FROM pragma_application_id(), pragma_user_version()")
        let applicationID: Int32 = marks?[0] ?? 0
        let userVersion: Int = marks?[1] ?? 0
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """)
        let migrations = tables.contains("grdb_migrations")
            ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let unknown = migrations.filter { !Schema.migrationNames.contains($0) }
        if applicationID == Self.applicationID {
            return StoreIdentity(kind: .shopsh, schemaVersion: userVersion, unknownMigrations: unknown)
        }
        if applicationID != 0 {
            let hex = String(UInt32(bitPattern: applicationID), radix: 16)
            return StoreIdentity(kind: .foreign(reason: "its application id is 0x\(hex), not shopsh's"),
                                 schemaVersion: 0, unknownMigrations: [])
        }
        if tables.isEmpty { return StoreIdentity(kind: .empty, schemaVersion: 0, unknownMigrations: []) }
        let ours = Set(Schema.tableNames + ["grdb_migrations"])
        let others = tables.filter { !ours.contains($0) }
        guard others.isEmpty, tables.contains("shop_meta"), migrations.contains(Schema.migrationNames[0]) else {
            let shown = (others.isEmpty ? tables : others).prefix(5).joined(separator: ", ")
            return StoreIdentity(kind: .foreign(reason: "it holds tables of another application (\(shown))"),
                                 schemaVersion: 0, unknownMigrations: [])
        }
        // A store from before the mark: as many migrations as it has applied.
        return StoreIdentity(kind: .shopsh, schemaVersion: 0, unknownMigrations: unknown)
    }

    /// Throws one clear line for a file shopsh must not open: another application's database,
    /// or a store written by a newer shopsh.
    func refuseIfNotOurs(_ path: String) throws(ShopError) {
        if case .foreign(let reason) = kind {
            throw .storage("\(path) is not a shopsh store: \(reason); it was left unchanged")
        }
        if schemaVersion > Schema.version || !unknownMigrations.isEmpty {
            let detail = unknownMigrations.first.map { "migration \"\($0)\"" } ?? "schema version \(schemaVersion)"
            throw .storage("\(path) was written by a newer shopsh (\(detail); this shopsh knows version \(Schema.version)): upgrade shopsh to open it")
        }
    }
}
