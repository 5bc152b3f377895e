// PostgresRoles: the server roles of issue 13 — NOLOGIN group roles shopsh_viewer, shopsh_support
// and shopsh_admin (each a member of the one before, so grants inherit) and the grants that make
// the server itself refuse what a role may not do, also to someone who connects with psql:
//
//   role     reads                                         changes
//   viewer   every table but users and audit_log, and      nothing
//            users_masked / audit_log_masked instead
//   support  + users (all but password_hash), audit_log    + basket_lines, favorites; orders only through
//                                                          shopsh_checkout (a customer's basket at the
//                                                          catalogue's prices) and shopsh_set_order_status
//                                                          (the status machine; cancelling restocks)
//   admin    + users' password hashes                      + products, users, currencies, currency_rates,
//                                                          shop_meta; rates also through shopsh_store_rates
//
// Nobody but the store's owner writes orders, order lines or the audit log directly: the server's
// triggers record every change (PostgresServerRules). A DBA grants one role to each login:
// `GRANT shopsh_support TO alice;`.

import Logging
import PostgresNIO
import ShopCore

/// Creates the group roles and (re)applies their grants on a store's schema.
public enum PostgresRoles {
    /// The shop's tables (without audit_log and the masking views), as the grants name them.
    static let shopTables = "shop_meta, products, users, basket_lines, favorites, orders, order_lines, currencies, currency_rates"

    /// The tables an admin may change directly (every change recorded by the server's triggers):
    /// not orders and their lines, which change only through the operations below.
    static let adminTables = "shop_meta, products, users, basket_lines, favorites, currencies, currency_rates"

    /// The functions through which support changes what it may not change directly: the basket's
    /// row lock, checkout and an order's status.
    static let supportFunctions = "shopsh_lock_basket(BIGINT), shopsh_checkout(BIGINT), shopsh_set_order_status(BIGINT, TEXT)"

    /// The functions only an admin may call: storing a file's exchange rates (one audit row).
    static let adminFunctions = "shopsh_store_rates(DATE[], TEXT[], NUMERIC[])"

    /// The three group roles, weakest first, for statements (constant SQL).
    static let groupRoles = OperatorRole.allCases.map(\.serverRoleName).joined(separator: ", ")

    /// The statements of one set-up, in one transaction; idempotent. Constant SQL: the one
    /// identifier that varies, the schema, is quoted by the server (`format('%I')`).
    static var statements: [String] {
        let viewer = OperatorRole.viewer.serverRoleName, support = OperatorRole.support.serverRoleName
        let admin = OperatorRole.admin.serverRoleName
        let create = OperatorRole.allCases.map { role in
            "IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '\(role.serverRoleName)') THEN CREATE ROLE \(role.serverRoleName) NOLOGIN INHERIT; END IF;"
        }.joined(separator: "\n")
        return [
            """
            DO $$ BEGIN
            \(create)
            IF NOT pg_catalog.pg_has_role('\(support)', '\(viewer)', 'MEMBER') THEN GRANT \(viewer) TO \(support); END IF;
            IF NOT pg_catalog.pg_has_role('\(admin)', '\(support)', 'MEMBER') THEN GRANT \(support) TO \(admin); END IF;
            EXECUTE format('GRANT USAGE ON SCHEMA %I TO \(viewer)', current_schema());
            END $$
            """,
        ] + grants
    }

