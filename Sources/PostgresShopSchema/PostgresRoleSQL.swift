// PostgresRoleSQL: the shopsh role of the session's login, as one SQL expression the server
// evaluates — at a connection's greeting (PostgresIdentity) and in the audit log's `role` column.

import ShopCore

/// The operator's role in SQL.
package enum PostgresRoleSQL {
    /// The shopsh role of `session_user` as SQL text: `admin` for a superuser, a member of `owner`
    /// (an expression giving the role that owns the shop's tables; NULL while there are none, as
    /// whoever opens a new database creates them) or of shopsh_admin; else `support`, `viewer`, or
    /// `none`. Constant SQL: `owner` is one of this module's expressions, never a value. A group
    /// role that does not exist yet is simply not one the user is a member of.
    package static func role(owner: String) -> String {
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
}
