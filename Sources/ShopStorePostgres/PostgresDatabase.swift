// PostgresDatabase: how the services reach the server — a read on a kept connection, a write in
// one transaction retried (bounded, with backoff) on serialization failures and deadlocks, and
// every error as one ShopError line. Inside a run (`--atomic`, `--dry-run`) both go to the run's
// one connection instead, each write in a savepoint of the run's transaction. While a call runs,
// Ctrl-C cancels its query on the server.

import Logging
import PostgresNIO
import ShopCore
import PostgresConnectionKit
import PostgresShopSchema

/// The connections (or a run's) and the logger, with the read/write discipline every service follows.
struct PostgresDatabase: Sendable {
    let connections: PostgresConnections
    let logger: Logger
    /// What stamps the rows services write (`created_at`, `added_at`…): bind `clock.timestamp()`
    /// as `\(timestamp)::timestamptz` rather than calling `now()`, so tests can fix the time.
    let clock: ShopClock
    /// Cancels a running query on the server when the operator presses Ctrl-C.
    let watcher: PostgresInterruptWatcher
    /// Who logged in and whether the session is read-only (what to read users from, whom errors name).
    let session: PostgresSession
    /// How a call follows the primary when its connection is lost (PostgresFailover).
    let failover: PostgresFailover
    /// Set for a run's services: every call goes to this connection, inside its transaction.
    var run: PostgresRunConnection? = nil

    /// How often a running query looks at `interrupted`.
    static let interruptPoll: Duration = .milliseconds(100)

    /// SQLSTATEs after which a whole transaction is simply run again: serialization failure and deadlock.
    static let retryableStates: Set<String> = ["40001", "40P01"]
    /// How many times a write is tried before its error reaches the operator.
    static let maxAttempts = 5

    /// The same database, bound to `run`'s connection and transaction.
    func joining(_ run: PostgresRunConnection) -> PostgresDatabase {
        var database = self
        database.run = run
        return database
    }

    /// Where user rows are read: `users_masked` for a viewer, else `users` (constant SQL).
    var usersSource: String { session.usersSource }
    var orderAddressesSource: String { session.orderAddressesSource }
    var reviewsSource: String { session.reviewsSource }

    /// Runs `body` on one pooled connection, outside a transaction (in a run: on its connection).
    /// `needs`: the least role that may read this, when not every role may (for the server's refusal).
    func read<T: Sendable>(_ what: String, needs: OperatorRole? = nil,
                           _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        try await readNamed(what, needs: needs, body)
    }

    /// A read, as `read`, that needs the leased connection itself (its host: whoami).
    func readLeased<T: Sendable>(_ what: String, _ body: (PostgresConnections.Leased) async throws -> T) async throws(ShopError) -> T {
        do {
            return try await followingFailover { try await onLeased(body) }
        } catch {
            throw PostgresErrors.shopError(error, doing: what, session: session, needs: nil, writing: false)
        }
    }

    /// A read that not every role may make (ShopOperation's table says who may), as `read`.
    func read<T: Sendable>(_ operation: ShopOperation,
                           _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        try await readNamed(operation.doing, needs: operation.leastRole, body)
    }

    private func readNamed<T: Sendable>(_ what: String, needs: OperatorRole?,
                                        _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        do {
            return try await followingFailover { try await onConnection(body) }
        } catch {
            throw PostgresErrors.shopError(error, doing: what, session: session, needs: needs, writing: false)
        }
    }

    /// A listing: runs the query `makeQuery` gives (it may look things up on the connection
    /// first), as `read` does, and hands each row to `handle` as it arrives (PostgresRowCallback:
    /// without an async step a row). An error thrown while handling a row — the caller's, e.g.
    /// its output's closed pipe — comes out as it was thrown, not as the store's error; the query
    /// stops there.
    func forEachRow(_ what: String, needs: OperatorRole? = nil,
                    query makeQuery: (PostgresConnection) async throws -> PostgresQuery,
                    _ handle: (PostgresRow) throws -> Void) async throws {
        let failure = HandlerFailure()
        do {
            try await followingFailover {
                do {
                    try await onConnection { connection in
                        let query = try await makeQuery(connection)
                        try await PostgresRowCallback.forEachRow(connection, query, logger: logger) { row in
                            failure.handledRows = true
                            do { try handle(row) } catch { failure.error = error; throw error }
                        }
                    }
                } catch where failure.handledRows {
                    // Rows already shown would be shown twice: the listing fails instead.
                    throw ListingBroke(underlying: error)
                }
            }
        } catch {
            if let thrown = failure.error { throw thrown }
            let cause = (error as? ListingBroke)?.underlying ?? error
            throw PostgresErrors.shopError(cause, doing: what, session: session, needs: needs, writing: false)
        }
    }

