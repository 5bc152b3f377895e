// ServerRulesTests: the server holds the shop's invariants against any login but the owner
// (issue 19), tried the way the hostile test tried them: psql as real support and admin logins
// on a shop made by the built binary. A support login cannot fake an order, take stock or move an
// order off the status machine; every change at psql leaves exactly one audit row written by the
// server, and nobody can write one themselves; a login with no shopsh role is told which grant
// it lacks.

import Foundation
import Testing
import ShopCore
import TestSupport

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct ServerRulesTests {
    /// The audit rows of `entity` (and `id`) as shopsh lists them, oldest first.
    func auditRows(_ sandbox: ShopshSandbox, _ store: String, entity: String, id: String? = nil) async throws -> [[String: Any]] {
        var arguments = ["--store", store, "audit", "list", "--entity", entity, "--sort", "id", "--all", "-o", "json"]
        if let id { arguments += ["--id", id] }
        let listed = try await sandbox.run(arguments)
        return try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]], "\(listed.stderr)")
    }

    @Test func aSupportLoginCannotFakeAnOrderNorTakeStockAtPsql() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (sandbox, admin, support, asSupport) = (shop.sandbox, shop.admin, shop.support, shop.asSupport)
        let stock = { try await ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = 1") }
        let stockBefore = try await stock()
        let logged = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log")
        // The demo's order history is there already; nothing below may add to it.
        let orders = { try await ShopshSandbox.psql(admin, "SELECT count(*) || ' ' || coalesce(max(id), 0) FROM orders") }
        let ordersBefore = try await orders()

        // The issue's repro, word for word: an order at price 0 that takes 99 units, dated by the caller.
        let fake = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", """
            begin;
            insert into orders(id,user_id,customer,status,currency,total_minor,discounted_total_minor,created_at,updated_at)
              values (900000,2,'michaelw','placed','USD',0,0,now(),now());
            insert into order_lines(order_id,line_number,product_id,sku,title,unit_price_minor,discount_hundredths,quantity)
              values (900000,1,1,'BEA-ESS-ESS-001','Essence',0,0,99);
            select shopsh_take_order_stock(900000, '1999-01-01');
            commit;
            """])
        #expect(fake.status != 0 && fake.errors.contains("permission denied"), "\(fake)")
        await #expect(try stock() == stockBefore)
        await #expect(try orders() == ordersBefore)
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == logged)
        for sql in ["UPDATE products SET stock = 0 WHERE id = 1", "UPDATE orders SET status = 'placed'",
                    "INSERT INTO order_stock (order_id, product_id, quantity) VALUES (1, 1, 1)"] {
            try await TeamRolesTests.denied(asSupport, sql)
        }
        // ShopCore's ranges hold at psql too.
        let baskets = try await ShopshSandbox.psql(admin, "SELECT string_agg(product_id || ':' || quantity, ',' ORDER BY product_id) FROM basket_lines")
        await #expect(throws: (any Error).self) {
            try await ShopshSandbox.psql(asSupport, "UPDATE basket_lines SET quantity = \(BasketLimits.maxQuantity + 1) WHERE user_id = 1")
        }
        await #expect(try ShopshSandbox.psql(admin, "SELECT string_agg(product_id || ':' || quantity, ',' ORDER BY product_id) FROM basket_lines") == baskets)

        // A checkout at psql that the stock cannot cover (michaelw wants 5 of product 86; 2 are left) changes nothing.
        let shirts = try await ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = 86")
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(asSupport, "SELECT shopsh_checkout(2)") }
        await #expect(try ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = 86") == shirts)
        await #expect(try orders() == ordersBefore)

        // What support may do at psql: check out a customer's basket, which the server prices.
        let refill = try await sandbox.run(["--store", admin, "-c", "basket clear michaelw", "-c", "basket add michaelw 104 --qty 2",
                                      "-c", "basket add michaelw 1 --qty 3"])
        #expect(refill.status == 0, "\(refill.stderr)")
        let basket = try await #require(try JSONSerialization.jsonObject(
            with: try sandbox.run(["--store", admin, "basket", "show", "michaelw", "-o", "json"]).stdoutData) as? [String: Any])
        let lines = try #require(basket["lines"] as? [[String: Any]])
        let wanted = Dictionary(uniqueKeysWithValues: lines.compactMap { line -> (Int, Int)? in
            guard let product = line["product_id"] as? Int, let quantity = line["quantity"] as? Int else { return nil }
            return (product, quantity)
        })
        try #require(!wanted.isEmpty, "michaelw's demo basket holds lines")
        let stockOf = { (id: Int) in Int(try await ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = \(id)")) ?? -1 }
        var shelves: [Int: Int] = [:]
        for id in wanted.keys { shelves[id] = try await stockOf(id) }
        let orderID = try await ShopshSandbox.psql(asSupport, "SELECT shopsh_checkout(2)")
        let order = try await #require(try JSONSerialization.jsonObject(
            with: try sandbox.run(["--store", admin, "orders", "show", orderID, "-o", "json"]).stdoutData) as? [String: Any])
        // The order's net total is what ShopCore made of the basket (its `discounted_total`), to the cent.
        #expect("\(order["discounted_total"] ?? "")" == "\(basket["discounted_total"] ?? "?")", "\(order) \(basket)")
        #expect(order["status"] as? String == "placed")
        for (product, quantity) in wanted { await #expect(try stockOf(product) == (shelves[product] ?? 0) - quantity) }
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM basket_lines WHERE user_id = 2") == "0")
        let checkout = try await #require(try auditRows(sandbox, admin, entity: "order", id: orderID).last)
        #expect(checkout["action"] as? String == "checkout" && checkout["operator"] as? String == support, "\(checkout)")
        #expect(checkout["command"] as? String == "(outside shopsh: psql)", "\(checkout)")
        // The server took the time itself: the order is stamped today, whatever the caller's clock.
        let today = try await ShopshSandbox.psql(admin, "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')")
        #expect((order["created_at"] as? String)?.hasPrefix(today) == true, "\(order)")

        // The status machine holds at psql too: cancelled gives back once, and never goes back to placed.
        _ = try await ShopshSandbox.psql(asSupport, "SELECT shopsh_set_order_status(\(orderID), 'cancelled')")
        for (product, _) in wanted { await #expect(try stockOf(product) == shelves[product]) }
        for next in ["placed", "cancelled", "delivered", "nonsense"] {
            await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(asSupport, "SELECT shopsh_set_order_status(\(orderID), '\(next)')") }
        }
        for (product, _) in wanted { await #expect(try stockOf(product) == shelves[product]) }
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(orderID)") == "cancelled")
        // Not even an admin writes orders directly.
        let other = try await TeamRolesTests.login(admin, in: "shopsh_admin")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(other)") }
        try await TeamRolesTests.denied(try TeamRolesTests.url(admin, as: other), "UPDATE orders SET status = 'placed' WHERE id = \(orderID)")
        try await TeamRolesTests.denied(try TeamRolesTests.url(admin, as: other), "DELETE FROM order_lines")
    }

    @Test func everyChangeAtPsqlLeavesOneAuditRowWrittenByTheServer() async throws {
        let sandbox = try await ShopshSandbox()
        let admin = try await sandbox.serverShop()
        let adminLogin = try await TeamRolesTests.login(admin, in: "shopsh_admin")
        let support = try await TeamRolesTests.login(admin, in: "shopsh_support")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(adminLogin); DROP ROLE IF EXISTS \(support)") }
        let asAdmin = try await TeamRolesTests.url(admin, as: adminLogin), asSupport = try await TeamRolesTests.url(admin, as: support)
        let stockBefore = try await #require(Int(try ShopshSandbox.psql(admin, "SELECT stock FROM products WHERE id = 1")))

        // The issue's repro: an admin's direct update at psql.
        _ = try await ShopshSandbox.psql(asAdmin, "UPDATE products SET stock = 5 WHERE id = 1")
        let rows = try await auditRows(sandbox, admin, entity: "product", id: "1")
        #expect(rows.count == 1, "\(rows)")
        let row = try #require(rows.first)
        #expect(row["operator"] as? String == adminLogin && row["role"] as? String == "admin", "\(row)")
        #expect(row["command"] as? String == "(outside shopsh: psql)" && row["action"] as? String == "update", "\(row)")
        #expect((row["before"] as? [String: Any])?["stock"] as? Int == stockBefore, "\(row)")
        #expect((row["after"] as? [String: Any])?["stock"] as? Int == 5 && (row["after"] as? [String: Any])?.count == 1, "\(row)")

        // Several rows in one statement: one audit row each. A statement that changes nothing: none.
        _ = try await ShopshSandbox.psql(asAdmin, "UPDATE products SET stock = stock + 1 WHERE id IN (2, 3)")
        _ = try await ShopshSandbox.psql(asAdmin, "UPDATE products SET stock = stock WHERE id = 4")
        await #expect(try auditRows(sandbox, admin, entity: "product").count == 3)
        await #expect(throws: (any Error).self) {
            try await ShopshSandbox.psql(asAdmin, "UPDATE products SET stock = \(ProductLimits.maxStock + 1) WHERE id = 1")
        }
        await #expect(try auditRows(sandbox, admin, entity: "product").count == 3)

        // Support at psql: a basket line, recorded as the basket's.
        _ = try await ShopshSandbox.psql(asSupport, "INSERT INTO basket_lines (user_id, product_id, quantity) VALUES (1, 1, 2)")
        let basket = try await #require(try auditRows(sandbox, admin, entity: "basket", id: "1").last)
        #expect(basket["operator"] as? String == support && basket["action"] as? String == "add", "\(basket)")
        #expect((basket["after"] as? [String: Any])?["quantity"] as? Int == 2, "\(basket)")

        // A shopsh command still records exactly one row, with its command.
        let stocked = try await sandbox.run(["--store", asAdmin, "-c", "products stock 1 =7"])
        #expect(stocked.status == 0, "\(stocked.stderr)")
        let latest = try await auditRows(sandbox, admin, entity: "product", id: "1")
        #expect(latest.count == 2 && latest.last?["command"] as? String == "products stock 1 =7", "\(latest)")
        #expect(latest.last?["action"] as? String == "stock")

        // Nobody writes the log but the server, and nobody can tell the triggers to look away.
        let logged = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log")
        for url in [asAdmin, asSupport] {
            try await TeamRolesTests.denied(url, "INSERT INTO audit_log (command, entity, entity_id, action, after) VALUES ('products stock 1 =0', 'product', '1', 'stock', '{\"stock\": 0}')")
            try await TeamRolesTests.denied(url, "INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id())")
        }
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == logged)
    }

    /// Issue 32, 2: the server alone says when a basket line came and last changed — a support
    /// login at psql dated a line 2001 (so `basket list --idle 3650d` listed it) and moved two
    /// lines' times ten years back without an audit row.
    @Test func aSupportLoginCannotDateBasketLinesAtPsql() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (sandbox, admin, asSupport) = (shop.sandbox, shop.admin, shop.asSupport)
        // Every demo customer has a basket: empty the first one's (as the owner) and its favourites.
        let empty = try await ShopshSandbox.psql(admin, "SELECT min(id) FROM users")
        _ = try await ShopshSandbox.psql(admin, "DELETE FROM basket_lines WHERE user_id = \(empty); DELETE FROM favorites WHERE user_id = \(empty)")
        _ = try await ShopshSandbox.psql(asSupport, "INSERT INTO basket_lines (user_id, product_id, quantity, added_at, changed_at) VALUES (\(empty), 7, 2, '2001-01-01', '2001-01-01')")
        await #expect(try ShopshSandbox.psql(admin, """
            SELECT added_at > now() - interval '1 hour' AND changed_at = added_at FROM basket_lines WHERE user_id = \(empty)
            """) == "t")
        let idle = try await sandbox.run(["--store", admin, "basket", "list", "--idle", "3650d", "--all", "-o", "json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: idle.stdoutData) as? [[String: Any]], "\(idle.stderr)")
        #expect(listed.isEmpty, "\(listed)")

        // An UPDATE of the times changes nothing, so there is nothing to audit.
        let held = try await ShopshSandbox.psql(admin, "SELECT min(user_id) FROM basket_lines WHERE user_id <> \(empty)")
        let times = { try await ShopshSandbox.psql(admin, "SELECT string_agg(product_id || ' ' || added_at || ' ' || changed_at, ',' ORDER BY product_id) FROM basket_lines WHERE user_id = \(held)") }
        let before = try await times(), logged = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log")
        _ = try await ShopshSandbox.psql(asSupport, "UPDATE basket_lines SET added_at = now() - interval '10 years', changed_at = now() - interval '10 years' WHERE user_id = \(held)")
        await #expect(try times() == before)
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == logged)
        // A favourite's time is the server's too.
        _ = try await ShopshSandbox.psql(asSupport, "INSERT INTO favorites (user_id, product_id, added_at) VALUES (\(empty), 7, '2001-01-01')")
        await #expect(try ShopshSandbox.psql(admin, "SELECT added_at > now() - interval '1 hour' FROM favorites WHERE user_id = \(empty) AND product_id = 7") == "t")
    }

    /// Issue 32, 3: settings a client sets itself (`shopsh.action`, `shopsh.command`) made a
    /// DELETE at psql read as a checkout in the audit log. A change nobody named through
    /// shopsh_name_command shows its client, and no client names a checkout.
    @Test func aClientsSettingsDoNotNameItsChangesInTheAuditLog() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (sandbox, admin, asSupport) = (shop.sandbox, shop.admin, shop.asSupport)
        let customers = try await ShopshSandbox.psql(admin, "SELECT string_agg(user_id::text, ' ' ORDER BY user_id) FROM (SELECT DISTINCT user_id FROM basket_lines ORDER BY user_id LIMIT 2) u")
            .split(separator: " ").map(String.init)
        try #require(customers.count == 2, "two demo customers with baskets")
        _ = try await ShopshSandbox.psql(asSupport, """
            BEGIN;
            SELECT set_config('shopsh.action', 'checkout', true), set_config('shopsh.command', 'basket checkout emmaj', true);
            DELETE FROM basket_lines WHERE user_id = \(customers[0]);
            COMMIT;
            """)
        let rows = try await auditRows(sandbox, admin, entity: "basket", id: customers[0])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["command"] as? String == "(outside shopsh: psql)" && $0["action"] as? String == "remove" },
                "\(rows)")
        // Naming the command as shopsh does names its text, never an action of the server's own operations.
        _ = try await ShopshSandbox.psql(asSupport, """
            BEGIN;
            SELECT shopsh_name_command('basket checkout emmaj', 'checkout');
            DELETE FROM basket_lines WHERE user_id = \(customers[1]);
            COMMIT;
            """)
        let named = try await auditRows(sandbox, admin, entity: "basket", id: customers[1])
        #expect(!named.isEmpty && named.allSatisfy { $0["action"] as? String == "remove" }, "\(named)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log WHERE action = 'checkout' AND entity <> 'order'") == "0")
        // Nobody but the owner writes the names.
        try await TeamRolesTests.denied(asSupport, "INSERT INTO command_names (xact, command, action) VALUES (pg_current_xact_id(), 'x', 'checkout')")
        // shopsh's own commands are still named.
        let added = try await sandbox.run(["--store", asSupport, "-c", "basket add \(customers[0]) 7 --qty 2"])
        #expect(added.status == 0, "\(added.stderr)")
        let latest = try await #require(try auditRows(sandbox, admin, entity: "basket", id: customers[0]).last)
        #expect(latest["command"] as? String == "basket add \(customers[0]) 7 --qty 2" && latest["action"] as? String == "add", "\(latest)")
    }

    /// Issue 32, 7: `shopsh_set_order_status(id, NULL)` passed the status guard and the NOT NULL
    /// error printed the whole row; it is refused as any move the machine does not allow.
    @Test func aStatusMoveToNullIsRefusedLikeAnyOtherMove() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (admin, asSupport) = (shop.admin, shop.asSupport)
        let order = try await ShopshSandbox.psql(admin, "SELECT min(id) FROM orders WHERE status = 'placed'")
        let refused = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                     "SELECT shopsh_set_order_status(\(order), NULL)"])
        #expect(refused.status != 0 && refused.errors.contains("an order moves only") && !refused.errors.contains("Failing row"),
                "\(refused)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(order)") == "placed")
    }

    @Test func aLoginWithNoShopshRoleIsToldWhichGrantItLacks() async throws {
        let sandbox = try await ShopshSandbox()
        let admin = try await sandbox.serverShop()
        let nobody = "nobody_" + UUID().uuidString.prefix(8).lowercased()
        _ = try await ShopshSandbox.psql(admin, "CREATE ROLE \(nobody) LOGIN")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(nobody)") }
        let result = try await sandbox.run(["--store", try TeamRolesTests.url(admin, as: nobody), "-c", "whoami"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("GRANT shopsh_viewer TO \(nobody)") && !lines[0].contains("SQLSTATE"), "\(result.stderr)")
    }
}

/// A demo shop on the server (its owner's URL, `admin`) and a support login of its own at psql
/// (`drop()` drops it).
struct ShopWithSupportLogin {
    let sandbox: ShopshSandbox
    let admin: String
    let support: String
    let asSupport: String

    init() async throws {
        sandbox = try await ShopshSandbox()
        admin = try await sandbox.serverShop()
        support = try await TeamRolesTests.login(admin, in: "shopsh_support")
        asSupport = try await TeamRolesTests.url(admin, as: support)
    }

    /// Drops the support login.
    func drop() { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(support)") }
}
