// SQLiteStore: a shop kept in one SQLite file (WAL mode) through GRDB; it provides every service.

import Foundation
import GRDB
import ShopCore

/// A shop stored in a SQLite file. Open it, then hand `services` to the shell.
///
/// The file is an ordinary SQLite database in WAL mode: the `sqlite3` CLI can read it while
/// shopsh runs, and two shells on one file never lose an update (writes are transactions
/// and wait up to 5 s for each other).
public final class SQLiteStore: Sendable {
    /// The database file.
    public let path: String
    let pool: DatabasePool

    /// Opens the store at `path`, creating the file (and its folder) when `create` is true,
    /// and brings its schema up to date.
    public init(path: String, create: Bool = false) throws(ShopError) {
        self.path = path
        let fileManager = FileManager.default
        if !fileManager.fileExists(atPath: path) {
            guard create else {
                throw .notFound("no store at \(path); create one with: shopsh init --store \(path)")
            }
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do {
                    try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
                } catch {
                    throw .storage("cannot create folder \(folder): \(error.localizedDescription)")
                }
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Schema.migrator.migrate(pool)
        } catch {
            throw .storage("cannot open store \(path): \(Self.describe(error))")
        }
    }

    /// Every service of this store.
    public var services: ShopServices {
        ShopServices(products: SQLiteProductService(pool: pool), baskets: SQLiteBasketService(pool: pool),
                     favorites: SQLiteFavoritesService(pool: pool), users: SQLiteUserService(pool: pool),
                     orders: SQLiteOrderService(pool: pool), currencies: SQLiteCurrencyService(pool: pool),
                     completions: SQLiteCompletionSource(pool: pool))
    }

    /// Whether the store holds no products and no users (a new file).
    public func isEmpty() throws(ShopError) -> Bool {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)") == 0
        }
    }

    // MARK: - Database access with errors a person can read

    func read<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try pool.read(body) } catch { throw Self.shopError(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try pool.write(body) } catch { throw Self.shopError(error) }
    }

    /// ShopErrors thrown inside a transaction pass through; database errors become `.storage`.
    static func shopError(_ error: any Error) -> ShopError {
        if let shopError = error as? ShopError { return shopError }
        return .storage(describe(error))
    }

    static func describe(_ error: any Error) -> String {
        if let databaseError = error as? DatabaseError {
            return databaseError.message ?? "\(databaseError.resultCode)"
        }
        return "\(error)"
    }
}

/// Runs a GRDB read or write on a pool and converts its errors; shared by the services.
extension DatabasePool {
    func shopRead<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try read(body) } catch { throw SQLiteStore.shopError(error) }
    }

    func shopWrite<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try write(body) } catch { throw SQLiteStore.shopError(error) }
    }
}
