// PostgresIdentity: who logged in to a PostgreSQL store, in the round trip that first checks the
// server answers — `session_user`, its shopsh role (owner, superuser or shopsh_admin: admin;
// shopsh_support; shopsh_viewer), whether the server is a hot standby, and whether its
// transactions are read-only by default — and so whether this session may write at all.

import Logging
import PostgresNIO
import ShopCore

enum PostgresIdentity {
    /// The shopsh role of `session_user` as SQL text: `admin` for a superuser, a member of `owner`
    /// (an expression giving the role that owns the shop's tables; NULL while there are none, as
    /// whoever opens a new database creates them) or of shopsh_admin; else `support`, `viewer`, or
    /// `none`. Constant SQL: `owner` is one of this module's expressions, never a value. A group
    /// role that does not exist yet is simply not one the user is a member of.
    static func roleExpression(owner: String) -> String {
        func member(_ role: OperatorRole) -> String {
            """
            EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname = '\(role.serverRoleName)'
                    AND pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER'))
            """
        }
        return """
            CASE WHEN (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = session_user) THEN 'admin'
                 WHEN COALESCE(pg_catalog.pg_has_role(session_user, \(owner), 'MEMBER'), true) THEN 'admin'
                 WHEN \(member(.admin)) THEN 'admin'
                 WHEN \(member(.support)) THEN 'support'
                 WHEN \(member(.viewer)) THEN 'viewer'
                 ELSE 'none' END
            """
    }

    /// The owner of the shop's tables in the session's search path (NULL before the first migration).
    static let tablesOwner = "(SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass('products'))"

    /// What the server said about the session, as one row.
    static var query: PostgresQuery {
        PostgresQuery(unsafeSQL: """
            SELECT session_user::text, \(roleExpression(owner: tablesOwner)),
                   pg_catalog.pg_is_in_recovery(), pg_catalog.current_setting('default_transaction_read_only')
            """)
    }

    /// The operator and any warning about their role.
    struct Found {
        var identity: OperatorIdentity
        var warnings: [String]
        /// Whether the login is a member of a shopsh role (or the owner, or a superuser).
        var hasShopRole = true
    }

    /// Asks the server who logged in, in one round trip (an unreachable server, a wrong password or
    /// a missing database fails here, in one line). A session that turns out read-only (a viewer, a
    /// standby, the server's default) while its connection was opened writable is made read-only
    /// on that connection too; later connections start read-only (PostgresSession).
    static func identify(_ database: PostgresDatabase, requestedReadOnly: Bool, doing what: String) async throws(ShopError) -> Found {
        let logger = database.logger
        return try await database.read(what) { connection -> Found in
            var row: (String, String, Bool, String)?
            for try await values in try await connection.query(query, logger: logger).decode((String, String, Bool, String).self) {
                row = values
            }
            guard let (name, roleText, inRecovery, readOnlyDefault) = row else {
                throw ShopError.storage("\(what): the server did not say who logged in")
            }
            let found = found(name: name, role: roleText, inRecovery: inRecovery, readOnlyDefault: readOnlyDefault == "on",
                              requestedReadOnly: requestedReadOnly)
            if found.identity.isReadOnly && !requestedReadOnly {
                try await connection.query("SET default_transaction_read_only = on", logger: logger)
            }
            return found
        }
    }

    /// The identity the server's answers give (see `identify`).
    static func found(name: String, role roleText: String, inRecovery: Bool, readOnlyDefault: Bool,
                      requestedReadOnly: Bool) -> Found {
        let role = OperatorRole(rawValue: roleText) ?? .viewer
        var warnings: [String] = []
        let hasShopRole = OperatorRole(rawValue: roleText) != nil
        if !hasShopRole {
            warnings.append("\(name) has none of the roles \(roleNames): shopsh treats it as a viewer (read-only); a DBA grants one, e.g. GRANT \(OperatorRole.support.serverRoleName) TO \(quotedIdentifier(name));")
        }
        let reason: String? = if requestedReadOnly { "--read-only" }
            else if role == .viewer { OperatorIdentity.viewerReadOnlyReason }
            else if inRecovery { "a hot standby (read-only replica)" }
            else if readOnlyDefault { "the server's default_transaction_read_only" }
            else { nil }
        return Found(identity: OperatorIdentity(name: name, role: role, readOnlyReason: reason), warnings: warnings,
                     hasShopRole: hasShopRole)
    }

    /// The shopsh group roles, weakest first, as a list for people.
    static let roleNames = OperatorRole.allCases.map(\.serverRoleName).joined(separator: ", ")

    /// A login with no shopsh role that the server lets read nothing of the shop: which grant it lacks.
    static func noShopRole(_ name: String, doing what: String) -> ShopError {
        .conflict("\(name) has none of the roles \(roleNames) and may not read this shop (the server refused \(what)): a DBA grants one, e.g. GRANT \(OperatorRole.viewer.serverRoleName) TO \(quotedIdentifier(name));")
    }

    /// `name` as SQL writes a role: bare when it is a plain lower-case identifier, else in double quotes.
    static func quotedIdentifier(_ name: String) -> String {
        let plain = name.unicodeScalars.enumerated().allSatisfy { index, scalar in
            ("a"..."z").contains(scalar) || scalar == "_" || (index > 0 && (("0"..."9").contains(scalar) || scalar == "$"))
        }
        return plain && !name.isEmpty ? name : "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
