// PostgresStore: a shop on a PostgreSQL server (issue 12). Opening one connects, asks the server
// who logged in (PostgresIdentity), migrates the schema unless the session is read-only, and hands
// out the services; runs (`--atomic`, `--dry-run`) and seeds get a connection of their own.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit
import PostgresConnectionKit

/// A shop store on a PostgreSQL server, reached through postgres-nio connections.
public final class PostgresStore: ShopStore {
    public let services: ShopServices
    /// The database's name (the prompt shows it; the history file is named after it).
    public let displayName: String
    /// The URL, without its password.
    public let location: String
    public var warnings: [String] { openingWarnings + database.session.warnings }
    /// The role that logged in (`session_user`), its shopsh role, and why the session is read-only.
    public var identity: OperatorIdentity { database.session.identity ?? OperatorIdentity(name: settings.user, role: .viewer) }

    /// The connections, logger and clock as the services use them.
    let database: PostgresDatabase
    /// Where the store is (with its password, which is never shown).
    private let settings: PostgresConnectionString
    /// What the connection string's reading found for the operator (e.g. an ignored password file).
    private let openingWarnings: [String]
    /// postgres-nio's logging, off: errors reach the operator as ShopError instead.
    let logger: Logger

    /// Connects to the first of `settings`' hosts that is what the session asks for, checks that
    /// the server answers, and migrates the schema.
    ///
    /// - Parameters:
    ///   - settings: where the store is; its password, if any, is used and never shown.
    ///   - environment: where the password file is (`PGPASSFILE`, `HOME`), read per host.
    ///   - searchPath: a schema to work in instead of `public` (tests use one per case).
    ///   - migrate: false to open without touching the schema (e.g. for completion). A read-only
    ///     session never migrates: a schema that is not current is then one line.
    ///   - readOnly: `--read-only`: every connection's transactions are read-only.
    ///   - clock: what stamps the rows the services write (the system's clock by default).
    ///   - interrupted: whether the operator pressed Ctrl-C; a query running then is cancelled on the server.
    ///   - reconnectTimeout: how long a call whose connection was lost waits for a usable server
    ///     (the new primary after a failover) before it fails; zero: it fails at once.
    ///   - notify: says a line to the operator (where the session went after a failover; a wait for a server that lasts).
    public static func open(_ settings: PostgresConnectionString, environment: [String: String] = [:],
                            searchPath: String? = nil, migrate: Bool = true,
                            readOnly: Bool = false, clock: ShopClock = .system,
                            interrupted: @escaping @Sendable () -> Bool = { false },
                            reconnectTimeout: Duration = PostgresStore.defaultReconnectTimeout,
                            notify: @escaping @Sendable (String) -> Void = { _ in }) async throws(ShopError) -> PostgresStore {
        let failover = PostgresFailover(timeout: reconnectTimeout, interrupted: interrupted, notify: notify)
        let store = PostgresStore(settings: settings, environment: environment, searchPath: searchPath, readOnly: readOnly,
                                  clock: clock, failover: failover, notify: notify)
        var found: PostgresIdentity.Found?
        do {
            let (identified, schemaVersions) = try await PostgresIdentity.identify(store.database, requestedReadOnly: readOnly,
                                                                                   doing: "connecting to \(store.location)")
            found = identified
            store.database.session.identify(identified.identity, warnings: identified.warnings)
            if migrate {
                if let reason = identified.identity.readOnlyReason {
                    try await PostgresSchema.checkCurrent(store.database, readOnlyReason: reason, known: schemaVersions)
                } else {
                    try await PostgresSchema.migrate(store.database, known: schemaVersions)
                }
            }
            // A viewer writes nothing: like a --read-only session, it may be served by a standby.
            if identified.identity.role == .viewer && !readOnly {
                await store.database.connections.choose(PostgresServerChoice(settings, readOnly: true))
            }
        } catch {
            store.close()
            // A login with no shopsh role and no grant of its own: say which grant it lacks.
            if let found, !found.hasShopRole, PostgresErrors.isPermissionRefusal(error) {
                throw PostgresIdentity.noShopRole(found.identity.name, doing: "reading the schema version")
            }
            throw error
        }
        return store
    }

