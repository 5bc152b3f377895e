// PostgresStore: a shop on a PostgreSQL server (issue 12). Opening one connects (a PostgresClient
// whose run() is kept going in a task), migrates the schema, and hands out the services: products,
// baskets, orders and completion so far; the other services say that they are not there yet.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// A shop store on a PostgreSQL server, reached through postgres-nio's connection pool.
public final class PostgresStore: ShopStore {
    public let services: ShopServices
    /// The database's name (the prompt shows it; the history file is named after it).
    public let displayName: String
    /// The URL, without its password.
    public let location: String
    public let warnings: [String] = []

    /// The pool every service queries through.
    let client: PostgresClient
    /// Where the store is (with its password, which is never shown).
    private let url: PostgresConnectionURL
    /// postgres-nio's logging, off: errors reach the operator as ShopError instead.
    let logger: Logger
    /// Runs the pool (`client.run()`) until `close()` or deinit cancels it.
    private let runTask: Task<Void, Never>

    /// How long opening waits for the server to accept a TCP connection.
    public static let connectTimeout: Duration = .seconds(10)

    /// Connects to `url`, checks that the server answers, and migrates the schema.
    ///
    /// - Parameters:
    ///   - url: where the store is; its password, if any, is used and never shown.
    ///   - searchPath: a schema to work in instead of `public` (tests use one per case).
    ///   - migrate: false to open without touching the schema (e.g. a read-only role).
    ///   - clock: what stamps the rows the services write (the system's clock by default).
    public static func open(_ url: PostgresConnectionURL, searchPath: String? = nil, migrate: Bool = true,
                            clock: ShopClock = .system) async throws(ShopError) -> PostgresStore {
        let store = PostgresStore(url: url, searchPath: searchPath, clock: clock)
        do {
            try await store.ping()
            if migrate { try await PostgresSchema.migrate(store.client, logger: store.logger) }
        } catch {
            store.close()
            throw error
        }
        return store
    }

    private init(url: PostgresConnectionURL, searchPath: String?, clock: ShopClock) {
        let tls: PostgresClient.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: url.host, port: url.port, username: url.user,
                                                         password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = Self.connectTimeout
        configuration.options.additionalStartupParameters = [("application_name", "shopsh")]
        if let searchPath {
            configuration.options.additionalStartupParameters.append(("search_path", searchPath))
        }
        let logger = Logger(label: "shopsh.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.url = url
        self.logger = logger
        self.runTask = Task { await client.run() }
        self.displayName = url.database
        self.location = url.description
        let pending = PostgresPendingServices()
        let database = PostgresDatabase(client: client, logger: logger, clock: clock)
        self.services = ShopServices(products: PostgresProductService(database: database),
                                     baskets: PostgresBasketService(database: database), favorites: pending, users: pending,
                                     orders: PostgresOrderService(database: database),
                                     currencies: pending, completions: PostgresCompletionSource(database: database))
    }

    deinit { runTask.cancel() }

    /// Opens one connection of its own (not through the pool, which would keep retrying a server
    /// that refuses it) and runs `SELECT 1`: an unreachable server, a wrong password or a missing
    /// database fails here at once, in one line, with the server's own words.
    func ping() async throws(ShopError) {
        let url = self.url
        do {
            let tls: PostgresConnection.Configuration.TLS = switch url.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            var configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user,
                                                                 password: url.password, database: url.database, tls: tls)
            configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout.components.seconds))
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                _ = try await connection.query("SELECT 1", logger: logger).collect()
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        } catch {
            throw PostgresErrors.shopError(error, doing: "connecting to \(location)")
        }
    }

    public func beginRun() async throws -> any StoreRun {
        throw ShopError.storage("--atomic and --dry-run are not supported on PostgreSQL yet")
    }

    public func seed<T>(_ body: (any ShopSeeder) throws -> T) async throws(ShopError) -> T? {
        throw .storage("seeding a PostgreSQL store is not supported yet")
    }

    /// Stops the pool: its connections close and `run()` returns.
    public func close() {
        runTask.cancel()
    }
}
