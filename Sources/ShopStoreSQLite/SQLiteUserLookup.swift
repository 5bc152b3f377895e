// SQLiteUserLookup: the one place where a USER reference (id, username or email) becomes a user.

import GRDB
import ShopCore

enum SQLiteUserLookup {
    static let columns = "id, username, email, first_name, last_name, phone, role, status, created_at"

    /// The user whose id, username or email (case-insensitive) is `reference`. When none is,
    /// the error names up to three close matches (`UserReferenceRules`).
    static func find(_ db: Database, _ reference: String) throws -> User {
        let (trimmed, id) = UserReferenceRules.parse(reference)
        if let id,
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE id = ?"), arguments: [id]) {
            return user(row)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE username = ? OR email = ?"),
                                      arguments: [trimmed, trimmed]) {
            return user(row)
        }
        throw UserReferenceRules.notFound(reference, among: try candidates(db, reference))
    }

    /// Usernames that start like `reference` (by username or email), for its suggestions.
    static func candidates(_ db: Database, _ reference: String) throws -> [String] {
        guard let pattern = UserReferenceRules.candidatePattern(reference) else { return [] }
        return try String.fetchAll(db, sql: """
            SELECT username FROM users WHERE username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' LIMIT ?
            """, arguments: [pattern, pattern, UserReferenceRules.maxCandidates])
    }

    static func user(_ row: Row) -> User {
        User(id: row[0], username: row[1], email: row[2], firstName: row[3], lastName: row[4], phone: row[5],
             role: UserRole(rawValue: row[6]) ?? .user, status: UserStatus(rawValue: row[7]) ?? .active,
             createdAt: row[8])
    }
}
