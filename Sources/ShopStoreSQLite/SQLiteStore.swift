// SQLiteStore: a shop kept in one SQLite file (WAL mode) through GRDB; it provides every service.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit

/// A shop stored in a SQLite file. Open it, then hand `services` to the shell.
///
/// The file is an ordinary SQLite database in WAL mode: the `sqlite3` CLI can read it while
/// shopsh runs, and two shells on one file never lose an update (writes are transactions
/// and wait up to 5 s for each other). A shell runs one command at a time, so one connection
/// serves it: a GRDB pool opens a second one for reads and writes to an empty WAL on every
/// open, about 2 ms of a one-shot command's start-up.
public final class SQLiteStore: ShopStore, Sendable {
    /// The database file.
    public let path: String
    /// Whether the store was opened for reading only: the operator may not write the file or its
    /// folder, or the file system is read-only. Every change then fails with one clear line.
    public let isReadOnly: Bool
    /// The OS login at the shell: an admin when the file may be written, else a viewer. On SQLite
    /// the file's permissions are the only boundary: whoever may write it may do anything.
    public let identity: OperatorIdentity
    /// Things the operator should know about the file (e.g. that other users can read it).
    public let warnings: [String]
    /// Where the services read the time for the rows they stamp.
    public let clock: ShopClock
    let database: DatabaseQueue

