// PostgresConnections: the store's connections to the server — opened when a call needs one,
// kept for the next call while they stay open, dropped when the server closed them. A new
// connection goes to the first of the connection string's hosts that answers and is what the
// session asks for (PostgresServerChoice: libpq's target_session_attrs); every host skipped is
// kept with its reason for the one-line error when none will do. After a failover, `reconnect`
// waits (bounded) until a host is what was asked for again — the new primary — and says where
// the session now is.

import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ShopCore
import Synchronization
import PostgresConnectionKit

/// Opens, lends and keeps connections; at most `limit` at once (more callers wait their turn).
actor PostgresConnections {
    /// A connection and what it learnt first: its server process (for cancelling what it runs),
    /// who logged in and the schema's versions.
    struct Leased: Sendable {
        let connection: PostgresConnection
        let greeting: PostgresIdentity.Greeting
        /// The host it went to.
        let host: PostgresServerChoice.Host
        /// Its ReadyForQuery messages, counted (a one-statement change waits for its own).
        let ready: PostgresReadyWatch
        var backendPID: Int32 { greeting.backendPID }
    }

    /// No host could be used: what was asked for and each host's reason, for a line that names
    /// them all (PostgresErrors). Nothing was sent.
    struct NoServer: Error {
        /// ` (target_session_attrs=read-write)`, or empty for `any`.
        var wanted: String
        /// `h1:5432: connection refused`, one per host tried.
        var skipped: [String]
    }

    /// The one NIO thread every connection of the process runs on. postgres-nio's default group has
    /// a thread per core, each started (with its epoll set) before the first connection; shopsh
    /// waits for one answer at a time, so one thread serves all its connections.
    static let eventLoop: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// How long opening a connection waits for the server.
    static let connectTimeout: Int64 = 10
    /// The most connections open at once (a shell runs one command at a time; tests run more).
    static let limit = 16

    private let configuration: @Sendable (PostgresServerChoice.Host, any Channel) throws -> PostgresConnection.Configuration
    /// How long reaching one host may take.
    private let connectTimeout: TimeAmount
    /// Says a line to the operator.
    private let notify: @Sendable (String) -> Void
    /// A connection was lost: the next one made says where the session went.
    private var reconnecting = false
    /// Which hosts, in which order, and what the session asks of the server.
    private var choice: PostgresServerChoice
    /// The server the newest connection went to (whoami, the prompt), readable without the actor.
    nonisolated let serving = ServingPlacement()
    /// Whether the session asks for a server that takes writes (`read-write`, `primary`): a write
    /// refused as read-only then means the server was demoted, and another host may be the primary.
    nonisolated let expectsWrites: Bool
    /// Whether the connection string names several hosts (a formation that fails over).
    nonisolated let hasSeveralHosts: Bool
    /// Whether the session's connections start read-only of its own accord (then a server's
    /// `default_transaction_read_only` cannot be told from it, and is not held against it).
    private let startsReadOnly: @Sendable () -> Bool
    private let logger: Logger
    private var idle: [Leased] = []
    private var open = 0
    private var nextID = 1
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var closed = false

    /// `configuration` is asked for each new connection to a host, over the channel this actor
    /// opened to it (it builds the TLS context).
    init(choice: PostgresServerChoice, startsReadOnly: @escaping @Sendable () -> Bool, connectTimeout: TimeAmount,
         notify: @escaping @Sendable (String) -> Void, logger: Logger,
         configuration: @escaping @Sendable (PostgresServerChoice.Host, any Channel) throws -> PostgresConnection.Configuration) {
        self.connectTimeout = connectTimeout
        self.notify = notify
        self.choice = choice
        self.expectsWrites = choice.attributes == .readWrite || choice.attributes == .primary
        self.hasSeveralHosts = choice.hosts.count > 1
        self.startsReadOnly = startsReadOnly
        self.logger = logger
        self.configuration = configuration
    }

    /// Asks later connections for other servers (a viewer's session, found read-only after it
    /// opened); the kept connections are closed when that changes what is asked for, so the next
    /// call goes where the new choice says.
    func choose(_ newChoice: PostgresServerChoice) async {
        guard newChoice.attributes != choice.attributes else { return }
        choice = newChoice
        serving.forget()   // a move the session asked for is not news for the operator
        let kept = idle
        idle = []
        open -= kept.count
        for leased in kept { try? await leased.connection.close() }
    }

    /// Runs `body` on a connection that is not used by anything else meanwhile, and keeps the
    /// connection for the next call unless it was closed.
    nonisolated func withConnection<T>(_ body: (Leased) async throws -> T) async throws -> T {
        let leased = try await lease()
        do {
            let value = try await body(leased)
            await giveBack(leased)
            return value
        } catch {
            await giveBack(leased)
            throw error
        }
    }

    /// Idle connections still open are closed in the background (postgres-nio requires a
    /// connection to be closed before it goes away; the task keeps each until then).
    deinit {
        let remaining = idle.map(\.connection)
        guard !remaining.isEmpty else { return }
        Task.detached { for connection in remaining { try? await connection.close() } }
    }

    /// A new connection of the caller's own, outside the limit (a run's, a seed's, a cancel's),
    /// to the first host that is what the session asks for. With one host, its own error comes
    /// out as it was; with several, a NoServer naming each host and why it was skipped.
    func connect() async throws -> Leased {
        let choice = self.choice
        var skipped: [String] = []
        var fallback: Leased?
        for host in choice.hosts {
            let leased: Leased
            do {
                leased = try await connect(to: host)
            } catch {
                if choice.hosts.count == 1 { throw error }
                skipped.append(PostgresErrors.hostFailure(host.description, error))
                continue
            }
            let state = PostgresServerChoice.ServerState(inRecovery: leased.greeting.inRecovery,
                                                         readOnly: leased.greeting.readOnlyDefault && !startsReadOnly())
            guard let reason = choice.mismatch(state, strict: true) else { return settled(leased, closing: fallback) }
            if choice.hasSecondPass, fallback == nil, choice.mismatch(state, strict: false) == nil {
                fallback = leased
            } else {
                try? await leased.connection.close()
            }
            skipped.append("\(host): \(reason)")
        }
        if let fallback { return settled(fallback, closing: nil) }
        throw NoServer(wanted: choice.attributes == .any ? "" : " (target_session_attrs=\(choice.attributes.rawValue))",
                       skipped: skipped)
    }

    /// `leased`, recorded as where the session now is; `other` (a fallback not taken) closed.
    /// The operator is told when the session moved to another server, or came back after a
    /// connection was lost (`reconnected to h2:5433 (primary)`).
    private func settled(_ leased: Leased, closing other: Leased?) -> Leased {
        if let other, other.connection !== leased.connection { Task.detached { try? await other.connection.close() } }
        let placement = ServerPlacement(host: leased.host.description, isStandby: leased.greeting.inRecovery)
        let previous = serving.current
        serving.set(placement)
        if reconnecting || (previous.map { $0.host != placement.host } ?? false) {
            reconnecting = false
            notify("reconnected to \(placement.host) (\(placement.kind))")
        }
        return leased
    }

    /// A connection to `host`, greeted (PostgresIdentity). The channel is opened here, not by
    /// postgres-nio, so that a PostgresReadyWatch can join its pipeline. Every step runs on the
    /// event loop (`executor`): between the TCP connect and the startup message nothing may wait
    /// for a thread of the shared pool, which synchronous work can hold for longer than the
    /// server waits for a startup message (authentication_timeout, 60 s: the tests met it).
    private func connect(to host: PostgresServerChoice.Host) async throws -> Leased {
        let id = nextID
        nextID += 1
        return try await withTaskExecutorPreference(Self.executor) { [connectTimeout, configuration, logger] in
            try await Self.open(host, id: id, connectTimeout: connectTimeout, configuration: configuration, logger: logger)
        }
    }

    /// The event loop as a task executor (commands run on it too: PostgresStore.preferredExecutor).
    static let executor = PostgresEventLoopExecutor(eventLoop)

    /// Opens, starts and greets a connection to `host` (see `connect(to:)`).
    private nonisolated static func open(
        _ host: PostgresServerChoice.Host, id: Int, connectTimeout: TimeAmount,
        configuration: @Sendable (PostgresServerChoice.Host, any Channel) throws -> PostgresConnection.Configuration,
        logger: Logger
    ) async throws -> Leased {
        let channel: any Channel
        do {
            let bootstrap = ClientBootstrap(group: eventLoop).connectTimeout(connectTimeout)
            channel = try await (host.isSocket ? bootstrap.connect(unixDomainSocketPath: host.socketPath)
                                               : bootstrap.connect(host: host.name, port: host.port)).get()
        } catch {
            throw ConnectFailed(underlying: error)
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: eventLoop, configuration: try configuration(host, channel),
                                                              id: id, logger: logger)
        } catch {
            try? await channel.close()
            throw error
        }
        do {
            let ready = PostgresReadyWatch()
            try await insert(ready, into: channel)
            return Leased(connection: connection, greeting: try await PostgresIdentity.greet(connection, logger: logger), host: host,
                          ready: ready)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Puts `watch` right before postgres-nio's handler: after TLS when there is TLS (it must see
    /// the plain messages), else first. The connection is idle between messages then.
    private static func insert(_ watch: PostgresReadyWatch, into channel: any Channel) async throws {
        try await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            if let tls = try? pipeline.handler(type: NIOSSLClientHandler.self) {
                try pipeline.addHandler(watch, position: .after(tls))
            } else {
                try pipeline.addHandler(watch, position: .first)
            }
        }.get()
    }

    /// Reaching a host failed before any PostgreSQL message was exchanged.
    struct ConnectFailed: Error {
        var underlying: any Error
    }

    /// After a connection was lost (a failover, a restart): drops the kept connections, then
    /// tries the hosts again every `pause` until one is what the session asks for or `deadline`
    /// passes (then the last attempt's error is thrown), or the task is cancelled (the operator
    /// pressed Ctrl-C: PostgresServerWait). `failed` hears why each attempt failed. The new
    /// connection is kept for the next call; the operator is told where it went.
    func reconnect(until deadline: ContinuousClock.Instant, failed: @Sendable (String) -> Void = { _ in },
                   pause: Duration = .milliseconds(100)) async throws {
        reconnecting = true
        let stale = idle
        idle = []
        open -= stale.count
        for leased in stale { try? await leased.connection.close() }
        while true {
            if closed { throw ShopError.storage("the store is closed") }
            do {
                let leased = try await connect()
                if open < Self.limit {
                    open += 1
                    idle.append(leased)
                    wakeOne()
                } else {
                    try? await leased.connection.close()
                }
                return
            } catch {
                // Cancelled: the operator pressed Ctrl-C, and PostgresServerWait says so.
                try Task.checkCancellation()
                failed(failure(error))
                if ContinuousClock.now + pause >= deadline { throw error }
                try await Task.sleep(for: pause)
            }
        }
    }

    /// Why `error`, from `connect()`, left no connection, host by host (a wait's line).
    func failure(_ error: any Error) -> String {
        if let none = PostgresErrors.innermost(error) as? NoServer { return none.skipped.joined(separator: "; ") }
        guard choice.hosts.count == 1, let host = choice.hosts.first else { return PostgresErrors.connectFailure(error) }
        return PostgresErrors.hostFailure(host.description, PostgresErrors.innermost(error))
    }

    /// What a wait for a server waits for: the kind the session asks for, or else the kind it was on.
    var wanted: String {
        switch choice.attributes {
        case .readWrite, .primary: return "a primary"
        case .standby: return "a standby"
        case .readOnly: return "a read-only server"
        case .preferStandby: return "a standby or the primary"
        case .any: return serving.current.map { "a \($0.kind)" } ?? "a server"
        }
    }

    /// Asks the server to cancel what `pid` is running, over a connection of its own — only when
    /// `pid` is a session of this login on this database. A process number can name another
    /// session by the time the cancel arrives (numbers are reused; this machine's `pid_max` is
    /// 32768), and `pg_cancel_backend` alone stops whatever that session runs: a batch in
    /// another database once stopped with "interrupted" so, as nobody had pressed Ctrl-C.
    func cancel(backendPID pid: Int32) async {
        guard let canceller = try? await connect() else { return }
        _ = try? await canceller.connection.query("""
            SELECT pg_catalog.pg_cancel_backend(a.pid) FROM pg_catalog.pg_stat_activity a
            WHERE a.pid = \(pid) AND a.datname = pg_catalog.current_database() AND a.usename = session_user
            """, logger: logger)
        try? await canceller.connection.close()
    }

    /// Closes every idle connection; later calls fail.
    func closeAll() async {
        closed = true
        let connections = idle
        idle = []
        for leased in connections { try? await leased.connection.close() }
    }

    private func lease() async throws -> Leased {
        while true {
            if closed { throw ShopError.storage("the store is closed") }
            while let leased = idle.popLast() {
                if !leased.connection.isClosed { return leased }
                open -= 1
            }
            if open < Self.limit {
                open += 1
                do {
                    return try await connect()
                } catch {
                    open -= 1
                    wakeOne()
                    throw error
                }
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    private func giveBack(_ leased: Leased) {
        if leased.connection.isClosed || closed {
            open -= 1
            if !leased.connection.isClosed { Task.detached { [leased] in try? await leased.connection.close() } }
        } else {
            idle.append(leased)
        }
        wakeOne()
    }

    private func wakeOne() {
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}

/// The server a store's newest connection went to, readable from any thread.
final class ServingPlacement: Sendable {
    private let value = Mutex<ServerPlacement?>(nil)

    var current: ServerPlacement? { value.withLock { $0 } }

    func set(_ placement: ServerPlacement) {
        value.withLock { $0 = placement }
    }

    /// Until the next connection, no server is known.
    func forget() {
        value.withLock { $0 = nil }
    }
}
