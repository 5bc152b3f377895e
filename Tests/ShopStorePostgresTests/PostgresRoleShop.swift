// PostgresRoleShop: the demo shop on a schema of its own with the shopsh roles set up, and a
// login role per shopsh role (unique names, dropped afterwards) — to open the store as each of
// them and to run psql as each of them, as a DBA's team would.

import Foundation
import PostgresNIO
import ShopCore
import ShopStoreKit
import TestSupport
@testable import ShopStorePostgres
import PostgresConnectionKit

/// A demo shop with logins `viewer`, `support`, `admin` (and one without a shopsh role).
final class PostgresRoleShop: Sendable {
    let schema: String
    /// The store opened by the cluster's superuser, the shop's owner.
    let owner: PostgresStore
    /// The login of each role, and `none` for a login with no shopsh role.
    let logins: [String: String]

    private init(schema: String, owner: PostgresStore, logins: [String: String]) {
        self.schema = schema
        self.owner = owner
        self.logins = logins
    }

    /// Makes the shop, sets up the roles and creates the logins; `body` runs, then the logins are dropped.
    static func with<T>(_ body: (PostgresRoleShop) async throws -> T) async throws -> T {
        let schema = try await PostgresTestServer.makeSchema()
        let owner = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema)
        defer { owner.close() }
        let demo = try DemoShopData.load()
        _ = try await owner.seed { seeder in try demo.write(into: seeder) }
        _ = try await PostgresRoles.setUp(owner)
        let tag = String(schema.suffix(10))
        let logins = ["viewer": "v_" + tag, "support": "s_" + tag, "admin": "a_" + tag, "none": "n_" + tag]
        for (role, login) in logins {
            let member = role == "none" ? "" : " IN ROLE shopsh_\(role)"
            try await owner.execute(PostgresQuery(unsafeSQL: "CREATE ROLE \(login) LOGIN\(member)"))
        }
        // `none` may read the shop's tables as a DBA might have granted, but has no shopsh role.
        try await owner.execute(PostgresQuery(unsafeSQL: "GRANT USAGE ON SCHEMA \(schema) TO \(logins["none"] ?? "")"))
        try await owner.execute(PostgresQuery(unsafeSQL: "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(logins["none"] ?? "")"))
        let shop = PostgresRoleShop(schema: schema, owner: owner, logins: logins)
        do {
            let value = try await body(shop)
            try await shop.dropLogins()
            return value
        } catch {
            try? await shop.dropLogins()
            throw error
        }
    }

    private func dropLogins() async throws {
        for login in logins.values {
            try await owner.execute(PostgresQuery(unsafeSQL: "DROP OWNED BY \(login)"))
            try await owner.execute(PostgresQuery(unsafeSQL: "DROP ROLE \(login)"))
        }
    }

    /// The test server's URL with `login` as its user.
    func urlText(as login: String) throws -> String {
        let url = try PostgresTestServer.connectionURL()
        guard let text = PostgresTestServer.url else { throw ShopError.storage("no test server") }
        return text.replacingOccurrences(of: "://\(url.user)@", with: "://\(login)@")
    }

    /// The store opened as the login of `role` (`viewer`, `support`, `admin`, `none`).
    func open(as role: String, readOnly: Bool = false) async throws -> PostgresStore {
        let login = try require(logins[role])
        return try await PostgresStore.open(try PostgresConnectionString(try urlText(as: login), environment: [:]), searchPath: schema,
                                            readOnly: readOnly)
    }

    /// Runs `sql` with psql as the login of `role` (`owner` for the superuser) in this shop's schema.
    func psql(as role: String, _ sql: String) throws -> (status: Int32, output: String, errors: String) {
        let url = role == "owner" ? (PostgresTestServer.url ?? "") : try urlText(as: try require(logins[role]))
        var environment = ProcessInfo.processInfo.environment
        environment["PGOPTIONS"] = "-c search_path=\(schema)"
        return try CommandLineClient.outcome(["psql", url, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", sql], environment: environment)
    }

    /// `sql`'s output as the owner; a failure is an error.
    func query(_ sql: String) throws -> String {
        let result = try psql(as: "owner", sql)
        guard result.status == 0 else { throw ShopError.storage("psql: \(result.errors)") }
        return result.output
    }
}

/// `#require` for values outside a test's body (the fixture's helpers).
func require<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw ShopError.storage("missing \(what)") }
    return value
}
