// PostgresExactlyOnce: a change whose connection broke while it committed is looked up, not
// guessed. Each change keeps a receipt in its own transaction (the command's id and the step in
// it, PostgresReceiptSchema); after a broken COMMIT shopsh connects again (through a failover if
// need be) and asks the server whether that receipt was kept. Kept: the command says so and counts
// as done. Not kept: one line says so, and the change runs again, once, with the same receipt, so
// the two runs can never both commit.

import PostgresNIO
import ShopCore
import PostgresShopSchema

extension CommandReceipt {
    /// The SQL condition that keeps this receipt with the statement's transaction (constant SQL:
    /// the id is hexadecimal digits and dashes, the step a number), or `true` for no receipt.
    static func keeping(_ receipt: CommandReceipt?) -> String {
        guard let receipt else { return "true" }
        return "shopsh_keep_receipt('\(receipt.commandID)'::uuid, \(receipt.step)::integer)"
    }
}

extension PostgresErrors {
    /// Whether `error` leaves the outcome of a change unknown: its connection broke (or the server
    /// ended the session) after its COMMIT, or its one committing statement, was sent.
    static func leavesOutcomeUnknown(_ error: any Error) -> Bool {
        if let failed = error as? CommitFailed { return isUnknown(failed) }
        if let transaction = error as? PostgresTransactionError,
           let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
            return leavesOutcomeUnknown(inner)
        }
        return false
    }

    /// Whether a failed COMMIT (or committing statement) may still have been kept.
    static func isUnknown(_ failed: CommitFailed) -> Bool {
        if failed.underlying is PostgresDatabase.ClosedBeforeCommit { return true }
        guard let psql = failed.underlying as? PSQLError else { return false }
        return psql.serverInfo == nil || psql.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    /// Whether `error` is a change run again meeting its own receipt: the first run was kept.
    static func isReceiptKept(_ error: any Error) -> Bool {
        guard let psql = innermost(error) as? PSQLError, let info = psql.serverInfo else { return false }
        return info[.sqlState] == "23505" && info[.constraintName] == PostgresReceiptSchema.primaryKey
    }
}

extension PostgresDatabase {
    /// Runs `attempt`, a whole change in one transaction that keeps `receipt`. When its connection
    /// broke while it committed, the server is asked whether the receipt was kept: if so, the
    /// command is told (`ShopError.keptWithoutAnswer`); if not, the operator is told and the change
    /// runs again, once. A run again that meets its receipt was kept after all. Without a receipt
    /// (a run's write, a seed), `attempt` runs as it is.
    func exactlyOnce<T>(_ receipt: CommandReceipt?, _ attempt: () async throws -> T) async throws -> T {
        guard let receipt else { return try await attempt() }
        var ranAgain = false
        while true {
            do {
                return try await attempt()
            } catch where PostgresErrors.isReceiptKept(error) {
                throw Self.kept
            } catch where PostgresErrors.leavesOutcomeUnknown(error) {
                let kept: Bool
                do {
                    kept = try await isKept(receipt)
                } catch {
                    throw Self.unanswered(error)
                }
                if kept { throw Self.kept }
                if ranAgain {
                    throw ShopError.storage("the connection to the PostgreSQL server broke twice while committing\(Self.commandText): it was not kept either time, and nothing was changed")
                }
                failover.notify("the connection to the PostgreSQL server broke while committing\(Self.commandText): not kept — running it again")
                ranAgain = true
            }
        }
    }

    /// ` (basket add emilys 5)`: the command being run, for the lines of this file.
    private static var commandText: String {
        AuditContext.current.map { " (\($0.command))" } ?? ""
    }

    /// The change was kept; its answer went with the connection.
    private static var kept: ShopError {
        .keptWithoutAnswer("the connection to the PostgreSQL server broke while committing\(commandText); reconnected: the change was kept (its answer was lost)")
    }

    /// No server answered whether the change was kept, within the reconnect timeout.
    private static func unanswered(_ error: any Error) -> ShopError {
        let why = PostgresErrors.shopError(error, doing: "asking whether it was kept").message
        return .storage("the connection to the PostgreSQL server broke while committing\(commandText), and no server said whether it was kept (\(why)); look before running it again")
    }

    /// Whether the change keeping `receipt` was committed: asked on a connection of the
    /// session's hosts (waiting for a new primary as any call does), after the transaction that
    /// may hold the receipt has ended.
    func isKept(_ receipt: CommandReceipt) async throws -> Bool {
        try await followingFailover {
            try await connections.withConnection { leased in
                let rows = try await leased.connection.query("""
                    SELECT shopsh_command_kept(\(receipt.commandID.description)::uuid, \(receipt.step)::integer)
                    """, logger: logger)
                for try await kept in rows.decode(Bool.self) { return kept }
                throw ShopError.storage("the server did not answer whether the change was kept")
            }
        }
    }
}
