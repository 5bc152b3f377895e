// SQLiteUserService: UserService on SQLite. Listings stream from a cursor; every write is one
// transaction; passwords are kept only as salted hashes (PasswordHasher) and never read back out.

import GRDB
import ShopCore
import ShopStoreKit

struct SQLiteUserService: UserService {
    let database: DatabaseQueue
    let clock: ShopClock

    /// Output field name → SQL expression, for `--sort`.
    static let sortColumns: [String: String] = [
        "id": "id", "username": "username", "email": "email", "first_name": "first_name COLLATE NOCASE",
        "last_name": "last_name COLLATE NOCASE", "phone": "phone", "role": "role", "status": "status",
        "created_at": "created_at",
    ]

    // MARK: - Reading

    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws {
        let (where_, arguments) = try Self.whereClause(filter)
        let sql = "SELECT \(SQLiteUserLookup.columns) FROM users" + where_
            + (try SQLPaging.clause(page, sortColumns: Self.sortColumns, tieBreaker: "id"))
        try database.shopRead { db in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                try body(SQLiteUserLookup.user(row))
            }
        }
    }

    func user(_ reference: String) async throws -> User {
        try database.shopRead { db in try SQLiteUserLookup.find(db, reference) }
    }

    // MARK: - Writing

    func addUser(_ new: NewUser) async throws -> User {
        let user = try UserRules.checked(new)
        return try database.shopWrite { db in
            try Self.checkUnique(db, username: user.username, email: user.email, except: nil)
            try db.execute(sql: """
                INSERT INTO users (username, email, first_name, last_name, phone, role, status, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'active', ?)
                """, arguments: [user.username, user.email, user.firstName, user.lastName, user.phone, user.role.rawValue,
                                 clock.timestamp()])
            let added = try SQLiteUserLookup.find(db, String(db.lastInsertedRowID))
            try audit(.user("add", before: nil, after: added), db)
            return added
        }
    }

    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User {
        guard changes != UserChanges() else {
            throw ShopError.usage("nothing to update: no field is given")
        }
        var assignments: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        func set(_ column: String, _ value: (any DatabaseValueConvertible)?) {
            assignments.append("\(column) = ?")
            arguments.append(value)
        }
        let username = try changes.username.map { try UserRules.username($0) }
        let email = try changes.email.map { try UserRules.email($0) }
        if let username { set("username", username) }
        if let email { set("email", email) }
        if let firstName = changes.firstName { set("first_name", try UserRules.name(firstName, field: "first name")) }
        if let lastName = changes.lastName { set("last_name", try UserRules.name(lastName, field: "last name")) }
        // An empty --phone clears the number.
        if let phone = changes.phone { set("phone", try UserRules.phone(phone)) }
        if let role = changes.role { set("role", role.rawValue) }
        return try database.shopWrite { db in
            let user = try SQLiteUserLookup.find(db, reference)
            try Self.checkUnique(db, username: username, email: email, except: user.id)
            try db.execute(sql: "UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = ?",
                           arguments: StatementArguments(arguments + [user.id]))
            let updated = try SQLiteUserLookup.find(db, String(user.id))
            try audit(.user("update", before: user, after: updated), db)
            return updated
        }
    }

    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User {
        try database.shopWrite { db in
            let before = try SQLiteUserLookup.find(db, reference)
            try db.execute(sql: "UPDATE users SET status = ? WHERE id = ?", arguments: [status.rawValue, before.id])
            var user = before
            user.status = status
            if user != before { try audit(.user(status == .disabled ? "disable" : "enable", before: before, after: user), db) }
            return user
        }
    }

    func setPassword(_ reference: String, _ password: String) async throws {
        try UserRules.password(password)
        // Resolve first so that an unknown user is reported before the (slow, deliberate) hashing.
        let id = try database.shopRead { db in try SQLiteUserLookup.find(db, reference).id }
        let hash = try PasswordHasher.hash(password)
        try database.shopWrite { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, id])
            guard db.changesCount == 1 else {
                throw ShopError.notFound("user \(reference) was deleted meanwhile; password not set")
            }
            try audit(.password(userID: id), db)
        }
    }

    /// A match against a cheap hash (the demo shop's, or one from a lower cost) replaces it with a
    /// hash at today's cost, unless the store is read-only or the password changed meanwhile.
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool {
        let (id, stored) = try database.shopRead { db -> (Int64, String?) in
            let user = try SQLiteUserLookup.find(db, reference)
            return (user.id, try String.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [user.id]))
        }
        guard let stored else { return false }   // no password set: nothing matches
        let verdict = try PasswordHasher.verify(password, against: stored)
        if verdict.matches && verdict.needsRehash && !database.configuration.readonly {
            let stronger = try PasswordHasher.hash(password)
            try database.shopWrite { db in
                try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?",
                               arguments: [stronger, id, stored])
                // The hash changed (the password did not): recorded as every store records it.
                if db.changesCount > 0 { try audit(.password(userID: id, action: "rehash"), db) }
            }
        }
        return verdict.matches
    }

    func deleteUser(_ reference: String) async throws -> User {
        try database.shopWrite { db in
            let user = try SQLiteUserLookup.find(db, reference)
            // The foreign keys would cascade too; being explicit keeps this true whatever the pragma.
            try db.execute(sql: "DELETE FROM basket_lines WHERE user_id = ?", arguments: [user.id])
            try db.execute(sql: "DELETE FROM favorites WHERE user_id = ?", arguments: [user.id])
            // Orders stay: orders.user_id is ON DELETE SET NULL and orders.customer keeps the name.
            try db.execute(sql: "UPDATE orders SET user_id = NULL WHERE user_id = ?", arguments: [user.id])
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [user.id])
            try audit(.user("delete", before: user, after: nil), db)
            return user
        }
    }

    // MARK: - Helpers

    private func audit(_ change: AuditChange, _ db: Database) throws {
        try SQLiteAuditLog.record(change, in: db, at: clock.timestamp())
    }

    /// Refuses a username or email that another user (not `except`) has, ignoring case.
    static func checkUnique(_ db: Database, username: String?, email: String?, except id: Int64?) throws {
        if let username,
           let other = try String.fetchOne(db, sql: "SELECT username FROM users WHERE username = ? AND id IS NOT ?",
                                           arguments: [username, id]) {
            throw ShopError.conflict("username \(username) is taken (by \(other))")
        }
        if let email,
           let other = try String.fetchOne(db, sql: "SELECT username FROM users WHERE email = ? AND id IS NOT ?",
                                           arguments: [email, id]) {
            throw ShopError.conflict("email \(email) already belongs to user \(other)")
        }
    }

    static func whereClause(_ filter: UserFilter) throws -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        SQLConditions.add("role = ?", filter.role.map { $0.rawValue }, to: &conditions, &arguments)
        SQLConditions.add("status = ?", filter.status.map { $0.rawValue }, to: &conditions, &arguments)
        if let search = filter.search?.trimmingASCIISpaces, !search.isEmpty {
            let pattern = try LikePattern.contains(search)
            conditions.append("""
                (shop_fold(username) LIKE ? ESCAPE '\\' OR shop_fold(email) LIKE ? ESCAPE '\\' \
                OR shop_fold(first_name) LIKE ? ESCAPE '\\' OR shop_fold(last_name) LIKE ? ESCAPE '\\' \
                OR shop_fold(first_name || ' ' || last_name) LIKE ? ESCAPE '\\')
                """)
            arguments.append(contentsOf: [pattern, pattern, pattern, pattern, pattern])
        }
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, StatementArguments(arguments))
    }
}
