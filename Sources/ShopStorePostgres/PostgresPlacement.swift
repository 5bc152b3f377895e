// PostgresPlacement: which server serves a PostgreSQL session — the host its newest connection
// went to and whether that is the primary or a standby — and, asked of the server, how far a
// standby's replay lags behind the primary (whoami).

import PostgresNIO
import ShopCore

/// The store's ServerPlacementSource.
struct PostgresPlacement: ServerPlacementSource {
    let database: PostgresDatabase

    var current: ServerPlacement? { database.connections.serving.current }

    /// One round trip on a kept connection: the host it is on, whether that server is in
    /// recovery, and its lag: zero when it has replayed all it received, else the age of the last
    /// transaction it replayed (an idle primary does not make a caught-up standby look behind).
    /// A server that went away is followed to the new primary first, as any read follows it.
    func status() async -> ServerPlacement? {
        let logger = database.logger
        return try? await database.readLeased("reading which server serves the session") { leased in
            let query: PostgresQuery = """
                SELECT pg_catalog.pg_is_in_recovery(),
                       CASE WHEN pg_catalog.pg_last_wal_receive_lsn() = pg_catalog.pg_last_wal_replay_lsn() THEN 0
                            ELSE EXTRACT(epoch FROM pg_catalog.clock_timestamp() - pg_catalog.pg_last_xact_replay_timestamp())
                       END::float8
                """
            for try await (inRecovery, lagSeconds) in try await leased.connection.query(query, logger: logger)
                .decode((Bool, Double?).self) {
                let lag = inRecovery ? lagSeconds.map { Duration.milliseconds(Int64(min(max(0, $0 * 1000), 1e15).rounded())) } : nil
                return ServerPlacement(host: leased.host.description, isStandby: inRecovery, replayLag: lag)
            }
            return nil
        }
    }
}