    /// The grants of a set-up (the roles exist): what every role may do on this schema's objects.
    static var grants: [String] {
        let viewer = OperatorRole.viewer.serverRoleName, support = OperatorRole.support.serverRoleName
        let admin = OperatorRole.admin.serverRoleName
        return [
            // Start from nothing, so that running it again re-applies exactly these grants.
            "REVOKE ALL ON \(shopTables), audit_log, schema_migrations, users_masked, audit_log_masked FROM \(groupRoles)",
            "REVOKE ALL ON FUNCTION \(supportFunctions), \(adminFunctions) FROM \(groupRoles)",
            // viewer: reads all but users and audit_log, which it reads masked; writes nothing.
            """
            GRANT SELECT ON shop_meta, products, basket_lines, favorites, orders, order_lines, currencies, currency_rates,
                            schema_migrations, users_masked, audit_log_masked TO \(viewer)
            """,

            // support: the customers' data (never a password hash), baskets, favourites; checkout and
            // order status only through the owner's functions. Nobody writes the audit log: the server does.
            "GRANT SELECT (id, username, email, first_name, last_name, phone, role, status, created_at) ON users TO \(support)",
            "GRANT SELECT ON audit_log TO \(support)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON basket_lines, favorites TO \(support)",
            "GRANT EXECUTE ON FUNCTION \(supportFunctions) TO \(support)",
            // admin: the catalogue, the customers, the rates; orders stay the operations' (inherited).
            "GRANT SELECT ON \(shopTables) TO \(admin)",
            "GRANT INSERT, UPDATE, DELETE ON \(adminTables) TO \(admin)",
            "GRANT EXECUTE ON FUNCTION \(adminFunctions) TO \(admin)",
        ]
    }

    /// For a migration, by the store's owner: when the roles exist (the store was set up before),
    /// the grants again, so that an upgraded store never keeps a privilege this version takes away
    /// (e.g. support's INSERT on orders before migration 4). Nothing when they do not.
    static var reapplyWhenSetUp: String {
        let names = OperatorRole.allCases.map { "'\($0.serverRoleName)'" }.joined(separator: ", ")
        let executes = grants.map { "EXECUTE $grant$\($0)$grant$;" }.joined(separator: "\n")
        return """
            DO $do$ BEGIN
            IF (SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname IN (\(names))) = \(OperatorRole.allCases.count) THEN
            \(executes)
            END IF;
            END $do$
            """
    }

    /// SQLSTATEs of a set-up that raced another one (a role or membership made meanwhile, a
    /// catalog row updated concurrently, a serialization failure): the set-up runs again.
    static let retryableStates: Set<String> = ["42710", "23505", "XX000", "40001", "40P01"]

    /// Creates the roles when missing and (re)applies the grants on `store`'s schema, in one
    /// transaction; returns what to tell the operator. Needs a superuser, or the owner of the
    /// shop's tables with CREATEROLE: anyone else gets one line saying so, and nothing changes.
    public static func setUp(_ store: PostgresStore) async throws(ShopError) -> String {
        let database = store.database
        let logger = database.logger
        let (name, allowed) = try await database.read("checking who may set up roles") { connection -> (String, Bool) in
            for try await row in try await connection.query("""
                SELECT current_user::text,
                       r.rolsuper OR (r.rolcreaterole AND COALESCE(pg_catalog.pg_has_role(current_user, \(unescaped: PostgresIdentity.tablesOwner), 'USAGE'), false))
                FROM pg_catalog.pg_roles r WHERE r.rolname = current_user
                """, logger: logger).decode((String, Bool).self) {
                return row
            }
            return ("this login", false)
        }
        guard allowed else {
            throw .conflict("setting up roles needs a superuser, or the owner of the shop's tables with CREATEROLE; \(name) is neither: a DBA runs shopsh roles setup --store URL as one of them; nothing was changed")
        }
        do {
            try await PostgresDatabase.retrying(retryableStates) {
                try await database.connections.withConnection { leased in
                    try await PostgresDatabase.inTransaction(leased.connection, logger: logger) { connection in
                        for statement in statements {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                    }
                }
            }
        } catch {
            throw PostgresErrors.shopError(error, doing: "setting up roles", session: database.session, needs: .admin, writing: true)
        }
        return "roles: \(OperatorRole.allCases.map(\.serverRoleName).joined(separator: ", ")) ready; grant one to each login: GRANT \(OperatorRole.support.serverRoleName) TO alice;"
    }
}
