// PostgresUserLookup: where a USER reference (id, username or email) becomes a user on PostgreSQL,
// by ShopCore's UserReferenceRules (the same rule the SQLite store follows).

import Logging
import PostgresNIO
import ShopCore

enum PostgresUserLookup {
    /// The columns every user query reads, in `UserRow`'s order (`created_at` as whole seconds
    /// since 1970, written out by `ShopClock.timestamp`).
    static let columns = """
        id, username, email, first_name, last_name, phone, role, status,
        floor(extract(epoch FROM created_at))::bigint
        """

    /// A user as its columns decode.
    typealias UserRow = (Int64, String, String, String, String, String?, String, String, Int64)

    /// The user whose id, username or email (without regard to case) is `reference`; `lock` reads
    /// the row `FOR NO KEY UPDATE`. When none is, the error names up to three close matches.
    static func find(_ connection: PostgresConnection, _ reference: String, lock: Bool = false,
                     logger: Logger) async throws -> User {
        let (trimmed, id) = UserReferenceRules.parse(reference)
        let locking = lock ? " FOR NO KEY UPDATE" : ""
        if let id {
            for try await row in try await connection.query(
                "SELECT \(unescaped: columns) FROM users WHERE id = \(id)\(unescaped: locking)", logger: logger
            ).decode(UserRow.self) {
                return user(row)
            }
        }
        for try await row in try await connection.query("""
            SELECT \(unescaped: columns) FROM users
            WHERE lower(username) = lower(\(trimmed)) OR lower(email) = lower(\(trimmed))\(unescaped: locking)
            """, logger: logger).decode(UserRow.self) {
            return user(row)
        }
        throw UserReferenceRules.notFound(reference, among: try await candidates(connection, reference, logger: logger))
    }

    /// Usernames that start like `reference` (by username or email), for its suggestions.
    static func candidates(_ connection: PostgresConnection, _ reference: String, logger: Logger) async throws -> [String] {
        guard let pattern = UserReferenceRules.candidatePattern(reference) else { return [] }
        var names: [String] = []
        for try await name in try await connection.query("""
            SELECT username FROM users
            WHERE lower(username) COLLATE "C" LIKE \(pattern) ESCAPE '\\' OR lower(email) COLLATE "C" LIKE \(pattern) ESCAPE '\\'
            LIMIT \(UserReferenceRules.maxCandidates)
            """, logger: logger).decode(String.self) {
            names.append(name)
        }
        return names
    }

    static func user(_ row: UserRow) -> User {
        User(id: row.0, username: row.1, email: row.2, firstName: row.3, lastName: row.4, phone: row.5,
             role: UserRole(rawValue: row.6) ?? .user, status: UserStatus(rawValue: row.7) ?? .active,
             createdAt: ShopClock.timestamp(row.8))
    }
}
