// PostgresRoles: the server roles of issue 13 — NOLOGIN group roles shopsh_viewer, shopsh_support
// and shopsh_admin (each a member of the one before, so grants inherit) and the grants that make
// the server itself refuse what a role may not do, also to someone who connects with psql:
//
//   role     reads                                         changes
//   viewer   every table but users, addresses,             nothing
//            order_addresses, reviews and audit_log, and
//            users_masked / addresses_masked /
//            order_addresses_masked / reviews_masked /
//            audit_log_masked instead
//   support  + users (all but password_hash), addresses,   + basket_lines, favorites, addresses, notes
//            order_addresses, audit_log                    (but their author and time); orders only
//                                                          through shopsh_checkout (a customer's basket
//                                                          at the catalogue's prices, to an address)
//                                                          and shopsh_set_order_status (the status
//                                                          machine; cancelling restocks)
//   admin    + users' password hashes                      + products, users, currencies, currency_rates,
//                                                          shop_meta, deleting notes; rates also through
//                                                          shopsh_store_rates
//
// The "changes" column is generated: each operation of ShopCore's table of roles (ShopOperation)
// has its privileges here (`privileges(of:)`), granted to the operation's least role. Nobody but
// the store's owner writes orders, order lines or the audit log directly: the server's triggers
// record every change (PostgresServerRules). A DBA grants one role to each login:
// `GRANT shopsh_support TO alice;`.

import Logging
import PostgresNIO
import ShopCore
import PostgresShopSchema

/// Creates the group roles and (re)applies their grants on a store's schema.
public enum PostgresRoles {
    /// The shop's tables that roles read (without audit_log and the masking views), as the grants
    /// name them.
    static let shopTableList = ["shop_meta", "products", "users", "basket_lines", "favorites", "orders", "order_lines",
                                "order_refunds", "stock_ledger", "addresses", "order_addresses", "notes", "shipments",
                                "shipment_lines", "coupons", "basket_coupons", "coupon_uses", "reviews", "currencies",
                                "currency_rates", "search_vocabulary", "sales_days", "sales_day_products",
                                "sales_day_customers", "basket_summaries", "refund_days", "refund_day_products",
                                "refund_day_customers", "sales_day_categories", "refund_day_categories"]

    /// The server's own bookkeeping: no role reads or writes these but through the owner's functions
    /// and triggers (a test checks that every table of the schema is in one of the lists).
    static let serverTables: Set<String> = ["stock_context", "order_stock", "operation_in_progress", "command_names",
                                            "command_receipts", "audit_log"]

    /// The tables holding customers' personal data in full: a viewer reads their masking views instead.
    static let personalTables: Set<String> = ["users", "addresses", "order_addresses", "reviews"]

    /// `shopTableList` for a statement.
    static let shopTables = shopTableList.joined(separator: ", ")

    /// What a viewer reads: every shop table but the personal ones, the masking views and the
    /// migrations table. Derived, so that a new table is readable by every role unless it is personal.
    static let viewerReads = (shopTableList.filter { !personalTables.contains($0) } + ["schema_migrations"] + PostgresSchema.viewNames)
        .joined(separator: ", ")

    /// What the server must let a role do for each operation of ShopCore's table of roles; the
    /// role that gets it is the operation's `leastRole` (and the roles above it, by membership).
    /// Orders, their lines and the audit log are never written directly: only through the
    /// owner's functions and the server's triggers.
    static func privileges(of operation: ShopOperation) -> [Privilege] {
        let changes = tablePrivileges(of: operation)
        // Whoever may change something names the command doing it (PostgresHardeningSchema) and
        // keeps its receipt, to look it up after a broken COMMIT (PostgresReceiptSchema).
        return changes.isEmpty ? [] : changes + [.execute("shopsh_name_command(TEXT, TEXT)"),
                                                 .execute(PostgresReceiptSchema.keepSignature),
                                                 .execute(PostgresReceiptSchema.lookupSignature)]
    }

