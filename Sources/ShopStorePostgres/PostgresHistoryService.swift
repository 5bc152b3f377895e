// PostgresHistoryService: `HistoryService` on a PostgreSQL store — the log's start from
// `shop_meta`, the stock ledger after a moment, and change signals pushed by the server:
// a connection of its own LISTENs on the store's audit channel (migration 17), each
// notification naming the first id its statement wrote. When that connection is lost (a
// failover), it connects again to the session's hosts, listens again on the new primary and
// says so; the follower then reads what it missed from the log.

import Logging
import PostgresNIO
import PostgresShopSchema
import ShopCore

/// `HistoryService` on a PostgreSQL store.
struct PostgresHistoryService: HistoryService {
    let database: PostgresDatabase

    /// How long a follower whose connection was lost tries to find a server again.
    static let reconnectWindow: Duration = .seconds(90)
    /// The pause between two tries.
    static let reconnectPause: Duration = .milliseconds(200)

    /// `audit_log_masked` for a viewer, else `audit_log` (constant SQL).
    private var auditSource: String { database.session.readsMaskedUsers ? "audit_log_masked" : "audit_log" }

    func historyStart() async throws -> String? {
        try await database.read("reading from when the audit log answers", needs: .viewer) { connection in
            for try await value in try await connection.query(
                "SELECT value FROM shop_meta WHERE key = \(PostgresHistorySchema.startKey)", logger: database.logger
            ).decode(String.self) {
                return value
            }
            return nil
        }
    }

    func stockMovements(after moment: String) async throws -> [StockMovement] {
        try await database.read("reading the stock ledger", needs: .viewer) { connection in
            var rows: [StockMovement] = []
            for try await row in try await connection.query("""
                SELECT id, product_id, floor(extract(epoch FROM at))::bigint, operator, change, balance, reason, order_id, note
                FROM stock_ledger WHERE at >= \(moment)::timestamptz + interval '1 second' ORDER BY id
                """, logger: database.logger).decode((Int64, Int64, Int64, String, Int64, Int64, String, Int64?, String?).self) {
                rows.append(StockMovement(id: row.0, productID: row.1, at: ShopClock.timestamp(row.2), operatorName: row.3,
                                          change: row.4, balance: row.5, reason: row.6, orderID: row.7, note: row.8))
            }
            return rows
        }
    }

    func lastAuditID() async throws -> Int64 {
        try await database.read("reading the audit log", needs: .viewer) { connection in
            for try await id in try await connection.query(
                "SELECT coalesce(max(id), 0)::bigint FROM \(unescaped: auditSource)", logger: database.logger
            ).decode(Int64.self) {
                return id
            }
            return 0
        }
    }

    func changeSignals() -> AsyncThrowingStream<ChangeSignal, any Error> {
        let database = self.database
        return ChangeSignal.stream { continuation in try await Self.listen(database, continuation) }
    }

    /// Listens until cancelled; after a lost connection, connects again (for up to
    /// `reconnectWindow`) and says where it listens now.
    private static func listen(_ database: PostgresDatabase,
                               _ continuation: AsyncThrowingStream<ChangeSignal, any Error>.Continuation) async throws {
        var lostAt: ContinuousClock.Instant?
        var lastHost: String?
        while !Task.isCancelled {
            let leased: PostgresConnections.Leased
            do {
                leased = try await database.connections.connect()
            } catch {
                try Task.checkCancellation()
                let since = lostAt ?? .now
                lostAt = since
                if ContinuousClock.now - since > reconnectWindow { throw PostgresErrors.shopError(error, doing: "following the audit log") }
                try await Task.sleep(for: reconnectPause)
                continue
            }
            let host = leased.host.description
            do {
                var channel = ""
                for try await name in try await leased.connection.query(PostgresQuery(unsafeSQL: PostgresHistorySchema.channelQuery),
                                                                        logger: database.logger).decode(String.self) {
                    channel = name
                }
                try await leased.connection.listen(on: channel) { notifications in
                    if let lost = lastHost {
                        let moved = lost == host ? "on \(host) again" : "on the new primary \(host) (was \(lost))"
                        continuation.yield(.resumed(note: "following \(moved): the connection was lost; what was missed is read from the audit log"))
                    }
                    lostAt = nil
                    lastHost = host
                    // Whatever was written before the LISTEN took effect.
                    continuation.yield(.changed(from: nil))
                    for try await notification in notifications {
                        let first = notification.payload.split(separator: " ").first.flatMap { Int64($0) }
                        continuation.yield(.changed(from: first))
                    }
                }
            } catch {
                try? await leased.connection.close()
                try Task.checkCancellation()
                if lastHost == nil { lastHost = host }
                let since = lostAt ?? .now
                lostAt = since
                if ContinuousClock.now - since > reconnectWindow { throw PostgresErrors.shopError(error, doing: "following the audit log") }
                try await Task.sleep(for: reconnectPause)
                continue
            }
            try? await leased.connection.close()
        }
    }
}
