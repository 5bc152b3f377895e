// PostgresStore: a shop on a PostgreSQL server (issue 12). Opening one connects, checks that the
// server answers, migrates the schema, and hands out the services; runs (`--atomic`, `--dry-run`)
// and seeds get a connection of their own.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// A shop store on a PostgreSQL server, reached through postgres-nio connections.
public final class PostgresStore: ShopStore {
    public let services: ShopServices
    /// The database's name (the prompt shows it; the history file is named after it).
    public let displayName: String
    /// The URL, without its password.
    public let location: String
    public var warnings: [String] { url.warnings }
    /// The role that logged in. (Placeholder: every operator is an admin until roles are set up.)
    public var identity: OperatorIdentity { OperatorIdentity(name: url.user, role: .admin) }

    /// The connections, logger and clock as the services use them.
    let database: PostgresDatabase
    /// Where the store is (with its password, which is never shown).
    private let url: PostgresConnectionURL
    /// postgres-nio's logging, off: errors reach the operator as ShopError instead.
    let logger: Logger

    /// Connects to `url`, checks that the server answers, and migrates the schema.
    ///
    /// - Parameters:
    ///   - url: where the store is; its password, if any, is used and never shown.
    ///   - searchPath: a schema to work in instead of `public` (tests use one per case).
    ///   - migrate: false to open without touching the schema (e.g. a read-only role).
    ///   - clock: what stamps the rows the services write (the system's clock by default).
    ///   - interrupted: whether the operator pressed Ctrl-C; a query running then is cancelled on the server.
    public static func open(_ url: PostgresConnectionURL, searchPath: String? = nil, migrate: Bool = true,
                            clock: ShopClock = .system,
                            interrupted: @escaping @Sendable () -> Bool = { false }) async throws(ShopError) -> PostgresStore {
        let store = PostgresStore(url: url, searchPath: searchPath, clock: clock, interrupted: interrupted)
        do {
            try await store.ping()
            if migrate { try await PostgresSchema.migrate(store.database) }
        } catch {
            store.close()
            throw error
        }
        return store
    }

    private init(url: PostgresConnectionURL, searchPath: String?, clock: ShopClock, interrupted: @escaping @Sendable () -> Bool) {
        let logger = Logger(label: "shopsh.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let parameters = [("application_name", "shopsh")] + (searchPath.map { [("search_path", $0)] } ?? [])
        let connections = PostgresConnections(logger: logger) {
            let tls: PostgresConnection.Configuration.TLS = switch url.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user,
                                                                 password: url.password, database: url.database, tls: tls)
            configuration.options.connectTimeout = .seconds(PostgresConnections.connectTimeout)
            configuration.options.additionalStartupParameters = parameters
            return configuration
        }
        self.url = url
        self.logger = logger
        self.displayName = url.database
        self.location = url.description
        self.database = PostgresDatabase(connections: connections, logger: logger, clock: clock, interrupted: interrupted)
        self.services = Self.services(on: database)
    }

    /// Every service, reaching the server through `database` (kept connections, or a run's).
    static func services(on database: PostgresDatabase) -> ShopServices {
        ShopServices(products: PostgresProductService(database: database),
                     baskets: PostgresBasketService(database: database),
                     favorites: PostgresFavoritesService(database: database),
                     users: PostgresUserService(database: database),
                     orders: PostgresOrderService(database: database),
                     currencies: PostgresCurrencyService(database: database),
                     audit: PostgresAuditService(database: database),
                     completions: PostgresCompletionSource(database: database))
    }

    /// Runs `SELECT 1` on a connection: an unreachable server, a wrong password or a missing
    /// database fails here at once, in one line, with the server's own words.
    func ping() async throws(ShopError) {
        try await database.read("connecting to \(location)") { connection in
            _ = try await connection.query("SELECT 1", logger: logger).collect()
        }
    }

    /// Starts a run: a connection of its own with an open transaction; its services use it.
    public func beginRun() async throws -> any StoreRun {
        let what = "starting the run's transaction"
        let leased: PostgresConnections.Leased
        do {
            leased = try await database.connections.connect()
        } catch {
            throw PostgresErrors.shopError(error, doing: what)
        }
        do {
            let run = try await PostgresRunConnection.begin(on: leased, logger: logger)
            return PostgresRun(services: Self.services(on: database.joining(run)), connection: run)
        } catch {
            try? await leased.connection.close()
            throw PostgresErrors.shopError(error, doing: what)
        }
    }

    public func seed<T>(_ body: (any ShopSeeder) throws -> T) async throws(ShopError) -> T? {
        try await PostgresSeeder.seed(database, body)
    }

    /// Closes the kept connections (in the background: the process is ending).
    public func close() {
        let connections = database.connections
        Task.detached { await connections.closeAll() }
    }
}

extension PostgresStore {
    /// Runs `query` on one of the store's connections (for tests and set-up: services use `database`).
    func execute(_ query: PostgresQuery) async throws {
        let logger = self.logger
        try await database.connections.withConnection { leased in _ = try await leased.connection.query(query, logger: logger).collect() }
    }
}

extension PostgresStore {
    /// The first column of `query`'s rows, as text (for tests: e.g. an `EXPLAIN`).
    func textColumn(_ query: PostgresQuery) async throws -> [String] {
        let logger = self.logger
        return try await database.connections.withConnection { leased in
            var lines: [String] = []
            for try await line in try await leased.connection.query(query, logger: logger).decode(String.self) { lines.append(line) }
            return lines
        }
    }
}
