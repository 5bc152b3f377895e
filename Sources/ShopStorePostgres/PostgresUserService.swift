// PostgresUserService: customers and staff on PostgreSQL. Field rules are ShopCore's (UserRules),
// references resolve through PostgresUserLookup, listings stream row by row from the server, every
// value is a bound parameter, and passwords are kept only as salted hashes (PasswordHasher) that
// are never read back out of this file. A viewer reads the `users_masked` view (masked emails and
// phones, no hash); checking a password reads the hash, which only admins may (PostgresRoles).

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// Users, their status and passwords on a PostgreSQL server.
struct PostgresUserService: UserService {
    let database: PostgresDatabase

    /// Output field name → SQL expression, for `--sort`. Text sorts by code point (`COLLATE "C"`),
    /// case-insensitively where the SQLite store's columns are `NOCASE`, so both list in one order.
    static let sortColumns: [String: String] = [
        "id": "id", "username": "lower(username) COLLATE \"C\"", "email": "lower(email) COLLATE \"C\"",
        "first_name": "lower(first_name) COLLATE \"C\"", "last_name": "lower(last_name) COLLATE \"C\"",
        "phone": "phone COLLATE \"C\"", "role": "role COLLATE \"C\"", "status": "status COLLATE \"C\"",
        "created_at": "created_at",
    ]

