// PostgresAuditService: `audit list` / `audit show` on PostgreSQL — newest first unless sorted,
// filtered and paged in SQL, streamed row by row. A viewer reads `audit_log_masked` (emails and
// phones in the changed fields masked by the server); the others read `audit_log`.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// `AuditService` on a PostgreSQL store.
struct PostgresAuditService: AuditService {
    let database: PostgresDatabase

    /// `AuditListing.sortColumns` with text sorted by code point, as SQLite sorts it.
    static let sortColumns: [String: String] = AuditListing.sortColumns.mapValues { column in
        ["operator", "entity", "action"].contains(column) ? column + " COLLATE \"C\"" : column
    }

    /// The columns every query reads, in `Row`'s order (`at` as epoch seconds).
    static let columns = "id, " + PostgresTimes.epochSeconds("at")
        + ", operator, role, command, entity, entity_id, action, before::text, after::text, change_set"

    typealias Row = (Int64, Int64, String, String, String, String, String, String, String?, String?, Int64?)

    /// `audit_log_masked` for a viewer, else `audit_log` (constant SQL).
    private var source: String { database.session.readsMaskedUsers ? "audit_log_masked" : "audit_log" }

    func listAudit(_ filter: AuditFilter, page: Page, _ body: (AuditEntry) throws -> Void) async throws {
        // Newest first unless a sort is asked for.
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: page.sort.isEmpty ? "id DESC" : "id")
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        let operatorName = filter.operatorName, entity = filter.entity?.rawValue, entityID = filter.entityID
        // The times are whole seconds: `until` takes in the whole of its last second.
        let since = filter.since, until = filter.until, changeSet = filter.changeSet, afterID = filter.afterID
        try await database.forEachRow("listing the audit log", needs: .viewer, query: { _ in """
                SELECT \(unescaped: Self.columns) FROM \(unescaped: source)
                WHERE (\(operatorName)::text IS NULL OR operator = \(operatorName))
                  AND (\(entity)::text IS NULL OR entity = \(entity))
                  AND (\(entityID)::text IS NULL OR entity_id = \(entityID))
                  AND at >= COALESCE(\(since)::timestamptz, '-infinity')
                  AND at < COALESCE(\(until)::timestamptz + interval '1 second', 'infinity')
                  AND (\(changeSet)::bigint IS NULL OR change_set = \(changeSet))
                  AND (\(afterID)::bigint IS NULL OR id > \(afterID))
                ORDER BY \(unescaped: terms)
                LIMIT \(limit) OFFSET \(offset)
                """ }) { row in
            try body(Self.entry(try row.decode(Row.self)))
        }
    }

    func auditEntry(_ id: Int64) async throws -> AuditEntry {
        try await database.read("reading the audit log", needs: .viewer) { connection in
            for try await row in try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM \(unescaped: source) WHERE id = \(id)", logger: database.logger
            ).decode(Row.self) {
                return Self.entry(row)
            }
            throw AuditListing.notFound(id)
        }
    }

    func auditOperators() async throws -> [String] {
        try await database.read("listing the audit log's operators", needs: .viewer) { connection in
            var names: [String] = []
            for try await name in try await connection.query(
                "SELECT operator FROM \(unescaped: source) GROUP BY operator ORDER BY operator COLLATE \"C\"", logger: database.logger
            ).decode(String.self) {
                names.append(name)
            }
            return names
        }
    }

    static func entry(_ row: Row) -> AuditEntry {
        AuditEntry(id: row.0, time: ShopClock.timestamp(row.1), operatorName: row.2, role: row.3, command: row.4, entity: row.5,
                   entityID: row.6, action: row.7, before: row.8.flatMap(AuditFields.init(jsonText:)),
                   after: row.9.flatMap(AuditFields.init(jsonText:)), changeSet: row.10)
    }
}
