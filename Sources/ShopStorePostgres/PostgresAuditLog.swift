// PostgresAuditLog: writes the audit rows of a change in the change's own transaction (or the
// run's savepoint), all of one call's rows in one INSERT. Only what the change is goes in: the
// server fills in the id, the time, the operator (`session_user`) and their role.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// Writing the audit log; every write service calls `record` inside its `database.write`.
enum PostgresAuditLog {
    /// Records `changes` for the command the shell is running (`AuditContext.current`; empty
    /// without one), in one round trip; nothing for none.
    static func record(_ changes: [AuditChange], on connection: PostgresConnection, logger: Logger) async throws {
        let changes = changes.filter { !$0.changesNothing }
        guard !changes.isEmpty else { return }
        try await connection.query(insert(changes), logger: logger)
    }

    /// Records one change.
    static func record(_ change: AuditChange, on connection: PostgresConnection, logger: Logger) async throws {
        try await record([change], on: connection, logger: logger)
    }

    /// The INSERT of `changes`: the texts as arrays, the before and after sides as one JSON array
    /// each (`null` for a side that does not exist), every value bound.
    static func insert(_ changes: [AuditChange]) -> PostgresQuery {
        let command = AuditContext.current?.command ?? ""
        let before = "[" + changes.map { $0.before?.jsonText ?? "null" }.joined(separator: ",") + "]"
        let after = "[" + changes.map { $0.after?.jsonText ?? "null" }.joined(separator: ",") + "]"
        return """
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            SELECT \(command), c.entity, c.entity_id, c.action,
                   NULLIF(\(before)::jsonb -> (c.n - 1)::int, 'null'::jsonb),
                   NULLIF(\(after)::jsonb -> (c.n - 1)::int, 'null'::jsonb)
            FROM unnest(\(changes.map(\.entity.rawValue))::text[], \(changes.map(\.entityID))::text[],
                        \(changes.map(\.action))::text[]) WITH ORDINALITY AS c(entity, entity_id, action, n)
            ORDER BY c.n
            """
    }
}
