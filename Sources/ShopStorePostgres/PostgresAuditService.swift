// PostgresAuditService: AuditService on PostgreSQL. (Placeholder until the audit_log migration.)

import ShopCore

/// `AuditService` on a PostgreSQL store.
struct PostgresAuditService: AuditService {
    let database: PostgresDatabase

    func listAudit(_ filter: AuditFilter, page: Page, _ body: (AuditEntry) throws -> Void) async throws {
        throw ShopError.storage("the audit log is not kept on PostgreSQL yet")
    }

    func auditEntry(_ id: Int64) async throws -> AuditEntry {
        throw ShopError.storage("the audit log is not kept on PostgreSQL yet")
    }

    func auditOperators() async throws -> [String] { [] }
}
