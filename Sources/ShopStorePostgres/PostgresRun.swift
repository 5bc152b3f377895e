// PostgresRun: `--atomic` and `--dry-run` on PostgreSQL — one connection of the run's own, one
// server transaction on it, a savepoint per write, and COMMIT or ROLLBACK at the end.

import Logging
import PostgresNIO
import ShopCore
import Synchronization

/// The run's connection and transaction. Commands of a batch run one after another, so calls
/// never overlap; the lock only guards the ended flag against a late call.
final class PostgresRunConnection: Sendable {
    private let leased: PostgresConnections.Leased
    private var connection: PostgresConnection { leased.connection }
    private let logger: Logger
    private let ended = Mutex(false)
    /// Whether a write ran in the run (its commit then keeps a receipt, PostgresExactlyOnce).
    private let wrote = Mutex(false)

    /// Opens the transaction on `leased` (which the run owns and closes at its end).
    static func begin(on leased: PostgresConnections.Leased, logger: Logger) async throws -> PostgresRunConnection {
        try await leased.connection.query("BEGIN", logger: logger)
        return PostgresRunConnection(leased: leased, logger: logger)
    }

    private init(leased: PostgresConnections.Leased, logger: Logger) {
        self.leased = leased
        self.logger = logger
    }

    /// A run dropped without `end` is rolled back by closing its connection (in the background).
    deinit {
        guard !ended.withLock({ $0 }) else { return }
        let connection = leased.connection
        Task.detached { try? await connection.close() }
    }

    /// The connection, while the run is open (every write runs in a savepoint, so a refusal never
    /// ends the run's transaction).
    /// A connection the server closed (a failover, a restart) took the run's transaction with it:
    /// it is refused here, never queried (postgres-nio may leave a query on a connection that is
    /// closing unanswered).
    func connectionInTransaction() throws(ShopError) -> PostgresConnections.Leased {
        if ended.withLock({ $0 }) { throw .storage("the run has ended") }
        if connection.isClosed {
            throw .storage("the connection to the PostgreSQL server was lost during the run, and the server rolled back its transaction: nothing of the run can be kept")
        }
        return leased
    }

    /// Runs `body` inside `SAVEPOINT`; on failure rolls back to it, so the run's transaction goes
    /// on without that command's changes, and rethrows.
    func inSavepoint<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try connectionInTransaction().connection
        wrote.withLock { $0 = true }
        try await connection.query("SAVEPOINT shopsh_command", logger: logger)
        do {
            let value = try await body(connection)
            try await connection.query("RELEASE SAVEPOINT shopsh_command", logger: logger)
            return value
        } catch {
            // If the connection is gone the server has rolled back the whole transaction (the
            // original error says so), and a statement sent into it may never be answered.
            if connection.isClosed || PostgresErrors.sqlState(error)?.hasPrefix("57P") == true {
                try? await connection.close()
            } else {
                _ = try? await connection.query("ROLLBACK TO SAVEPOINT shopsh_command", logger: logger)
                _ = try? await connection.query("RELEASE SAVEPOINT shopsh_command", logger: logger)
            }
            throw error
        }
    }

    /// COMMIT or ROLLBACK, then closes the connection. A run that wrote keeps `receipt` just
    /// before its COMMIT; a COMMIT whose connection broke is thrown as `CommitFailed`.
    /// Returns the receipt kept, if any.
    @discardableResult
    func end(commit: Bool, receipt: CommandReceipt) async throws -> CommandReceipt? {
        guard !ended.withLock({ flag in defer { flag = true }; return flag }) else { return nil }
        if connection.isClosed {
            if commit { throw ShopError.storage("the connection to the PostgreSQL server was lost during the run: the server rolled back every change of it") }
            return nil
        }
        let kept = commit && wrote.withLock({ $0 }) ? receipt : nil
        do {
            if let kept {
                _ = try await connection.query("SELECT \(unescaped: CommandReceipt.keeping(kept))", logger: logger).collect()
            }
        } catch {
            try? await connection.close()
            throw error
        }
        do {
            try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: logger)
        } catch {
            try? await connection.close()
            // A ROLLBACK that fails (the server closed the connection first, in a failover) has
            // nothing left to do: the server rolls back the open transaction of a connection that
            // ends, and this one has ended.
            if commit { throw PostgresErrors.CommitFailed(underlying: error) }
        }
        try? await connection.close()
        return kept
    }
}

/// A run on PostgreSQL: services bound to one connection and transaction.
struct PostgresRun: StoreRun {
    let services: ShopServices
    let connection: PostgresRunConnection
    /// The store's own database (outside the run): where a broken COMMIT is looked up.
    let database: PostgresDatabase

    /// Commits or rolls back. A COMMIT whose connection broke is looked up (PostgresExactlyOnce):
    /// a run kept is `ShopError.keptWithoutAnswer`; one not kept says that nothing of it was kept.
    func end(commit: Bool) async throws {
        let receipt = CommandReceipt(commandID: .random(), step: 1)
        do {
            try await connection.end(commit: commit, receipt: receipt)
        } catch where commit && PostgresErrors.leavesOutcomeUnknown(error) {
            let broke = "the connection to the PostgreSQL server broke while committing the run"
            let kept: Bool
            do {
                kept = try await database.isKept(receipt)
            } catch {
                throw ShopError.storage("\(broke), and no server said whether it was kept (\(PostgresErrors.shopError(error, doing: "asking whether it was kept").message)); look before running it again")
            }
            if kept { throw ShopError.keptWithoutAnswer("\(broke); reconnected: every change of the run was kept") }
            throw ShopError.storage("\(broke); reconnected: it was not kept, and nothing of the run was changed")
        } catch {
            throw PostgresErrors.shopError(error, doing: commit ? "committing the run" : "rolling back the run")
        }
    }
}
