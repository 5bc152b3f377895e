// StoreFactory: the one place that turns a `--store` / `SHOPSH_STORE` value into a store. A path
// or `sqlite:PATH` is a SQLite file; a libpq connection string — `postgres://…` /
// `postgresql://…` URLs (several hosts too), `host=… dbname=…`, `service=NAME`, or `postgres:`
// for what psql's environment says — is a PostgreSQL server (PostgresConnectionString).

import Foundation
import ShellKit
import ShopCore
import ShopStoreKit
import ShopStorePostgres
import ShopStoreSQLite
import LineEditor
import PostgresConnectionKit

/// Opens, creates and names stores; the rest of the program sees `any ShopStore`.
enum StoreFactory {
    /// What a store value names.
    enum Target: Equatable {
        case sqlite(path: String)
        case postgres(url: String)
    }

    /// `sqlite:PATH` or a plain path → SQLite; a connection string → PostgreSQL.
    static func target(_ value: String) -> Target {
        if PostgresConnectionString.isConnectionString(value) { return .postgres(url: value) }
        if value.hasPrefix("sqlite:") { return .sqlite(path: String(value.dropFirst("sqlite:".count))) }
        return .sqlite(path: value)
    }

    /// The store value in force: `--store`, else `SHOPSH_STORE`, else nil (the default store).
    static func value(explicit: String?, environment: [String: String]) -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = environment["SHOPSH_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }

    /// The store as external plugins get it (`SHOPSH_STORE`): a server URL as the operator gave
    /// it but without its password (never put in a child's environment: the plugin's own
    /// shopsh calls find it in PGPASSWORD or ~/.pgpass, so a password given only in the URL
    /// does not reach them), else the file's path.
    static func forPlugins(_ value: String?, location: String) -> String {
        if let value, case .postgres(let url) = target(value) { return PostgresConnectionString.withoutPassword(url) }
        return location
    }

    /// A store value as it may be shown: a URL's password as `***`.
    static func shown(_ value: String) -> String {
        PostgresConnectionString.redact(value)
    }

    /// The default store's path: `$XDG_DATA_HOME/shopsh/shop.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        StoreLocation.defaultPath(environment: environment)
    }

