// TeamRolesTests: operators on a PostgreSQL server as a team has them (issue 13), through the
// built binary and psql with real login roles: a viewer reads masked data and can write nothing,
// neither through shopsh nor through psql; a support operator's change is audited under their own
// name; nobody alters the audit log; a hot standby serves every read and refuses writes in one line.

import Foundation
import Testing
import ShopCore
import TestSupport

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct TeamRolesTests {
    /// `url` with its user replaced by `user` (the test cluster trusts every login from 127.0.0.1).
    static func url(_ url: String, as user: String) async throws -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
            throw SandboxError(description: "not a postgres URL with a user: \(url)")
        }
        return String(url[..<scheme.upperBound]) + user + String(url[at...])
    }

    /// A login role of this test's own in `group`, dropped by the caller.
    static func login(_ admin: String, in group: String) async throws -> String {
        let name = "op_" + UUID().uuidString.prefix(8).lowercased()
        try await ShopshSandbox.psql(admin, "CREATE ROLE \(name) LOGIN IN ROLE \(group)")
        return name
    }

    /// Runs `sql` with psql on `url` and returns its error, expecting the server to refuse it for
    /// want of a privilege (not for any other reason, such as a typing mistake in the test).
    static func denied(_ url: String, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try CommandLineClient.outcome(["psql", url, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", sql])
        #expect(result.status != 0 && result.errors.contains("permission denied"), "\(sql): \(result.errors)",
                sourceLocation: sourceLocation)
    }

    func object(_ result: ShopshSandbox.Result) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stderr)")
    }

    @Test func aViewerReadsMaskedDataAndCanWriteNothingThroughShopshOrPsql() async throws {
        let sandbox = try await ShopshSandbox()
        let admin = try await sandbox.serverShop()
        let viewer = try await Self.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let asViewer = try await Self.url(admin, as: viewer)
        let basket = try await ShopshSandbox.psql(admin, "SELECT product_id || ':' || quantity FROM basket_lines WHERE user_id = 1 ORDER BY 1")

        let refused = try await sandbox.run(["--store", asViewer, "-c", "basket add emilys 1"])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("needs the support role") && lines[0].contains(viewer), "\(refused.stderr)")
        let me = try await object(try sandbox.run(["--store", asViewer, "whoami", "-o", "json"]))
        #expect(me["operator"] as? String == viewer && me["role"] as? String == "viewer" && me["read_only"] as? Bool == true, "\(me)")
        let emily = try await object(try sandbox.run(["--store", asViewer, "users", "show", "emilys", "-o", "json"]))
        #expect(emily["email"] as? String == "e***@x.dummyjson.com", "\(emily)")
        #expect(emily["phone"] as? String == "+** ***-***-3024", "\(emily)")

        // psql as the viewer: no write, no raw email; the masking view is theirs to read.
        try await Self.denied(asViewer, "UPDATE basket_lines SET quantity = 1")
        try await Self.denied(asViewer, "SELECT email FROM users")
        try await Self.denied(asViewer, "SELECT phone FROM users")
        try await Self.denied(asViewer, "SELECT command FROM audit_log")
        try await Self.denied(asViewer, "SET default_transaction_read_only = off; INSERT INTO audit_log (entity, entity_id, action) VALUES ('basket', '1', 'set')")
        await #expect(try ShopshSandbox.psql(asViewer, "SELECT email FROM users_masked WHERE username = 'emilys'") == "e***@x.dummyjson.com")
        await #expect(try ShopshSandbox.psql(admin, "SELECT product_id || ':' || quantity FROM basket_lines WHERE user_id = 1 ORDER BY 1") == basket)

        // The audit log as a viewer reads it: commands masked by the same rule as PersonalDataMask.command.
        _ = try await sandbox.run(["--store", admin, "-c", "basket add emily.johnson@x.dummyjson.com 1",
                             "-c", "users update emilys --phone '+1 555 0100'"])
        let raw = try await ShopshSandbox.psql(admin, "SELECT entity || '|' || command FROM audit_log ORDER BY id").split(separator: "\n")
        let masked = try await ShopshSandbox.psql(asViewer, "SELECT command FROM audit_log_masked ORDER BY id").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(raw.count == 2 && masked == raw.map { row in
            let parts = row.split(separator: "|", maxSplits: 1).map(String.init)
            return Substring(PersonalDataMask.command(parts.count > 1 ? parts[1] : "", entity: parts[0]))
        }, "\(masked)")
        #expect(masked.first == "basket add e***@x.dummyjson.com 1" && masked.last == "***")
    }

    @Test func aSupportChangeIsAuditedUnderTheirNameAndNobodyAltersTheLog() async throws {
        let sandbox = try await ShopshSandbox()
        let admin = try await sandbox.serverShop()
        let support = try await Self.login(admin, in: "shopsh_support")
        let other = try await Self.login(admin, in: "shopsh_admin")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(support); DROP ROLE IF EXISTS \(other)") }
        let asSupport = try await Self.url(admin, as: support)

        let set = try await sandbox.run(["--store", asSupport, "-c", "basket set emilys 113 2"])
        #expect(set.status == 0, "\(set.stderr)")
        let rows = try await #require(try JSONSerialization.jsonObject(
            with: try sandbox.run(["--store", admin, "-c", "audit list --entity basket -o json"]).stdoutData) as? [[String: Any]])
        let row = try #require(rows.first)
        #expect(row["operator"] as? String == support && row["role"] as? String == "support", "\(row)")
        #expect(row["command"] as? String == "basket set emilys 113 2")
        #expect((row["before"] as? [String: Any])?["quantity"] as? Int == 3 && (row["after"] as? [String: Any])?["quantity"] as? Int == 2)

        let stock = try await sandbox.run(["--store", asSupport, "-c", "products stock 1 =5"])
        #expect(stock.status == 1 && stock.stderr.split(separator: "\n").count == 1 && stock.stderr.contains("admin"), "\(stock.stderr)")
        // Stock moves only with an order: not directly, and not back for an order that took none.
        try await Self.denied(asSupport, "UPDATE products SET stock = 5 WHERE id = 1")
        let checkout = try await sandbox.run(["--store", asSupport, "-c", "basket clear michaelw", "-c", "basket add michaelw 1",
                                        "-c", "basket checkout michaelw"])
        #expect(checkout.status == 0, "support checks out through the server's checkout: \(checkout.stderr)")
        let placed = try await ShopshSandbox.psql(admin, "SELECT max(id) FROM orders WHERE status = 'placed'")
        try #require(Int(placed) != nil, "an order was placed")
        func stockOfProduct1() async throws -> Int { await Int(try ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = 1")) ?? -1 }
        let stockBefore = try await stockOfProduct1()
        // Lines added to the order after checkout, and look-alike temporary tables, give nothing back.
        try await Self.denied(asSupport, """
            INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor, discount_hundredths, quantity)
            VALUES (\(placed), 99, 1, 'X', 'X', 0, 0, 500)
            """)
        try await ShopshSandbox.psql(asSupport, """
            CREATE TEMP TABLE order_stock (order_id BIGINT, product_id BIGINT, quantity BIGINT);
            INSERT INTO order_stock VALUES (\(placed), 1, 1000);
            SELECT shopsh_set_order_status(\(placed), 'cancelled')
            """)
        await #expect(try stockOfProduct1() == stockBefore + 1, "the cancel gave back exactly the 1 unit the order took")
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(asSupport, "SELECT shopsh_set_order_status(\(placed), 'cancelled')") }
        try await Self.denied(asSupport, "UPDATE orders SET status = 'placed' WHERE id = \(placed)")
        await #expect(try stockOfProduct1() == stockBefore + 1, "nothing more back for an order that holds no stock")
        let logged = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log")
        for login in [support, other] {
            let url = try await Self.url(admin, as: login)
            for sql in ["DELETE FROM audit_log", "UPDATE audit_log SET command = 'nothing'", "TRUNCATE audit_log",
                        "INSERT INTO audit_log (operator, entity, entity_id, action) VALUES ('someone', 'basket', '1', 'set')",
                        "INSERT INTO audit_log (command, entity, entity_id, action) VALUES ('basket add emilys 1', 'basket', '1', 'add')",
                        "INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id())",
                        "SELECT shopsh_mark_operation(true)"] {
                try await Self.denied(url, sql)
            }
        }
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == logged)
    }

    @Test func rolesSetupIsForTheOwnerAndCanRunAgain() async throws {
        let sandbox = try await ShopshSandbox()
        let admin = try await sandbox.serverShop()
        let again = try await sandbox.run(["roles", "setup", "--store", admin])
        #expect(again.status == 0 && again.stderr.contains("shopsh_viewer, shopsh_support, shopsh_admin ready"), "\(again.stderr)")
        let support = try await Self.login(admin, in: "shopsh_support")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(support)") }
        let refused = try await sandbox.run(["roles", "setup", "--store", try Self.url(admin, as: support)])
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("superuser") && refused.stderr.contains(support))
        let wrong = try await sandbox.run(["roles", "teardown", "--store", admin])
        #expect(wrong.status == 2, "\(wrong.stderr)")
    }

    @Test func aHotStandbyServesReadsAndRefusesWritesInOneLine() async throws {
        let cluster = try await OwnCluster()
        defer { cluster.remove() }
        let sandbox = try await ShopshSandbox()
        let created = try await sandbox.run(["init", "--store", cluster.url])
        #expect(created.status == 0, "\(created.stderr)")
        var standby: String?
        for line in try await OwnCluster.runScript(["standby", cluster.directory]).split(separator: "\n") where line.hasPrefix("export SHOPSH_TEST_POSTGRES_STANDBY=") {
            standby = String(line.dropFirst("export SHOPSH_TEST_POSTGRES_STANDBY=".count))
        }
        let replica = try #require(standby)
        _ = try await OwnCluster.runScript(["catch-up", cluster.directory])

        let products = try await sandbox.run(["--store", replica, "-c", "products list --all -o json"])
        #expect(products.status == 0, "\(products.stderr)")
        #expect((try JSONSerialization.jsonObject(with: products.stdoutData) as? [Any])?.count == 194)
        await #expect(try sandbox.run(["--store", replica, "-c", "audit list -o json"]).status == 0)
        let me = try await object(try sandbox.run(["--store", replica, "whoami", "-o", "json"]))
        #expect((me["read_only_reason"] as? String)?.contains("standby") == true, "\(me)")
        let write = try await sandbox.run(["--store", replica, "-c", "basket add emilys 1"])
        #expect(write.status == 1 && write.stderr.split(separator: "\n").count == 1 && write.stderr.contains("read-only"), "\(write.stderr)")
    }
}
