// PostgresDatabase: how the services reach the server — a read on a pooled connection, a write in
// one transaction retried (bounded, with backoff) on serialization failures and deadlocks, and
// every error as one ShopError line.

import Logging
import PostgresNIO
import ShopCore

/// The pool and its logger, with the read/write discipline every service follows.
struct PostgresDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// What stamps the rows services write (`created_at`, `added_at`…): bind `clock.timestamp()`
    /// as `\(timestamp)::timestamptz` rather than calling `now()`, so tests can fix the time.
    let clock: ShopClock

    /// SQLSTATEs after which a whole transaction is simply run again: serialization failure and deadlock.
    static let retryableStates: Set<String> = ["40001", "40P01"]
    /// How many times a write is tried before its error reaches the operator.
    static let maxAttempts = 5

    /// Runs `body` on one pooled connection, outside a transaction.
    func read<T: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        do {
            return try await client.withConnection { connection in try await body(connection) }
        } catch {
            throw PostgresErrors.shopError(error, doing: what)
        }
    }

    /// Runs `body` in one transaction; on SQLSTATE 40001 or 40P01 the transaction is rolled back by
    /// the server and `body` runs again (at most `maxAttempts` times, waiting 10, 20, 40… ms).
    func write<T: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> T) async throws(ShopError) -> T {
        var attempt = 1
        while true {
            do {
                return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch {
                if attempt < Self.maxAttempts, let state = PostgresErrors.sqlState(error), Self.retryableStates.contains(state) {
                    try? await Task.sleep(for: .milliseconds(10 << (attempt - 1)))
                    attempt += 1
                    continue
                }
                throw PostgresErrors.shopError(error, doing: what)
            }
        }
    }
}