    /// Opens the store `value` names (the default store when nil, created with the demo shop on
    /// first run and said so on a terminal's stderr).
    /// With `readOnly` (`--read-only`) every write is refused by the store itself.
    /// `reconnectTimeout` (seconds; nil: the default) and `notify` are a server store's way of
    /// following a failover (PostgresFailover).
    static func open(_ value: String?, readOnly: Bool = false, reconnectTimeout: Int? = nil, environment: [String: String],
                     notify: @escaping @Sendable (String) -> Void = { _ in },
                     announce: (String) -> Void) throws(ShopError) -> any ShopStore {
        guard let value else {
            let path = defaultPath(environment: environment)
            if readOnly && !FileManager.default.fileExists(atPath: path) {
                throw .notFound("no store at \(path) yet, and --read-only creates none: run shopsh once without it, or shopsh init")
            }
            if !FileManager.default.fileExists(atPath: path) {
                var summary: DemoShopSummary?
                let created = try SQLiteStore.create(at: path) { store throws(ShopError) in summary = try store.importDemoShop() }
                if created, let summary { announce(describe(summary, at: path)) }
            }
            return try SQLiteStore(path: path, readOnly: readOnly)
        }
        switch target(value) {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw .notFound("no store at \(path); create one with: shopsh init --store \(path)")
            }
            return try SQLiteStore(path: path, readOnly: readOnly)
        case .postgres(let url):
            return try openServer(url, environment: environment, migrate: true, readOnly: readOnly,
                                  reconnectTimeout: reconnectTimeout, notify: notify)
        }
    }

    /// Connects to the server `url` names (migrating its schema unless `migrate` is false).
    private static func openServer(_ url: String, environment: [String: String], migrate: Bool,
                                   readOnly: Bool = false, reconnectTimeout: Int? = nil,
                                   notify: @escaping @Sendable (String) -> Void = { _ in }) throws(ShopError) -> PostgresStore {
        let parsed = try PostgresStore.settings(url, environment: environment)
        let timeout = reconnectTimeout.map { Duration.seconds($0) } ?? PostgresStore.defaultReconnectTimeout
        // A store that opens shows its warnings later; one that does not says them in its error.
        let warnings = parsed.warnings(environment: environment)
        let warning = warnings.isEmpty ? "" : " (\(warnings.joined(separator: "; ")))"
        return try withDeadline(openingDeadline, doing: "opening \(parsed)") { () async throws(ShopError) -> PostgresStore in
            do throws(ShopError) {
                return try await PostgresStore.open(parsed, environment: environment, migrate: migrate, readOnly: readOnly,
                                                    interrupted: { Interrupt.isRequested }, reconnectTimeout: timeout, notify: notify)
            } catch {
                throw warning.isEmpty ? error : .storage(error.message + warning)
            }
        }
    }

    /// How long opening a server store may take (connecting is bounded by its own 10 s; a
    /// migration that builds indexes on a big shop takes longer): past it, one line, not a hang.
    static let openingDeadline = 300

    /// Runs `body` in a task of its own and waits for it at most `seconds`.
    private static func withDeadline<T: Sendable>(_ seconds: Int, doing what: String,
                                                  _ body: @escaping @Sendable () async throws(ShopError) -> T) throws(ShopError) -> T {
        let outcome = OutcomeBox<T>()
        Task.detached {
            do throws(ShopError) { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
        }
        guard let result = outcome.wait(seconds: seconds) else {
            throw .storage("\(what): no answer from the PostgreSQL server within \(seconds) s")
        }
        return try result.get()
    }

    /// Seeds `store` through `body`; nil when it already held a shop.
    private static func seed<T: Sendable>(_ store: any ShopStore,
                                          _ body: @escaping @Sendable (any ShopSeeder) throws -> T) throws(ShopError) -> T? {
        try Blocking.run { () async -> Result<T?, ShopError> in
            do throws(ShopError) { return .success(try await store.seed(body)) } catch { return .failure(error) }
        }.get()
    }

    /// The store for completion scripts, if it exists: completing never creates one.
    static func openIfPresent(_ value: String?, environment: [String: String]) -> (any ShopStore)? {
        let path: String
        switch value.map(target) ?? .sqlite(path: defaultPath(environment: environment)) {
        case .sqlite(let sqlitePath): path = sqlitePath
        case .postgres(let url): return try? openServer(url, environment: environment, migrate: false)
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
        case .postgres(let url): return try createOnServer(url, empty: empty, environment: environment)
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

    /// `shopsh init --store postgres://…`: the schema and the roles (PostgresRoles), then the demo
    /// shop (or only the ISO 4217 list) unless the database holds a shop already.
    private static func createOnServer(_ url: String, empty: Bool, environment: [String: String]) throws(ShopError) -> String? {
        let store = try openServer(url, environment: environment, migrate: true)
        defer { store.close() }
        // The shop is made even when this login may not make roles: it says so, and a DBA runs `roles setup`.
        let roles: String
        do throws(ShopError) { roles = try setUpRoles(on: store) } catch { roles = "roles not set up: " + error.message }
        let demo = try DemoShopData.load()
        if empty {
            guard try seed(store, { seeder in try demo.writeCurrencies(into: seeder) }) != nil else { return nil }
            return "created an empty shop in \(store.location) (with the ISO 4217 currency list); \(roles)"
        }
        guard let summary = try seed(store, { seeder in try demo.write(into: seeder) }) else { return nil }
        return describe(summary, at: store.location) + "; " + roles
    }

    /// `shopsh roles setup`: the PostgreSQL roles and grants on the store `value` names.
    static func setUpRoles(_ value: String?, environment: [String: String]) throws(ShopError) -> String {
        guard let value, case .postgres(let url) = target(value) else {
            throw .usage("roles are PostgreSQL's: name a postgres://… store with --store or SHOPSH_STORE (on SQLite the file's permissions are the only boundary)")
        }
        let store = try openServer(url, environment: environment, migrate: true)
        defer { store.close() }
        return try setUpRoles(on: store)
    }

    private static func setUpRoles(on store: PostgresStore) throws(ShopError) -> String {
        try withDeadline(openingDeadline, doing: "setting up roles on \(store.location)") { () async throws(ShopError) -> String in
            try await PostgresRoles.setUp(store)
        }
    }

    /// `shopsh dev generate`: a deterministic large shop in a new SQLite file or an empty PostgreSQL database.
    static func generate(at value: String, products: Int, users: Int, orders: Int?, seed shopSeed: UInt64,
                         progress: @escaping @Sendable (String) -> Void) throws(ShopError) -> GeneratedShop {
        let addresses = try DemoShopData.bundledAddresses()
        if case .postgres(let url) = target(value) {
            let store = try openServer(url, environment: ProcessInfo.processInfo.environment, migrate: true)
            defer { store.close() }
            let generated = try seed(store) { seeder in
                try ShopGenerator.generate(products: products, users: users, orders: orders, seed: shopSeed, addresses: addresses,
                                           into: seeder, progress: progress)
            }
            guard let generated else { throw .conflict("\(store.location) holds a shop already; generate into an empty database") }
            return generated
        }
        let path = value.hasPrefix("sqlite:") ? String(value.dropFirst("sqlite:".count)) : value
        let store = try SQLiteStore(path: path, create: true)
        defer { store.close() }
        let generated = try store.seedNow { seeder in
            try ShopGenerator.generate(products: products, users: users, orders: orders, seed: shopSeed, addresses: addresses,
                                           into: seeder, progress: progress)
        }
        guard let generated else { throw .conflict("the store at \(path) is not empty; generate into a new file") }
        return generated
    }

    static func describe(_ summary: DemoShopSummary, at path: String) -> String {
        "created the demo shop at \(path): \(summary.products) products, \(summary.users) users, \(summary.baskets) baskets, \(summary.orders) past orders, \(summary.rates) exchange rates"
    }
}

/// A result handed from a task to a thread that waits for it, for a while.
private final class OutcomeBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var value: Result<T, ShopError>?

    func set(_ result: Result<T, ShopError>) {
        lock.lock()
        value = result
        lock.unlock()
        ready.signal()
    }

    /// The result, or nil when none came within `seconds`.
    func wait(seconds: Int) -> Result<T, ShopError>? {
        guard ready.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
