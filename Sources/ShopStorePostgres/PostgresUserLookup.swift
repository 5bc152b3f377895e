// PostgresUserLookup: the one place where the PostgreSQL store turns a USER reference (id,
// username or email) into a user, following ShopCore's UserReference (order of lookups,
// suggestions, error). Every service that names a user (users, favourites, baskets, orders) uses it.
// A viewer's lookups read the `users_masked` view, by id or username only: its emails are masked.

import Logging
import PostgresNIO
import ShopCore

enum PostgresUserLookup {
    /// The columns every user query reads, in `UserRow`'s order (`created_at` as epoch seconds).
    static let columns = "id, username, email, first_name, last_name, phone, role, status, "
        + PostgresTimes.epochSeconds("created_at")

    /// A user as its columns decode.
    typealias UserRow = (Int64, String, String, String, String, String?, String, String, Int64)

    /// The user whose id, username or email (ignoring case, as the unique indexes on `lower()`
    /// compare them) is `reference`; `lock` reads the row `FOR UPDATE`. When none is, the error
    /// names up to three close matches. `source` is `users` or, for a viewer, `users_masked`
    /// (`PostgresDatabase.usersSource`), where an email cannot be looked up; never locked.
    static func find(_ connection: PostgresConnection, _ reference: String, source: String = "users", lock: Bool = false,
                     logger: Logger) async throws -> User {
        let reference = UserReference(reference)
        let locking = lock ? " FOR UPDATE" : ""
        let table = source == "users_masked" ? "users_masked" : "users"
        let byEmail = table == "users"
        if let id = reference.id {
            for try await row in try await connection.query(
                "SELECT \(unescaped: columns) FROM \(unescaped: table) WHERE id = \(id)\(unescaped: locking)", logger: logger
            ).decode(UserRow.self) {
                return user(row)
            }
        }
        for try await row in try await connection.query("""
            SELECT \(unescaped: columns) FROM \(unescaped: table)
            WHERE lower(username) = lower(\(reference.name)) OR (\(byEmail) AND lower(email) = lower(\(reference.name)))
            LIMIT 1\(unescaped: locking)
            """, logger: logger).decode(UserRow.self) {
            return user(row)
        }
        throw reference.notFound(suggesting: try await suggestions(connection, reference, source: table, logger: logger))
    }

    /// Usernames close to `reference` (see `UserReference.suggestions(among:)`).
    static func suggestions(_ connection: PostgresConnection, _ reference: UserReference, source: String = "users",
                            logger: Logger) async throws -> [String] {
        guard let pattern = reference.candidatePattern else { return [] }
        let table = source == "users_masked" ? "users_masked" : "users"
        let byEmail = table == "users"
        var candidates: [String] = []
        for try await name in try await connection.query("""
            SELECT username FROM \(unescaped: table)
            WHERE lower(username) LIKE \(pattern) ESCAPE '\\' OR (\(byEmail) AND lower(email) LIKE \(pattern) ESCAPE '\\')
            ORDER BY username COLLATE "C" LIMIT \(UserReference.maxCandidates)
            """, logger: logger).decode(String.self) {
            candidates.append(name)
        }
        return reference.suggestions(among: candidates)
    }

    static func user(_ row: UserRow) -> User {
        User(id: row.0, username: row.1, email: row.2, firstName: row.3, lastName: row.4, phone: row.5,
             role: UserRole(rawValue: row.6) ?? .user, status: UserStatus(rawValue: row.7) ?? .active,
             createdAt: ShopClock.timestamp(row.8))
    }
}
