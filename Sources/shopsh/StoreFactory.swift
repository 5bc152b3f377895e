// StoreFactory: the one place that turns a `--store` / `SHOPSH_STORE` value into a store. A path
// or `sqlite:PATH` is a SQLite file; `postgres://…` is a server (not supported yet).

import Foundation
import ShellKit
import ShopCore
import ShopStoreKit
import ShopStoreSQLite

/// Opens, creates and names stores; the rest of the program sees `any ShopStore`.
enum StoreFactory {
    /// What a store value names.
    enum Target: Equatable {
        case sqlite(path: String)
        case postgres(url: String)
    }

    /// `sqlite:PATH` or a plain path → SQLite; `postgres://…` / `postgresql://…` → PostgreSQL.
    static func target(_ value: String) -> Target {
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") { return .postgres(url: value) }
        if value.hasPrefix("sqlite:") { return .sqlite(path: String(value.dropFirst("sqlite:".count))) }
        return .sqlite(path: value)
    }

    /// The store value in force: `--store`, else `SHOPSH_STORE`, else nil (the default store).
    static func value(explicit: String?, environment: [String: String]) -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = environment["SHOPSH_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }

    /// The default store's path: `$XDG_DATA_HOME/shopsh/shop.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        StoreLocation.defaultPath(environment: environment)
    }

    /// Opens the store `value` names (the default store when nil, created with the demo shop on
    /// first run and said so on a terminal's stderr).
    static func open(_ value: String?, environment: [String: String], announce: (String) -> Void) throws(ShopError) -> any ShopStore {
        guard let value else {
            let path = defaultPath(environment: environment)
            if !FileManager.default.fileExists(atPath: path) {
                var summary: DemoShopSummary?
                let created = try SQLiteStore.create(at: path) { store throws(ShopError) in summary = try store.importDemoShop() }
                if created, let summary { announce(describe(summary, at: path)) }
            }
            return try SQLiteStore(path: path)
        }
        switch target(value) {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw .notFound("no store at \(path); create one with: shopsh init --store \(path)")
            }
            return try SQLiteStore(path: path)
        case .postgres: throw notYet
        }
    }

    /// The store for completion scripts, if it exists: completing never creates one.
    static func openIfPresent(_ value: String?, environment: [String: String]) -> (any ShopStore)? {
        let path: String
        switch value.map(target) ?? .sqlite(path: defaultPath(environment: environment)) {
        case .sqlite(let sqlitePath): path = sqlitePath
        case .postgres: return nil
        }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? SQLiteStore(path: path)
    }

    /// `shopsh init`: creates the store `value` names (the default when nil), with the demo shop
    /// unless `empty`. Returns what was done, or nil when a store is already there.
    static func create(_ value: String?, empty: Bool, environment: [String: String]) throws(ShopError) -> String? {
        let path: String
        switch value.map(target) ?? .sqlite(path: defaultPath(environment: environment)) {
        case .sqlite(let sqlitePath): path = sqlitePath
        case .postgres: throw notYet
        }
        var summary: DemoShopSummary?
        let created = try SQLiteStore.create(at: path) { store throws(ShopError) in
            if !empty {
                summary = try store.importDemoShop()
            } else {
                // An empty shop still gets the ISO 4217 list: currency imports and --currency need it.
                let demo = try DemoShopData.load()
                _ = try store.seedNow { seeder in try demo.writeCurrencies(into: seeder) }
            }
        }
        guard created else { return nil }
        return summary.map { describe($0, at: path) } ?? "created an empty store at \(path) (with the ISO 4217 currency list)"
    }

    /// `shopsh dev generate`: a deterministic large shop in a new SQLite file.
    static func generate(at path: String, products: Int, users: Int, seed: UInt64,
                         progress: (String) -> Void) throws(ShopError) -> GeneratedShop {
        let store = try SQLiteStore(path: path, create: true)
        defer { store.close() }
        let generated = try store.seedNow { seeder in
            try ShopGenerator.generate(products: products, users: users, seed: seed, into: seeder, progress: progress)
        }
        guard let generated else { throw .conflict("the store at \(path) is not empty; generate into a new file") }
        return generated
    }

    static func describe(_ summary: DemoShopSummary, at path: String) -> String {
        "created the demo shop at \(path): \(summary.products) products, \(summary.users) users, \(summary.baskets) baskets, \(summary.rates) exchange rates"
    }

    static let notYet = ShopError.usage("PostgreSQL stores are not supported yet; use a file path or sqlite:PATH")
}
