// SQLiteUserLookup: the one place where the SQLite store turns a USER reference (id, username or
// email) into a user, following ShopCore's UserReference (order of lookups, suggestions, error).

import GRDB
import ShopCore

enum SQLiteUserLookup {
    static let columns = "id, username, email, first_name, last_name, phone, role, status, created_at"

    /// The user whose id, username or email (case-insensitive) is `reference`. When none is,
    /// the error names up to three close matches.
    static func find(_ db: Database, _ reference: String) throws -> User {
        let reference = UserReference(reference)
        if let id = reference.id,
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE id = ?"), arguments: [id]) {
            return user(row)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE username = ? OR email = ?"),
                                      arguments: [reference.name, reference.name]) {
            return user(row)
        }
        throw reference.notFound(suggesting: try suggestions(db, reference))
    }

    /// Usernames close to `reference` (see `UserReference.suggestions(among:)`).
    static func suggestions(_ db: Database, _ reference: UserReference) throws -> [String] {
        guard let pattern = reference.candidatePattern else { return [] }
        let candidates = try String.fetchAll(db, sql: """
            SELECT username FROM users WHERE username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' LIMIT ?
            """, arguments: [pattern, pattern, UserReference.maxCandidates])
        return reference.suggestions(among: candidates)
    }

    static func user(_ row: Row) -> User {
        User(id: row[0], username: row[1], email: row[2], firstName: row[3], lastName: row[4], phone: row[5],
             role: UserRole(rawValue: row[6]) ?? .user, status: UserStatus(rawValue: row[7]) ?? .active,
             createdAt: row[8])
    }
}