    /// The tables and functions `operation` itself writes through.
    private static func tablePrivileges(of operation: ShopOperation) -> [Privilege] {
        let lockBasket = Privilege.execute("shopsh_lock_basket(BIGINT)")
        switch operation {
        case .addToBasket: return [.on("basket_lines", "INSERT", "UPDATE"), lockBasket]
        case .setBasketQuantity: return [.on("basket_lines", "INSERT", "UPDATE", "DELETE"), lockBasket]
        case .removeFromBasket, .clearBasket: return [.on("basket_lines", "DELETE"), lockBasket]
        case .checkout: return [.execute(PostgresCouponSchema.checkoutSignature), lockBasket]
        case .addFavorite: return [.on("favorites", "INSERT")]
        case .removeFavorite: return [.on("favorites", "DELETE")]
        case .toggleFavorite: return [.on("favorites", "INSERT", "DELETE")]
        case .setOrderStatus: return [.execute("shopsh_set_order_status(BIGINT, TEXT)")]
        case .shipOrder: return [.execute(PostgresShipmentSchema.shipSignature), .execute(PostgresShipmentSchema.deliverSignature)]
        case .refundOrder: return [.execute(PostgresRefundSchema.returnUnitsSignature), .execute(PostgresRefundSchema.refundSignature)]
        case .editAddress: return [.on("addresses", "INSERT", "UPDATE", "DELETE"), lockBasket]
        // A note's author and time are the server's (their columns' defaults): support names only
        // what the note is on and its text.
        case .addNote: return [.on("notes", "INSERT (order_id, user_id, text)")]
        case .deleteNote: return [.on("notes", "DELETE")]
        // Coupon uses and lines' coupon shares are written only by shopsh_checkout (the owner's).
        case .attachCoupon: return [.on("basket_coupons", "INSERT", "DELETE")]
        case .manageCoupons: return [.on("coupons", "INSERT", "UPDATE")]
        // Who hid a review and when are the server's (a trigger): support sets only the reason.
        case .hideReview: return [.on("reviews", "UPDATE (hidden_reason)")]
        case .deleteReview: return [.on("reviews", "DELETE")]
        // New ids are taken under a lock on shop_meta's `application` row (SELECT … FOR UPDATE).
        case .addProduct, .importProducts:
            return [.on("products", "INSERT", "UPDATE"), .on("shop_meta", "UPDATE"), .on("reviews", "INSERT"),
                    .execute(PostgresStockLedgerSchema.nameSignature)]
        case .updateProduct, .adjustStock: return [.on("products", "UPDATE"), .execute(PostgresStockLedgerSchema.nameSignature)]
        case .deleteProduct: return [.on("products", "DELETE")]
        case .importRates:
            return [.on("currencies", "INSERT", "UPDATE", "DELETE"), .on("currency_rates", "INSERT", "UPDATE", "DELETE"),
                    .execute("shopsh_store_rates(DATE[], TEXT[], NUMERIC[])")]
        case .addUser: return [.on("users", "INSERT"), .on("shop_meta", "UPDATE")]
        case .updateUser, .setUserStatus, .setPassword, .checkPassword: return [.on("users", "UPDATE")]
        case .deleteUser: return [.on("users", "DELETE")]
        // Filling a new store writes every table a shop starts with.
        case .seedStore:
            return ["shop_meta", "products", "reviews", "users", "basket_lines", "favorites", "currencies", "currency_rates"]
                .map { .on($0, "INSERT", "UPDATE", "DELETE") }
        // Only the owner of the tables changes the schema: no grant allows it.
        case .migrateSchema: return []
        // A revert makes the changes of the operations it undoes, each under its own grants.
        case .revertChange: return []
        }
    }

    /// One privilege: some of INSERT, UPDATE, DELETE on a table, or EXECUTE on a function.
    struct Privilege: Equatable {
        var object: String
        var kinds: [String]
        var isFunction: Bool

        static func on(_ table: String, _ kinds: String...) -> Privilege {
            Privilege(object: table, kinds: kinds, isFunction: false)
        }

        static func execute(_ function: String) -> Privilege {
            Privilege(object: function, kinds: ["EXECUTE"], isFunction: true)
        }
    }

    /// The GRANTs of `role`'s changes: every privilege of the operations whose least role it is,
    /// one statement per object (kinds in a fixed order), objects in the order first met.
    static func changeGrants(to role: OperatorRole) -> [String] {
        var objects: [(object: String, isFunction: Bool)] = []
        var kinds: [String: Set<String>] = [:]
        for operation in ShopOperation.allCases where operation.leastRole == role {
            for privilege in privileges(of: operation) {
                if kinds[privilege.object] == nil { objects.append((privilege.object, privilege.isFunction)) }
                kinds[privilege.object, default: []].formUnion(privilege.kinds)
            }
        }
        return objects.map { object in
            // In a fixed order of their first word (a kind may name columns: `INSERT (a, b)`).
            let order = ["SELECT", "INSERT", "UPDATE", "DELETE", "EXECUTE"]
            let granted = (kinds[object.object] ?? []).sorted { left, right in
                func rank(_ kind: String) -> Int { order.firstIndex { kind.hasPrefix($0) } ?? order.count }
                return (rank(left), left) < (rank(right), right)
            }
            return "GRANT \(granted.joined(separator: ", ")) ON \(object.isFunction ? "FUNCTION " : "")\(object.object) TO \(role.serverRoleName)"
        }
    }

    /// Every function some operation's privileges name (their grants are revoked before each set-up).
    static var grantedFunctions: String {
        var names: [String] = []
        for operation in ShopOperation.allCases {
            for privilege in privileges(of: operation) where privilege.isFunction && !names.contains(privilege.object) {
                names.append(privilege.object)
            }
        }
        return names.joined(separator: ", ")
    }

    /// Functions a role could call before a later migration replaced them: their grants are
    /// revoked too (shopsh_checkout(BIGINT) became shopsh_checkout_basket in migration 14,
    /// shopsh_checkout(BIGINT, BIGINT) shopsh_checkout_to_address in migration 15).
    static let retiredFunctions = "shopsh_checkout_basket(BIGINT), \(PostgresCouponSchema.retiredCheckoutSignature)"

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
            "REVOKE ALL ON \(shopTables), audit_log, schema_migrations, \(PostgresSchema.viewNames.joined(separator: ", ")) FROM \(groupRoles)",
            "REVOKE ALL ON FUNCTION \(grantedFunctions), \(retiredFunctions) FROM \(groupRoles)",
            // viewer: reads all but the personal tables and audit_log, which it reads masked; writes nothing.
            "GRANT SELECT ON \(viewerReads) TO \(viewer)",
            // support: reads the customers' data (never a password hash) and the audit log.
            // Nobody writes the audit log: the server does.
            "GRANT SELECT (id, username, email, first_name, last_name, phone, role, status, created_at) ON users TO \(support)",
            "GRANT SELECT ON audit_log TO \(support)",
            // support: customers' saved addresses in full (a viewer reads addresses_masked).
            "GRANT SELECT ON addresses, order_addresses TO \(support)",
            // support: reviewers' emails in full (a viewer reads reviews_masked).
            "GRANT SELECT ON reviews TO \(support)",
            // admin: reads everything, password hashes too.
            "GRANT SELECT ON \(shopTables) TO \(admin)",
            // Changes: what ShopCore's table of roles lets each role do.
        ] + OperatorRole.allCases.flatMap(changeGrants(to:))
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
