// PostgresFailover: a call whose connection was lost before anything it sent could have committed —
// the primary went away in a failover, the server restarted, it turned read-only as it was demoted
// — is run again, once a host of the connection string is what the session asks for again (the new
// primary), waiting at most the reconnect timeout; the operator gets one line saying where the
// session went (PostgresConnections). A connection lost while a change was committing is never
// retried: whether it was kept is unknown, and the error says so, naming the command.

import PostgresNIO
import ShopCore

/// How a store follows a failover: how long it waits for a server (PostgresConnections says where
/// the session went).
struct PostgresFailover: Sendable {
    /// How long a call waits for a usable server after its connection was lost; zero: not at all.
    var timeout: Duration
    /// Whether the operator pressed Ctrl-C (a wait for a server ends then).
    var interrupted: @Sendable () -> Bool
    /// Tells the operator something (a wait for a server that lasts, PostgresServerWait).
    var notify: @Sendable (String) -> Void = { _ in }

    /// SQLSTATEs of a session the server ended: admin_shutdown, crash_shutdown, cannot_connect_now.
    static let sessionEndedStates: Set<String> = ["57P01", "57P02", "57P03"]
    /// read_only_sql_transaction: a server that took writes no longer does (it is being demoted).
    static let readOnlyState = "25006"

    /// Whether `error`, from a call outside a run, leaves nothing applied so that the call may run
    /// again on another connection: no host could be used, the connection broke or the server
    /// ended the session before a COMMIT was sent (a broken COMMIT is `CommitFailed`: unknown),
    /// or — when the session needs a server that takes writes — the server refused a write as
    /// read-only.
    static func mayRetry(_ error: any Error, expectsWrites: Bool) -> Bool {
        if error is PostgresErrors.CommitFailed { return false }
        let inner: any Error = if let transaction = error as? PostgresTransactionError,
                                  let cause = transaction.closureError ?? transaction.beginError { cause } else { error }
        if inner is PostgresConnections.NoServer || inner is PostgresConnections.ConnectFailed { return true }
        guard let psql = inner as? PSQLError else { return false }
        if let state = psql.serverInfo?[.sqlState] {
            return sessionEndedStates.contains(state) || (expectsWrites && state == readOnlyState)
        }
        // clientClosedConnection: postgres-nio refused to send on a connection it is closing.
        return [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection].contains(psql.code)
    }
}

extension PostgresDatabase {
    /// Runs `attempt`; when it fails in a way that applied nothing (`PostgresFailover.mayRetry`),
    /// waits for a usable server (PostgresConnections.reconnect), says where the session is now,
    /// and runs it again — until it succeeds, fails otherwise, or the timeout has passed since the
    /// first failure. In a run nothing is retried: the run's transaction went with its connection.
    func followingFailover<T>(_ attempt: () async throws -> T) async throws -> T {
        guard run == nil, failover.timeout > .zero else { return try await attempt() }
        var deadline: ContinuousClock.Instant?
        var wait: PostgresServerWait?
        while true {
            do {
                return try await attempt()
            } catch {
                guard PostgresFailover.mayRetry(error, expectsWrites: connections.expectsWrites) else { throw error }
                let until = deadline ?? ContinuousClock.now + failover.timeout
                deadline = until
                if ContinuousClock.now >= until { throw error }
                let current = if let wait { wait } else {
                    PostgresServerWait(timeout: failover.timeout, wanted: await connections.wanted,
                                       reason: await connections.failure(error), interrupted: failover.interrupted,
                                       notify: failover.notify)
                }
                wait = current
                let connections = self.connections
                try await current.run(until: until) { try await connections.reconnect(until: until, failed: current.failed) }
            }
        }
    }
}