    /// Opens the store at `path` and brings its schema up to date.
    ///
    /// With `create`, a missing file (and its folder, mode 0700) is created, mode 0600. An existing
    /// file must be a shopsh store: a database of another application, a file that is not SQLite
    /// and a store written by a newer shopsh are refused without being changed. A store the
    /// operator may only read is opened read-only, and so is any store when `readOnly` (`--read-only`).
    public init(path: String, create: Bool = false, readOnly requested: Bool = false, clock: ShopClock = .system) throws(ShopError) {
        self.path = path
        self.clock = clock
        if !FileManager.default.fileExists(atPath: path) {
            guard create else {
                throw .notFound("no store at \(path)")
            }
            try StoreFile.createEmpty(at: path)
        }
        try StoreFile.refuseNonSQLite(at: path)
        let writable = StoreFile.isWritable(path)
        let readOnly = requested || !writable
        isReadOnly = readOnly
        identity = OperatorIdentity(name: OperatorLogin.current, role: writable ? .admin : .viewer,
                                    readOnlyReason: requested ? "--read-only"
                                        : writable ? nil : "you may not write \(StoreFile.displayPath(path)) or its folder")
        warnings = StoreFile.permissionWarnings(path)
        do {
            database = try Self.connect(path, readOnly: readOnly)
            let identity = try database.read { db in try StoreIdentity.inspect(db) }
            try identity.refuseIfNotOurs(path)
            if readOnly {
                guard identity.isCurrent else {
                    throw ShopError.storage("the store \(path) needs an upgrade to this shopsh's schema, which needs write access")
                }
            } else {
                try database.writeWithoutTransaction { db in
                    // WAL is stored in the file: set once, then this pragma only reads it back.
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
                if !identity.isCurrent { try Schema.migrator.migrate(database) }
            }
        } catch let error as ShopError {
            throw error
        } catch {
            throw .storage("cannot open store \(path): \(Self.describe(error))")
        }
    }

    /// The page cache of a connection, as `PRAGMA cache_size` takes it (negative: KiB).
    static let cacheSizePragma = -8192

    /// One connection to `path`: read-write, or read-only (immutable when SQLite cannot even
    /// set up its shared memory beside a WAL file, e.g. on a read-only file system).
    private static func connect(_ path: String, readOnly: Bool) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.allowsUnsafeTransactions = true   // `--atomic` keeps one open across commands
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            db.add(function: SQLPaging.caseFold)
            // 8 MiB of page cache (SQLite's default is 2): a batch of random basket commands reads
            // its index pages from memory instead of the file (100k commands 8.4 → 7.0 s), and a
            // full export still streams in flat memory (29 MB at 100k and at 1M rows; 32 MiB
            // made that 43 → 54 MB).
            try db.execute(sql: "PRAGMA cache_size = \(cacheSizePragma)")
        }
        guard readOnly else { return try DatabaseQueue(path: path, configuration: configuration) }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch {
            return try DatabaseQueue(path: StoreFile.immutableURI(path), configuration: configuration)
        }
    }

    /// Creates a store at `path` atomically: it is built aside (schema and whatever `populate`
    /// puts in, such as the demo shop) and linked into place only when complete, so a run killed
    /// half-way leaves no store, and of several shopsh processes creating one at once exactly one
    /// succeeds while the others find it done.
    ///
    /// - Returns: false, changing nothing, when a store already exists at `path`.
    public static func create(at path: String, populate: (SQLiteStore) throws(ShopError) -> Void) throws(ShopError) -> Bool {
        if FileManager.default.fileExists(atPath: path) { return false }
        try StoreFile.createFolder(of: path)
        StoreFile.removeAbandonedBuilds(for: path)
        let building = StoreFile.buildPath(for: path)
        do {
            let store = try SQLiteStore(path: building, create: true)
            do {
                try populate(store)
                // Everything into the file itself: its -wal is named after the building path.
                try store.database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
                try store.database.close()
            } catch {
                try? store.database.close()
                throw shopError(error)
            }
        } catch {
            StoreFile.removeStore(building)
            throw shopError(error)
        }
        return try StoreFile.moveIntoPlace(building, to: path)
    }

    /// Closes the connection at the end of the process (SQLite checkpoints the WAL and removes it,
    /// as when any last connection closes) and keeps the store alive until the exit: releasing it
    /// would dispose of GRDB's dispatch queue, which starts a worker thread just to do that.
    public func close() {
        try? database.close()
        _ = Unmanaged.passRetained(self)
    }

    /// Every service of this store.
    public var services: ShopServices {
        ShopServices(products: SQLiteProductService(database: database, clock: clock),
                     baskets: SQLiteBasketService(database: database, clock: clock),
                     favorites: SQLiteFavoritesService(database: database, clock: clock),
                     users: SQLiteUserService(database: database, clock: clock),
                     addresses: SQLiteAddressService(database: database, clock: clock),
                     orders: SQLiteOrderService(database: database, clock: clock),
                     notes: SQLiteNoteService(database: database, clock: clock),
                     shipments: SQLiteShipmentService(database: database, clock: clock),
                     coupons: SQLiteCouponService(database: database, clock: clock),
                     reviews: SQLiteReviewService(database: database, clock: clock), currencies: SQLiteCurrencyService(database: database, clock: clock),
                     audit: SQLiteAuditService(database: database), history: SQLiteHistoryService(database: database),
                     completions: SQLiteCompletionSource(database: database), clock: clock)
    }

    /// `shop` for `…/shop.sqlite`.
    public var displayName: String { StoreLocation.storeName(path) }

    public var location: String { path }

    /// A run on the store's one connection: an immediate transaction that every service call
    /// joins in a savepoint (see `shopWrite`).
    public func beginRun() async throws -> any StoreRun {
        let run = SQLiteRun(database: database, services: services)
        try run.begin()
        return run
    }

    /// Whether the store holds no products and no users (a new file).
    public func isEmpty() throws(ShopError) -> Bool {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)") == 0
        }
    }

    // MARK: - Database access with errors a person can read

    func read<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try database.shopRead(body) } catch { throw Self.shopError(error) }
    }

    func write<T>(_ body: (Database) throws -> T) throws(ShopError) -> T {
        do { return try database.shopWrite(body) } catch { throw Self.shopError(error) }
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
    func shopRead<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try inDatabase { db in
                try db.isInsideTransaction ? body(db) : Self.isolated(db, in: .transaction(.deferred), body)
            }
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in an immediate write transaction or, inside a run transaction, in a savepoint
    /// of it, so that a failing command undoes only its own changes.
    func shopWrite<T>(_ body: (Database) throws -> T) throws -> T {
        if configuration.readonly { throw readOnlyError }
        do {
            return try writeWithoutTransaction { db in
                try Self.isolated(db, in: db.isInsideTransaction ? .savepoint : .transaction(.immediate), body)
            }
        } catch {
            throw storeError(error)
        }
    }

    /// The error a service reports for `error`: database errors become one-line `.storage`
    /// errors; everything else (a ShopError, a broken output pipe) passes through unchanged.
    func storeError(_ error: any Error) -> any Error {
        guard let databaseError = error as? DatabaseError else { return error }
        switch databaseError.resultCode {
        case .SQLITE_READONLY: return readOnlyError
        case .SQLITE_BUSY: return ShopError.storage("the store is busy: another shopsh has held its write lock for more than 5 s; try again")
        case .SQLITE_FULL: return ShopError.storage("the disk holding the store is full; nothing was changed")
        case .SQLITE_ERROR where databaseError.message == "integer overflow": return ShopError.sumTooLarge(doing: "adding up")
        default: return SQLiteStore.shopError(databaseError)
        }
    }

    var readOnlyError: ShopError {
        .storage("the store \(StoreFile.displayPath(path)) is open read-only (you may not write it, or its folder): this command would change it")
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
struct SQLiteRun: StoreRun {
    let database: DatabaseQueue
    let services: ShopServices

    func end(commit: Bool) async throws {
        try close(commit: commit)
    }

    func begin() throws {
        if database.configuration.readonly { throw database.readOnlyError }
        do {
            try database.writeWithoutTransaction { db in try db.beginTransaction(.immediate) }
        } catch {
            throw database.storeError(error)
        }
    }

    private func close(commit: Bool) throws {
        do {
            try database.writeWithoutTransaction { db in
                guard db.isInsideTransaction else { return }
                if commit { try db.commit() } else { try db.rollback() }
            }
        } catch {
            throw database.storeError(error)
        }
    }
}
