// PostgresIdentity: who logged in to a PostgreSQL store, in the one round trip each new connection
// makes (its greeting) — `session_user`, its shopsh role (owner, superuser or shopsh_admin: admin;
// shopsh_support; shopsh_viewer), whether the server is a hot standby, and whether its
// transactions are read-only by default — and so whether this session may write at all. The same
// round trip brings the connection's server process id (for Ctrl-C) and the schema's versions.

import Logging
import PostgresNIO
import PostgresShopSchema
import ShopCore

/// Who this session is, as the server says.
enum PostgresIdentity {
    /// The owner of the shop's tables in the session's search path (NULL before the first migration).
    static let tablesOwner = "(SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass('products'))"

    /// What a new connection asks first, in one round trip: its server process, who logged in and
    /// the schema's versions (PostgresSchema.versionsCommentStatements; NULL before the first
    /// migration, and for a login that may not read them: it must meet the server's refusal).
    static var greetingQuery: PostgresQuery {
        PostgresQuery(unsafeSQL: """
            SELECT pg_catalog.pg_backend_pid(), session_user::text, \(PostgresRoleSQL.role(owner: tablesOwner)),
                   pg_catalog.pg_is_in_recovery(), pg_catalog.current_setting('default_transaction_read_only'),
                   CASE WHEN pg_catalog.has_table_privilege(pg_catalog.to_regclass('schema_migrations'), 'SELECT')
                        THEN pg_catalog.obj_description(pg_catalog.to_regclass('schema_migrations'), 'pg_class') END
            """)
    }

    /// A new connection's answers to `greetingQuery`.
    struct Greeting: Sendable {
        var backendPID: Int32
        var name: String
        var role: String
        var inRecovery: Bool
        var readOnlyDefault: Bool
        /// The versions the schema's comment lists; nil when there is no schema or no such comment.
        var schemaVersions: Set<Int>?
    }

    /// Asks a new connection `greetingQuery`.
    static func greet(_ connection: PostgresConnection, logger: Logger) async throws -> Greeting {
        for try await row in try await connection.query(greetingQuery, logger: logger)
            .decode((Int32, String, String, Bool, String, String?).self) {
            return Greeting(backendPID: row.0, name: row.1, role: row.2, inRecovery: row.3, readOnlyDefault: row.4 == "on",
                            schemaVersions: row.5.flatMap(PostgresSchema.versions(fromComment:)))
        }
        throw ShopError.storage("the server did not say who logged in")
    }

    /// The operator and any warning about their role.
    struct Found {
        var identity: OperatorIdentity
        var warnings: [String]
        /// Whether the login is a member of a shopsh role (or the owner, or a superuser).
        var hasShopRole = true
    }

    /// Who logged in, from a connection's greeting (an unreachable server, a wrong password or a
    /// missing database fails here, in one line), and the schema versions it saw. A session that
    /// turns out read-only (a viewer, a standby, the server's default) while its connection was
    /// opened writable is made read-only on that connection too; later connections start
    /// read-only (PostgresSession).
    static func identify(_ database: PostgresDatabase, requestedReadOnly: Bool,
                         doing what: String) async throws(ShopError) -> (found: Found, schemaVersions: Set<Int>?) {
        let logger = database.logger
        let first = { try await database.connections.withConnection { leased in
                let greeting = leased.greeting
                let found = found(name: greeting.name, role: greeting.role, inRecovery: greeting.inRecovery,
                                  readOnlyDefault: greeting.readOnlyDefault, requestedReadOnly: requestedReadOnly)
                if found.identity.isReadOnly && !requestedReadOnly {
                    try await leased.connection.query("SET default_transaction_read_only = on", logger: logger)
                }
                return (found, greeting.schemaVersions)
            }
        }
        do {
            // With several hosts (a formation), a start-up that meets a failover waits for the new
            // primary as a command does (at most the reconnect timeout, saying so); one host that
            // does not answer is an error at once, as psql's.
            return try await database.connections.hasSeveralHosts ? database.followingFailover(first) : first()
        } catch {
            throw PostgresErrors.shopError(error, doing: what, session: database.session, writing: false)
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