    /// A one-statement change was answered, and its connection closed before the server said its
    /// transaction was over.
    struct ClosedBeforeCommit: Error {}

    /// A listing's connection broke after some of its rows were shown: not to be run again.
    private struct ListingBroke: Error {
        var underlying: any Error
    }

    /// The first error a row's handler threw (set on the event-loop thread, read after the query's end).
    private final class HandlerFailure: @unchecked Sendable {
        var error: (any Error)?
        /// Whether a row reached the handler.
        var handledRows = false
    }

    /// Runs `body`, a change made by one statement, as the server's implicit transaction of that
    /// statement: no BEGIN or COMMIT, so one round trip. A refusal of the server's own functions
    /// (PostgresRefusal) is thrown in ShopCore's words. Returns nil when the server raised another
    /// error outside a run (a lock it would not wait for, a privilege): nothing was changed, and
    /// the caller's step-by-step path (a transaction of several statements) runs instead. In a
    /// run, `body` runs in a savepoint of the run's transaction: a refusal undoes only its own
    /// statement, and the run goes on as it does after a step-by-step command's refusal.
    /// Outside a run, a connection that breaks while the statement runs leaves its outcome unknown
    /// until its receipt is looked up (PostgresExactlyOnce). The operation names the change and the least role that may make it.
    /// `body` gets the SQL condition that keeps the change's receipt (PostgresExactlyOnce), to
    /// hold true in its statement exactly when it changes something (`true` in a run).
    func change<T: Sendable>(_ operation: ShopOperation,
                             _ body: (PostgresConnection, _ keepingReceipt: String) async throws -> T) async throws(ShopError) -> T? {
        let what = operation.doing, needs = operation.leastRole
        if let run {
            do {
                let leased = try run.connectionInTransaction()
                return try await watching(leased) { try await run.inSavepoint { try await body($0, CommandReceipt.keeping(nil)) } }
            } catch {
                throw PostgresErrors.shopError(error, doing: what, session: session, needs: needs, writing: true)
            }
        }
        let receipt = CommandReceipt.next()
        do {
            return try await exactlyOnce(receipt) { try await followingFailover {
                try await onLeased { leased in
                    let readyBefore = leased.ready.readyCount
                    let value: T
                    do {
                        value = try await body(leased.connection, CommandReceipt.keeping(receipt))
                    } catch let error as PSQLError where error.serverInfo == nil || error.serverInfo?[.sqlState]?.hasPrefix("57P") == true {
                        // The statement commits by itself: a connection that broke, or a session
                        // the server ended, meanwhile may have kept it (PostgresExactlyOnce asks).
                        throw PostgresErrors.CommitFailed(underlying: error)
                    }
                    // The statement's answer (its rows, CommandComplete) comes before its implicit
                    // transaction commits, at Sync, and postgres-nio hands it over at once: only
                    // the ReadyForQuery after it says the commit happened (PostgresReadyWatch). A
                    // connection that ends first (a failover's shutdown) leaves the change unknown.
                    do {
                        try await leased.ready.waitForReady(after: readyBefore)
                    } catch {
                        throw PostgresErrors.CommitFailed(underlying: ClosedBeforeCommit())
                    }
                    return value
                }
            } }
        } catch {
            // A cancel nobody asked for (see `retrying`) rolled the statement back: the
            // step-by-step path runs, as after any other error of the server's.
            let cancelled = PostgresErrors.sqlState(error) == PostgresErrors.queryCanceled && failover.interrupted()
            if let state = PostgresErrors.sqlState(error), PostgresRefusal(rawValue: state) == nil,
               !cancelled, !state.hasPrefix("57P"),
               !(state == PostgresFailover.readOnlyState && connections.expectsWrites) {
                return nil
            }
            throw PostgresErrors.shopError(error, doing: what, session: session, needs: needs, writing: true)
        }
    }

