// SQLiteUserLookup: the one place where a USER reference (id, username or email) becomes a user.

import GRDB
import ShopCore

enum SQLiteUserLookup {
    static let columns = "id, username, email, first_name, last_name, phone, role, status, created_at"

    /// The user whose id, username or email (case-insensitive) is `reference`. When none is,
    /// the error names up to three close matches.
    static func find(_ db: Database, _ reference: String) throws -> User {
        let trimmed = reference.trimmingASCIISpaces
        if let id = Int64(trimmed),
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE id = ?"), arguments: [id]) {
            return user(row)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM users WHERE username = ? OR email = ?"),
                                      arguments: [trimmed, trimmed]) {
            return user(row)
        }
        let close = try suggestions(db, trimmed)
        let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"
        throw ShopError.notFound("no user with id, username or email \"\(reference)\"\(hint)")
    }

    /// Usernames that start like `reference`, or are within two edits of it.
    static func suggestions(_ db: Database, _ reference: String) throws -> [String] {
        // Edit distances cost length × length: a pasted paragraph gets no suggestions.
        guard !reference.isEmpty, reference.count <= 64 else { return [] }
        let prefix = String(reference.lowercased().prefix(3))
        let candidates = try String.fetchAll(db, sql: """
            SELECT username FROM users WHERE username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' LIMIT 200
            """, arguments: [LikePattern.prefix(prefix), LikePattern.prefix(prefix)])
        let lower = reference.lowercased()
        let allowed = Swift.max(2, lower.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let distance = EditDistance.between(candidate, lower)
            if distance <= allowed || candidate.lowercased().hasPrefix(lower) { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(3).map { $0.name }
    }

    static func user(_ row: Row) -> User {
        User(id: row[0], username: row[1], email: row[2], firstName: row[3], lastName: row[4], phone: row[5],
             role: UserRole(rawValue: row[6]) ?? .user, status: UserStatus(rawValue: row[7]) ?? .active,
             createdAt: row[8])
    }
}
