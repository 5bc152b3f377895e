// SQLiteStore: a shop kept in one SQLite file (WAL mode) through GRDB; it provides every service.

import Foundation
import GRDB
import ShopCore

/// A shop stored in a SQLite file. Open it, then hand `services` to the shell.
///
/// The file is an ordinary SQLite database in WAL mode: the `sqlite3` CLI can read it while
/// shopsh runs, and two shells on one file never lose an update (writes are transactions
/// and wait up to 5 s for each other). A shell runs one command at a time, so one connection
/// serves it: a GRDB pool opens a second one for reads and writes to an empty WAL on every
/// open, about 2 ms of a one-shot command's start-up.
public final class SQLiteStore: Sendable {
    /// The database file.
    public let path: String
    let database: DatabaseQueue

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
        configuration.allowsUnsafeTransactions = true   // `--atomic` keeps one open across commands
        configuration.prepareDatabase { db in
            // WAL is stored in the file: set once, then this pragma only reads it back.
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 8 MiB of page cache (SQLite's default is 2): a batch of random basket commands reads
            // its index pages from memory instead of the file (100k commands 8.4 → 7.0 s), and a
            // full export still streams in flat memory (29 MB at 100k and at 1M rows; 32 MiB
            // made that 43 → 54 MB).
            try db.execute(sql: "PRAGMA cache_size = -8192")
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Schema.migrator.migrate(database)
        } catch {
            throw .storage("cannot open store \(path): \(Self.describe(error))")
        }
    }

    /// Closes the connection at the end of the process (SQLite checkpoints the WAL and removes it,
    /// as when any last connection closes) and keeps the store alive until the exit: releasing it
    /// would dispose of GRDB's dispatch queue, which starts a worker thread just to do that.
    public func closeForExit() {
        try? database.close()
        _ = Unmanaged.passRetained(self)
    }

    /// Every service of this store.
    public var services: ShopServices {
        ShopServices(products: SQLiteProductService(database: database), baskets: SQLiteBasketService(database: database),
                     favorites: SQLiteFavoritesService(database: database), users: SQLiteUserService(database: database),
                     orders: SQLiteOrderService(database: database), currencies: SQLiteCurrencyService(database: database),
                     completions: SQLiteCompletionSource(database: database),
                     runTransaction: SQLiteRunTransaction(database: database))
    }

    /// Whether the store holds no products and no users (a new file).
    public func isEmpty() throws(ShopError) -> Bool {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)") == 0
        }
    }

    // MARK: - Database access with errors a person can read

    func read<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        try database.shopRead(body)
    }

    func write<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        try database.shopWrite(body)
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

/// Runs a GRDB read or write on the store's connection and converts its errors; shared by the services.
extension DatabaseQueue {
    /// Runs `body` in a deferred transaction, so it sees one snapshot of the file (inside a run
    /// transaction it simply joins it, and sees the run's changes).
    func shopRead<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do {
            return try inDatabase { db in
                try db.isInsideTransaction ? body(db) : Self.isolated(db, in: .transaction(.deferred), body)
            }
        } catch {
            throw SQLiteStore.shopError(error)
        }
    }

    /// Runs `body` in an immediate write transaction or, inside a run transaction, in a savepoint
    /// of it, so that a failing command undoes only its own changes.
    func shopWrite<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do {
            return try writeWithoutTransaction { db in
                try Self.isolated(db, in: db.isInsideTransaction ? .savepoint : .transaction(.immediate), body)
            }
        } catch {
            throw SQLiteStore.shopError(error)
        }
    }

    private enum Scope {
        case transaction(Database.TransactionKind)
        case savepoint
    }

    /// Runs `body` in `scope`: kept when it returns, undone when it throws.
    private static func isolated<T>(_ db: Database, in scope: Scope, _ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        func run() -> Database.TransactionCompletion {
            let outcome = Result { try body(db) }
            result = outcome
            if case .failure = outcome { return .rollback }
            return .commit
        }
        switch scope {
        case .transaction(let kind): try db.inTransaction(kind) { run() }
        case .savepoint: try db.inSavepoint { run() }
        }
        guard let result else { throw ShopError.storage("a database access ended without a result") }
        return try result.get()
    }
}

/// `--atomic` and `--dry-run` on the store's one connection: an immediate transaction left open
/// across the run's commands (each of which works in a savepoint of it).
struct SQLiteRunTransaction: RunTransaction {
    let database: DatabaseQueue

    func begin() async throws {
        try open()
    }

    func end(commit: Bool) async throws {
        try close(commit: commit)
    }

    private func open() throws(ShopError) {
        do {
            try database.writeWithoutTransaction { db in try db.beginTransaction(.immediate) }
        } catch {
            throw SQLiteStore.shopError(error)
        }
    }

    private func close(commit: Bool) throws(ShopError) {
        do {
            try database.writeWithoutTransaction { db in
                guard db.isInsideTransaction else { return }
                if commit { try db.commit() } else { try db.rollback() }
            }
        } catch {
            throw SQLiteStore.shopError(error)
        }
    }
}
