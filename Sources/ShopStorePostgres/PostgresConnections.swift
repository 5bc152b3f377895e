// PostgresConnections: the store's connections to the server — opened when a call needs one,
// kept for the next call while they stay open, dropped when the server closed them. Unlike a
// pool that retries in the background, a call on a server that is down fails at once with the
// reason, and the first call after the server is back simply connects again.

import Logging
import NIOPosix
import PostgresNIO
import ShopCore

/// Opens, lends and keeps connections; at most `limit` at once (more callers wait their turn).
actor PostgresConnections {
    /// A connection and what it learnt first: its server process (for cancelling what it runs),
    /// who logged in and the schema's versions.
    struct Leased: Sendable {
        let connection: PostgresConnection
        let greeting: PostgresIdentity.Greeting
        var backendPID: Int32 { greeting.backendPID }
    }

    /// The one NIO thread every connection of the process runs on. postgres-nio's default group has
    /// a thread per core, each started (with its epoll set) before the first connection; shopsh
    /// waits for one answer at a time, so one thread serves all its connections.
    static let eventLoop: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// How long opening a connection waits for the server.
    static let connectTimeout: Int64 = 10
    /// The most connections open at once (a shell runs one command at a time; tests run more).
    static let limit = 16

    private let configuration: @Sendable () throws -> PostgresConnection.Configuration
    private let logger: Logger
    private var idle: [Leased] = []
    private var open = 0
    private var nextID = 1
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var closed = false

    /// `configuration` is asked for each new connection (it builds the TLS context).
    init(logger: Logger, configuration: @escaping @Sendable () throws -> PostgresConnection.Configuration) {
        self.logger = logger
        self.configuration = configuration
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

    /// A new connection of the caller's own, outside the limit (a run's, a seed's, a cancel's).
    func connect() async throws -> Leased {
        let id = nextID
        nextID += 1
        let connection = try await PostgresConnection.connect(on: Self.eventLoop, configuration: try configuration(), id: id,
                                                              logger: logger)
        do {
            return Leased(connection: connection, greeting: try await PostgresIdentity.greet(connection, logger: logger))
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Asks the server to cancel what `pid` is running, over a connection of its own.
    func cancel(backendPID pid: Int32) async {
        guard let canceller = try? await connect() else { return }
        _ = try? await canceller.connection.query("SELECT pg_cancel_backend(\(pid))", logger: logger)
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