    /// `body` on the run's connection, or on a pooled one; Ctrl-C cancels its query.
    private func onConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await onLeased { leased in try await body(leased.connection) }
    }

    /// `body` with the run's connection, or a pooled one; Ctrl-C cancels its query.
    private func onLeased<T>(_ body: (PostgresConnections.Leased) async throws -> T) async throws -> T {
        if let run {
            let leased = try run.connectionInTransaction()
            return try await watching(leased) { try await body(leased) }
        }
        return try await connections.withConnection { leased in
            try await watching(leased) { try await body(leased) }
        }
    }

    /// Runs `body` in one transaction; on SQLSTATE 40001 or 40P01 the transaction is rolled back by
    /// the server and `body` runs again (at most `maxAttempts` times, waiting 10, 20, 40… ms).
    /// In a run, `body` runs once, in a savepoint: its failure undoes only its own changes.
    /// The operation names the change and the least role the server lets make it (named when it refuses).
    /// `action`: shopsh's word for the change (`add`, `stock`, …), which the server's audit rows
    /// record with the command being run (`AuditContext`); nil for a change that is not audited
    /// (a seed, which the owner marks as such).
    func write<T: Sendable>(_ operation: ShopOperation, action: String?,
                            _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        let what = operation.doing, needs = operation.leastRole
        if let run {
            do {
                let leased = try run.connectionInTransaction()
                return try await watching(leased) {
                    try await run.inSavepoint { connection in
                        try await Self.name(action, receipt: nil, on: connection, logger: logger)
                        return try await body(connection)
                    }
                }
            } catch {
                throw PostgresErrors.shopError(error, doing: what, session: session, needs: needs, writing: true)
            }
        }
        // A change keeps a receipt, so that a broken COMMIT is looked up (PostgresExactlyOnce).
        let receipt = action == nil ? nil : CommandReceipt.next()
        do {
            return try await exactlyOnce(receipt) {
                try await Self.retrying(Self.retryableStates, cancelledUnasked: { !failover.interrupted() }) {
                    try await followingFailover {
                        try await connections.withConnection { leased in
                            try await watching(leased) {
                                try await Self.inTransaction(leased.connection, logger: logger) { connection in
                                    try await Self.name(action, receipt: receipt, on: connection, logger: logger)
                                    return try await body(connection)
                                }
                            }
                        }
                    }
                }
            }
        } catch {
            throw PostgresErrors.shopError(error, doing: what, session: session, needs: needs, writing: true)
        }
    }

    /// Runs `attempt`, a whole transaction, again while it fails with one of `states` (the
    /// server rolled it back): at most `maxAttempts` times, waiting 10, 20, 40… ms between. With
    /// `cancelledUnasked`, also after SQLSTATE 57014 (query_canceled) when it says nobody asked for
    /// the cancel (the operator did not press Ctrl-C): PostgreSQL can end a session's statement so,
    /// "canceling statement due to user request", when no one sent a cancel — seen with eight
    /// sessions adding to one basket line, each one-call function waiting 10 ms for its lock
    /// (`lock_timeout`) before the step-by-step path waits for it; the transaction is rolled back.
    static func retrying<T>(_ states: Set<String>, cancelledUnasked: (() -> Bool)? = nil,
                            _ attempt: () async throws -> T) async throws -> T {
        var tries = 1
        while true {
            do {
                return try await attempt()
            } catch {
                guard tries < maxAttempts, let state = PostgresErrors.sqlState(error),
                      states.contains(state) || (state == PostgresErrors.queryCanceled && cancelledUnasked?() == true)
                else { throw error }
                try? await Task.sleep(for: .milliseconds(10 << (tries - 1)))
                tries += 1
            }
        }
    }

    /// Tells the server's audit triggers (PostgresServerRules) which command makes the changes that
    /// follow in this transaction, and shopsh's word for them, through `shopsh_name_command`
    /// (PostgresHardeningSchema: kept where only the store's owner writes, for this transaction),
    /// and keeps the change's receipt with it (PostgresExactlyOnce), when it has one.
    static func name(_ action: String?, receipt: CommandReceipt?, on connection: PostgresConnection, logger: Logger) async throws {
        guard let action else { return }
        let command = AuditContext.current?.command ?? ""
        _ = try await connection.query("""
            SELECT shopsh_name_command(\(command), \(action)) WHERE \(unescaped: CommandReceipt.keeping(receipt))
            """, logger: logger).collect()
    }

    /// Runs `body`, which queries on `leased`; should the operator press Ctrl-C meanwhile, the
    /// server is asked to cancel the query (it then fails with SQLSTATE 57014: "interrupted").
    private func watching<T>(_ leased: PostgresConnections.Leased, _ body: () async throws -> T) async throws -> T {
        try await watcher.watching(leased.backendPID, body)
    }

    /// BEGIN, `body`, COMMIT; ROLLBACK when `body` fails — unless the server ended the session
    /// (SQLSTATE 57P…) or the connection is gone: the server has rolled back then, and a ROLLBACK
    /// sent into a closing connection may never be answered, so the connection is closed instead.
    static func inTransaction<T>(_ connection: PostgresConnection, logger: Logger,
                                 _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            if connection.isClosed || PostgresErrors.sqlState(error)?.hasPrefix("57P") == true {
                try? await connection.close()
            } else {
                _ = try? await connection.query("ROLLBACK", logger: logger)
            }
            throw error
        }
        do {
            try await connection.query("COMMIT", logger: logger)
        } catch {
            throw PostgresErrors.CommitFailed(underlying: error)
        }
        return value
    }
}
