// RefundTests: returns and refunds through the built binary (issue 34) — shells refunding the
// last 10.00 of one order at once give it once; at a terminal the question names the amount and
// "no" changes nothing; --dry-run shows the refund in every format and changes nothing; a refund
// is never reverted; at psql a support login refunds only through the server's function, which
// writes one audit row, and a viewer not at all. On SQLite, and on PostgreSQL in the second pass.

import Foundation
import Testing
import TestSupport

@Suite struct RefundTests {
    /// A delivered order of the demo: its id, customer and what was paid (the decimal text).
    static func deliveredOrder(_ sandbox: ShopshSandbox, skipping: Int = 0) async throws -> (id: Int, customer: String, paid: Decimal) {
        let orders = try await #require(try sandbox.json("orders list --status delivered --limit \(skipping + 1) -o json") as? [[String: Any]])
        let order = try #require(orders.last)
        let paid = try #require((order["discounted_total"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) })
        return (try #require(order["id"] as? Int), try #require(order["customer"] as? String), paid)
    }

    static func shown(_ sandbox: ShopshSandbox, _ id: Int) async throws -> [String: Any] {
        try await #require(try sandbox.json("orders show \(id) -o json") as? [String: Any])
    }

    static func decimal(_ value: Any?) -> Decimal? { (value as? NSNumber).flatMap { Decimal(string: $0.stringValue) } }

    @Test func shellsRefundingTheLastTenAtOnceGiveItOnce() async throws {
        let sandbox = try await ShopshSandbox()
        var found = try await Self.deliveredOrder(sandbox)
        var skip = 0
        while found.paid <= 10 { skip += 1; found = try await Self.deliveredOrder(sandbox, skipping: skip) }
        let order = found
        _ = try await sandbox.ok("orders refund \(order.id) --amount \(order.paid - 10) --reason 'most of it' --yes")
        // Four shells, started together, each refunding the last 10.00.
        let results = StatusList()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                let result = try? sandbox.runNow(["-c", "orders refund \(order.id) --amount 10.00 --reason 'the rest' --yes -o json"])
                results.append("\(result?.status ?? -1)\t\(result?.stderr ?? "no result")")
                group.leave()
            }.start()
        }
        group.wait()
        let outcomes = results.values.map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
        #expect(outcomes.filter { $0.first == "0" }.count == 1, "\(outcomes)")
        for failed in outcomes where failed.first != "0" {
            let lines = (failed.last ?? "").split(separator: "\n")
            #expect(failed.first == "1" && lines.count == 1 && lines[0].contains("order \(order.id)"), "\(failed)")
        }
        let after = try await Self.shown(sandbox, order.id)
        let refunds = try #require(after["refunds"] as? [[String: Any]])
        #expect(refunds.count == 2 && refunds.compactMap { Self.decimal($0["amount"]) }.reduce(0, +) == order.paid)
        #expect(after["status"] as? String == "refunded" && Self.decimal(after["refunded"]) == order.paid && Self.decimal(after["net"]) == 0)
    }

    @Test func aDryRunShowsTheRefundInEveryFormatAndChangesNothing() async throws {
        let sandbox = try await ShopshSandbox()
        let order = try await Self.deliveredOrder(sandbox)
        let before = try await sandbox.ok("orders show \(order.id) -o json")
        let planned = try await #require(try sandbox.json("orders refund \(order.id) --amount 0.50 --reason late --dry-run -o json") as? [String: Any])
        #expect(planned["id"] is NSNull && planned["kind"] as? String == "goodwill" && Self.decimal(planned["amount"]) == Decimal(string: "0.5")
                && planned["currency"] as? String == "USD" && planned["reason"] as? String == "late")
        let first = try await #require(try sandbox.json("orders show \(order.id) -o json") as? [String: Any])
        let lines = try #require(first["lines"] as? [[String: Any]])
        let sku = try #require(lines.first?["sku"] as? String)
        let csv = try await sandbox.run(["-c", "orders return \(order.id) \(sku) --qty 1 --restock --reason 'a\u{1B}[31m' --dry-run -o csv"])
        #expect(csv.status == 1 && csv.stderr.contains("control character") && !csv.stderr.contains("\u{1B}"), "\(csv.stderr)")
        let tsv = try await sandbox.run(["-c", "orders return \(order.id) \(sku) --qty 1 --restock --reason cracked --dry-run -o tsv"])
        let rows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(tsv.status == 0 && rows.count == 2 && rows[0].contains("amount") && rows[1].contains("true"), "\(tsv.stdout)")
        #expect(tsv.stderr.contains("dry run") && tsv.stderr.contains("nothing was applied"), "\(tsv.stderr)")
        await #expect(try sandbox.ok("orders show \(order.id) -o json") == before)
    }

    @Test func aRefundIsNeverReverted() async throws {
        let sandbox = try await ShopshSandbox()
        let order = try await Self.deliveredOrder(sandbox)
        _ = try await sandbox.ok("orders refund \(order.id) --amount 1.00 --reason goodwill --yes")
        let rows = try await #require(try sandbox.json("audit list --entity order --id \(order.id) -o json") as? [[String: Any]])
        let refund = try #require(rows.first { $0["action"] as? String == "refund" })
        let id = try #require(refund["id"] as? Int)
        let reverted = try await sandbox.run(["-c", "audit revert \(id) --yes"])
        #expect(reverted.status == 1 && reverted.stderr.split(separator: "\n").count == 1
                && reverted.stderr.contains("cannot be unsent"), "\(reverted.stderr)")
        await #expect(Self.decimal(try Self.shown(sandbox, order.id)["refunded"]) == 1)
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func atATerminalTheQuestionNamesTheAmountAndNoChangesNothing() async throws {
        let sandbox = try await ShopshSandbox()
        let order = try await Self.deliveredOrder(sandbox)
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 80)
        try await terminal.send("orders refund \(order.id) --amount 2.50 --reason 'late delivery'", "Enter")
        try await terminal.waitFor { $0.contains("refund 2.50 USD to \(order.customer) on order \(order.id)? [y/N]") }
        try await terminal.send("n", "Enter")
        try await terminal.waitFor { $0.contains("nothing was applied") && terminal.promptIsBack($0) }
        await #expect(Self.decimal(try Self.shown(sandbox, order.id)["refunded"]) == 0)
        // The whole order refunded, then shown: it fits 80 columns.
        try await terminal.send("orders refund \(order.id) --amount \(order.paid) --reason 'lost in the post' --yes", "Enter")
        try await terminal.waitFor { $0.contains("the order is now refunded") && terminal.promptIsBack($0) }
        try await terminal.send("orders show \(order.id)", "Enter")
        let screen = try await terminal.waitFor { $0.contains("refunds:") && $0.contains("lost in the post") && terminal.promptIsBack($0) }
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(screen)")
        #expect(screen.contains("refunded"))
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct RefundServerRulesTests {
    @Test func atPsqlSupportRefundsOnlyThroughTheServersFunctionAndAViewerNotAtAll() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (admin, support, asSupport) = (shop.admin, shop.support, shop.asSupport)
        let viewer = try await TeamRolesTests.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let asViewer = try await TeamRolesTests.url(admin, as: viewer)
        let order = try await ShopshSandbox.psql(admin, "SELECT min(id) FROM orders WHERE status = 'delivered'")
        let paid = try await ShopshSandbox.psql(admin, "SELECT discounted_total_minor FROM orders WHERE id = \(order)")
        let logged = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log")
        for sql in ["INSERT INTO order_refunds (order_id, amount_minor, reason, operator) VALUES (\(order), 100, 'x', 'me')",
                    "UPDATE orders SET refunded_minor = 100 WHERE id = \(order)",
                    "UPDATE order_lines SET returned = 1 WHERE order_id = \(order)"] {
            try await TeamRolesTests.denied(asSupport, sql)
        }
        try await TeamRolesTests.denied(asViewer, "SELECT shopsh_refund(\(order), 100, 'x')")
        let tooMuch = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                     "SELECT shopsh_refund(\(order), \(paid) + 1, 'all and more')"])
        #expect(tooMuch.status != 0 && tooMuch.errors.contains("at most what is left"), "\(tooMuch)")
        let blank = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                   "SELECT shopsh_refund(\(order), 100, '   ')"])
        #expect(blank.status != 0 && blank.errors.contains("reason"), "\(blank)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == logged)
        await #expect(try ShopshSandbox.psql(admin, "SELECT refunded_minor FROM orders WHERE id = \(order)") == "0")

        _ = try await ShopshSandbox.psql(asSupport, "SELECT shopsh_refund(\(order), 150, 'goodwill at psql')")
        await #expect(try ShopshSandbox.psql(admin, "SELECT refunded_minor FROM orders WHERE id = \(order)") == "150")
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM audit_log") == String((Int(logged) ?? 0) + 1))
        let row = try await ShopshSandbox.psql(admin, """
            SELECT operator || '|' || action || '|' || entity_id || '|' || (after ->> 'amount') FROM audit_log ORDER BY id DESC LIMIT 1
            """)
        #expect(row == "\(support)|refund|\(order)|1.50 USD", "\(row)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT operator FROM order_refunds WHERE order_id = \(order)") == support)
        // A return at psql through its function, units checked under the order's lock.
        let line = try await ShopshSandbox.psql(admin, "SELECT line_number || ' ' || quantity FROM order_lines WHERE order_id = \(order) ORDER BY line_number LIMIT 1")
        let parts = line.split(separator: " ")
        try #require(parts.count == 2)
        let tooMany = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                     "SELECT shopsh_return_units(\(order), \(parts[0]), \(parts[1]) + 1, true, 'x')"])
        #expect(tooMany.status != 0 && tooMany.errors.contains("fewer units left"), "\(tooMany)")
        _ = try await ShopshSandbox.psql(asSupport, "SELECT shopsh_return_units(\(order), \(parts[0]), 1, true, 'cracked')")
        await #expect(try ShopshSandbox.psql(admin, "SELECT returned FROM order_lines WHERE order_id = \(order) AND line_number = \(parts[0])") == "1")
        // A paid order that gave money back is not cancelled, at psql either.
        let paidOrder = try await ShopshSandbox.psql(admin, "SELECT min(id) FROM orders WHERE status = 'paid'")
        _ = try await ShopshSandbox.psql(asSupport, "SELECT shopsh_refund(\(paidOrder), 1, 'a cent')")
        let cancel = try CommandLineClient.outcome(["psql", asSupport, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                    "SELECT shopsh_set_order_status(\(paidOrder), 'cancelled')"])
        #expect(cancel.status != 0 && cancel.errors.contains("an order with refunds is not cancelled"), "\(cancel)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(paidOrder)") == "paid")
    }
}