    // MARK: - Reading

    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws {
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: "id")
        let role = filter.role?.rawValue, status = filter.status?.rawValue
        var pattern: String?
        if let search = filter.search?.trimmingASCIISpaces, !search.isEmpty {
            pattern = try LikePattern.contains(search)
        }
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        let source = database.usersSource
        try await database.forEachRow("listing users", query: { _ in """
                SELECT \(unescaped: PostgresUserLookup.columns) FROM \(unescaped: source)
                WHERE (\(role)::text IS NULL OR role = \(role))
                  AND (\(status)::text IS NULL OR status = \(status))
                  AND (\(pattern)::text IS NULL
                       OR lower(username) LIKE \(pattern) ESCAPE '\\' OR lower(email) LIKE \(pattern) ESCAPE '\\'
                       OR lower(first_name) LIKE \(pattern) ESCAPE '\\' OR lower(last_name) LIKE \(pattern) ESCAPE '\\'
                       OR lower(first_name || ' ' || last_name) LIKE \(pattern) ESCAPE '\\')
                ORDER BY \(unescaped: terms)
                LIMIT \(limit) OFFSET \(offset)
                """ }) { row in
            try body(PostgresUserLookup.user(try row.decode(PostgresUserLookup.UserRow.self)))
        }
    }

    func user(_ reference: String) async throws -> User {
        try await database.read("reading a user") { connection in
            try await PostgresUserLookup.find(connection, reference, source: database.usersSource, logger: database.logger)
        }
    }

    // MARK: - Writing

    func addUser(_ new: NewUser) async throws -> User {
        let user = try UserRules.checked(new)
        let stamp = database.clock.timestamp()
        return try await database.write(.addUser, action: "add") { connection in
            // The id first: its lock also orders two adds of one name, so the later one is refused here.
            let id = try await Self.nextID(connection, logger: database.logger)
            try await Self.checkUnique(connection, username: user.username, email: user.email, except: nil, logger: database.logger)
            try await connection.query("""
                INSERT INTO users (id, username, email, first_name, last_name, phone, role, status, created_at)
                VALUES (\(id), \(user.username), \(user.email), \(user.firstName), \(user.lastName), \(user.phone),
                        \(user.role.rawValue), 'active',
                        \(stamp)::timestamptz)
                """, logger: database.logger)
            return try await PostgresUserLookup.find(connection, String(id), logger: database.logger)
        }
    }

    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User {
        guard changes != UserChanges() else {
            throw ShopError.usage("nothing to update: no field is given")
        }
        let username = try changes.username.map { try UserRules.username($0) }
        let email = try changes.email.map { try UserRules.email($0) }
        let firstName = try changes.firstName.map { try UserRules.name($0, field: "first name") }
        let lastName = try changes.lastName.map { try UserRules.name($0, field: "last name") }
        // An empty phone clears the number: `setsPhone` says whether to write `phone` (nil or not).
        let setsPhone = changes.phone != nil
        let phone = try changes.phone.flatMap { try UserRules.phone($0) }
        let role = changes.role?.rawValue
        return try await database.write(.updateUser, action: "update") { connection in
            let user = try await PostgresUserLookup.find(connection, reference, lock: true, logger: database.logger)
            try await Self.checkUnique(connection, username: username, email: email, except: user.id, logger: database.logger)
            try await connection.query("""
                UPDATE users SET
                    username = COALESCE(\(username), username),
                    email = COALESCE(\(email), email),
                    first_name = COALESCE(\(firstName), first_name),
                    last_name = COALESCE(\(lastName), last_name),
                    phone = CASE WHEN \(setsPhone) THEN \(phone) ELSE phone END,
                    role = COALESCE(\(role), role)
                WHERE id = \(user.id)
                """, logger: database.logger)
            return try await PostgresUserLookup.find(connection, String(user.id), logger: database.logger)
        }
    }

    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User {
        try await database.write(.setUserStatus, action: status == .disabled ? "disable" : "enable") { connection in
            var user = try await PostgresUserLookup.find(connection, reference, lock: true, logger: database.logger)
            try await connection.query("UPDATE users SET status = \(status.rawValue) WHERE id = \(user.id)",
                                       logger: database.logger)
            user.status = status
            return user
        }
    }

    func setPassword(_ reference: String, _ password: String) async throws {
        try UserRules.password(password)
        // Resolve first so that an unknown user is reported before the (slow, deliberate) hashing.
        let id = try await database.read("finding a user") { connection in
            try await PostgresUserLookup.find(connection, reference, source: database.usersSource, logger: database.logger).id
        }
        let hash = try PasswordHasher.hash(password)
        try await database.write(.setPassword, action: "passwd") { connection in
            let rows = try await connection.query("UPDATE users SET password_hash = \(hash) WHERE id = \(id) RETURNING id",
                                                  logger: database.logger)
            var updated = false
            for try await _ in rows { updated = true }
            guard updated else { throw ShopError.notFound("user \(reference) was deleted meanwhile; password not set") }
        }
    }

    /// A match against a cheap hash (the demo shop's, or one from a lower cost) replaces it with a
    /// hash at today's cost, unless the password changed meanwhile. Storing the stronger hash is
    /// best effort: when it cannot be written (a read-only session, as a read-only SQLite file
    /// skips it), the check's answer stands and the next successful check tries again. Only an
    /// admin may read the hash (and so check a password) or store a new one. The new hash is
    /// audited (`rehash`), as every change to the users table is.
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool {
        let (id, stored) = try await database.read(.checkPassword) { connection -> (Int64, String?) in
            let user = try await PostgresUserLookup.find(connection, reference, source: database.usersSource, logger: database.logger)
            for try await hash in try await connection.query("SELECT password_hash FROM users WHERE id = \(user.id)",
                                                              logger: database.logger).decode(String?.self) {
                return (user.id, hash)
            }
            return (user.id, nil)
        }
        guard let stored else { return false }   // no password set: nothing matches
        let verdict = try PasswordHasher.verify(password, against: stored)
        let mayWrite = database.session.identity.map { $0.role == .admin && !$0.isReadOnly } ?? true
        if verdict.matches && verdict.needsRehash && mayWrite {
            let stronger = try PasswordHasher.hash(password)
            _ = try? await database.write(.checkPassword, action: "rehash") { connection in
                _ = try await connection.query("""
                    UPDATE users SET password_hash = \(stronger) WHERE id = \(id) AND password_hash = \(stored)
                    """, logger: database.logger)
            }
        }
        return verdict.matches
    }

    func deleteUser(_ reference: String) async throws -> User {
        try await database.write(.deleteUser, action: "delete") { connection in
            let user = try await PostgresUserLookup.find(connection, reference, lock: true, logger: database.logger)
            // The foreign keys take the basket and favourites with the user (the server records only
            // the user's delete); orders stay: orders.user_id is ON DELETE SET NULL and
            // orders.customer keeps the name. (Nobody but the owner may change orders directly.)
            try await connection.query("DELETE FROM users WHERE id = \(user.id)", logger: database.logger)
            return user
        }
    }

    // MARK: - Helpers

    /// Refuses a username or email that another user (not `except`) has, ignoring case. (Two
    /// writers at once are refused by the unique indexes on `lower()`: a conflict too.)
    static func checkUnique(_ connection: PostgresConnection, username: String?, email: String?, except id: Int64?,
                            logger: Logger) async throws {
        if let username {
            for try await other in try await connection.query("""
                SELECT username FROM users WHERE lower(username) = lower(\(username)) AND id IS DISTINCT FROM \(id)
                """, logger: logger).decode(String.self) {
                throw ShopError.conflict("username \(username) is taken (by \(other))")
            }
        }
        if let email {
            for try await other in try await connection.query("""
                SELECT username FROM users WHERE lower(email) = lower(\(email)) AND id IS DISTINCT FROM \(id)
                """, logger: logger).decode(String.self) {
                throw ShopError.conflict("email \(email) already belongs to user \(other)")
            }
        }
    }

    /// The id after the highest one, as SQLite's `INTEGER PRIMARY KEY` gives. Taken under a lock on
    /// the `shop_meta` row `application` (as product ids are), so two writers never pick one id.
    static func nextID(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        _ = try await connection.query("SELECT key FROM shop_meta WHERE key = 'application' FOR UPDATE", logger: logger).collect()
        var highest: Int64 = 0
        for try await value in try await connection.query("SELECT COALESCE(max(id), 0) FROM users", logger: logger)
            .decode(Int64.self) { highest = value }
        let (next, overflow) = max(highest, 0).addingReportingOverflow(1)
        guard !overflow else { throw ShopError.conflict("no user id is free: the highest id is \(highest)") }
        return next
    }
}