    private init(settings: PostgresConnectionString, environment: [String: String], searchPath: String?, readOnly: Bool,
                 clock: ShopClock, failover: PostgresFailover, notify: @escaping @Sendable (String) -> Void) {
        let logger = Logger(label: "shopsh.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let session = PostgresSession(readOnly: readOnly)
        let choice = PostgresServerChoice(settings, readOnly: readOnly)
        // libpq's connect_timeout (at least 2 s; bounded here so that no value can overflow).
        let connectTimeout = settings.connectTimeout.map { Int64(min(max($0, 2), 86_400)) } ?? PostgresConnections.connectTimeout
        let connections = PostgresConnections(choice: choice, startsReadOnly: { session.isReadOnly },
                                              connectTimeout: .seconds(connectTimeout), notify: notify,
                                              logger: logger) { host, channel in
            // A read-only session's connections start read-only: the server refuses every write.
            // No JIT: shopsh's statements are short, and a report's estimate (a correlated look-up
            // per guessed group) passes jit_above_cost, so compiling took 250 ms of a 70 ms query.
            let parameters = [("application_name", settings.applicationName ?? "shopsh"), ("jit", "off")]
                + (searchPath.map { [("search_path", $0)] } ?? [])
                + (session.isReadOnly ? [("default_transaction_read_only", "on")] : [])
            let password = settings.password(for: host, environment: environment).password
            let tls: PostgresConnection.Configuration.TLS = host.isSocket ? .disable
                : try PostgresTLS.configuration(settings, environment: environment)
            var configuration = PostgresConnection.Configuration(establishedChannel: channel, tls: tls, username: settings.user,
                                                                 password: password, database: settings.database)
            // The name TLS checks and sends (SNI): a host name, never an address (SNI takes none).
            if !host.isSocket && !Self.isAddress(host.name) { configuration.options.tlsServerName = host.name }
            configuration.options.connectTimeout = .seconds(connectTimeout)
            configuration.options.additionalStartupParameters = parameters
            return configuration
        }
        self.settings = settings
        self.openingWarnings = settings.warnings(environment: environment)
        self.logger = logger
        self.displayName = settings.database
        self.location = settings.description
        let watcher = PostgresInterruptWatcher(interrupted: failover.interrupted) { [connections] pid in
            await connections.cancel(backendPID: pid)
        }
        self.database = PostgresDatabase(connections: connections, logger: logger, clock: clock, watcher: watcher,
                                         session: session, failover: failover)
        self.services = Self.services(on: database)
    }

    /// Whether `name` is an IPv4 or IPv6 address rather than a host name.
    static func isAddress(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }

    /// How long a call whose connection was lost waits for a usable server, unless told otherwise.
    public static let defaultReconnectTimeout: Duration = .seconds(30)

    /// The event loop of the store's connections (PostgresEventLoopExecutor).
    public var preferredExecutor: (any TaskExecutor)? { PostgresConnections.executor }

    /// The server that serves the session (whoami, `set`, the prompt).
    public var placement: (any ServerPlacementSource)? { PostgresPlacement(database: database) }

    /// Every service, reaching the server through `database` (kept connections, or a run's).
    static func services(on database: PostgresDatabase) -> ShopServices {
        ShopServices(products: PostgresProductService(database: database),
                     baskets: PostgresBasketService(database: database),
                     favorites: PostgresFavoritesService(database: database),
                     users: PostgresUserService(database: database),
                     addresses: PostgresAddressService(database: database),
                     orders: PostgresOrderService(database: database),
                     notes: PostgresNoteService(database: database),
                     shipments: PostgresShipmentService(database: database),
                     coupons: PostgresCouponService(database: database),
                     reviews: PostgresReviewService(database: database),
                     currencies: PostgresCurrencyService(database: database),
                     audit: PostgresAuditService(database: database),
                     history: PostgresHistoryService(database: database),
                     completions: PostgresCompletionSource(database: database), clock: database.clock)
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
            return PostgresRun(services: Self.services(on: database.joining(run)), connection: run, database: database)
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
