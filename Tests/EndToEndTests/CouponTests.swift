// CouponTests: coupons through the built binary — the Black-Friday rush (a code with 50 uses,
// 8 shells × 30 checkouts at once: exactly 50 orders carry it, every other checkout is refused in
// one line and keeps its basket), `coupons generate` in every format, Tab on codes, basket show
// with a coupon, and `orders stats --by coupon`. On SQLite, and on PostgreSQL in the second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct CouponTests {
    @Test func aRushCannotUseACodeMoreOftenThanAllowed() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("coupons add BLACKFRIDAY --percent 20 --max-uses 50")
        var setup = ""
        for number in 1...240 {
            setup += "users add --username rush\(number) --email rush\(number)@example.com --first-name R --last-name \(number)\n"
            setup += "basket add rush\(number) \(number % 20 + 1)\nbasket coupon rush\(number) blackfriday\n"
        }
        let prepared = try await sandbox.run(["-f", try sandbox.file("setup.shop", setup)])
        #expect(prepared.status == 0, "\(prepared.stderr.prefix(500))")
        let outcomes = StatusList()
        inParallel(8) { shell in
            let lines = (1...30).map { "basket checkout rush\(shell * 30 + $0)" }.joined(separator: "\n") + "\n"
            guard let file = try? sandbox.file("rush\(shell).shop", lines),
                  let result = try? sandbox.runNow(["--continue-on-error", "-f", file]) else {
                return outcomes.append("did not run")
            }
            outcomes.append(result.stderr)
        }
        let errors = outcomes.values.flatMap { $0.split(separator: "\n").filter { $0.contains("error:") } }
        #expect(errors.count == 190, "\(errors.prefix(5))")
        #expect(errors.allSatisfy { $0.contains("coupon BLACKFRIDAY is used up (50 uses)") }, "\(errors.prefix(5))")

        let orders = try await #require(try sandbox.json("orders list --all -o json") as? [[String: Any]])
        let withCoupon = orders.filter { $0["coupon"] as? String == "BLACKFRIDAY" }
        #expect(withCoupon.count == 50)
        let coupon = try await #require(try sandbox.json("coupons show blackfriday -o json") as? [String: Any])
        #expect(coupon["uses"] as? Int == 50 && coupon["left"] as? Int == 0 && coupon["state"] as? String == "used up", "\(coupon)")
        #expect((coupon["orders"] as? [Any])?.count == 50)
        // Every refused customer keeps their basket and their coupon.
        let buyers = Set(withCoupon.compactMap { $0["customer"] as? String })
        var kept = 0
        for number in 1...240 where !buyers.contains("rush\(number)") {
            let basket = try await #require(try sandbox.json("basket show rush\(number) -o json") as? [String: Any])
            if (basket["lines"] as? [Any])?.count == 1, basket["coupon"] as? String == "BLACKFRIDAY",
               basket["coupon_reason"] as? String == "used up" { kept += 1 }
        }
        #expect(kept == 190)
    }

    @Test func generatedCodesComeOutInEveryFormat() async throws {
        let sandbox = try await ShopshSandbox()
        let csv = try await sandbox.run(["-c", "coupons generate 200 --prefix bf- --amount 5 USD --per-customer 1 --expires 2099-12-31 -o csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        var codes: [String] = []
        while reader.next() != nil { codes.append(reader["code"] ?? "") }
        #expect(codes.count == 200 && Set(codes).count == 200)
        let alphabet = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        #expect(codes.allSatisfy { $0.hasPrefix("BF-") && $0.count == 15 && $0.dropFirst(3).allSatisfy(alphabet.contains) })
        let listed = try await #require(try sandbox.json("coupons list --prefix BF- --all -o json") as? [[String: Any]])
        #expect(Set(listed.compactMap { $0["code"] as? String }) == Set(codes))
        #expect(listed.allSatisfy { $0["value"] as? String == "5.00 USD" && $0["per_customer"] as? Int == 1 && $0["state"] as? String == "active" })
        let ndjson = try await sandbox.run(["-c", "coupons generate 3 --prefix X- --percent 5 -o ndjson"])
        let objects = ndjson.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3 && objects.allSatisfy { ($0["code"] as? String)?.hasPrefix("X-") == true })
        let tsv = try await sandbox.ok("coupons generate 2 --prefix Y- --percent 5 -o tsv --no-header --fields code")
        #expect(tsv.split(separator: "\n").count == 2 && tsv.split(separator: "\n").allSatisfy { $0.hasPrefix("Y-") })
        // A bad option changes nothing.
        let bad = try await sandbox.run(["-c", "coupons generate 5 --prefix 'no good' --percent 5"])
        #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        await #expect((try sandbox.json("coupons list --all -o json") as? [Any])?.count == 205)
    }

    @Test func tabCompletesCodesAndStates() async throws {
        let sandbox = try await ShopshSandbox()
        for code in ["SUMMER10", "SPRING5", "WINTER-2026"] { _ = try await sandbox.ok("coupons add \(code) --percent 5") }
        await #expect(try sandbox.run(["__complete", "basket", "coupon", "emilys", "s"]).stdout == "SPRING5\nSUMMER10\n")
        await #expect(try sandbox.run(["__complete", "coupons", "show", "su"]).stdout == "SUMMER10\n")
        await #expect(try sandbox.run(["__complete", "coupons", "disable", "W"]).stdout == "WINTER-2026\n")
        await #expect(try sandbox.run(["__complete", "coupons", "list", "--state", ""]).stdout
                == "active\nscheduled\nexpired\nused-up\ndisabled\n")
    }

    @Test func basketShowSaysWhatTheCouponGivesAndWhyNot() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket clear emilys")
        _ = try await sandbox.ok("basket add emilys 1 --qty 2")   // 2 × 9.99 at 10.48 % off: 17.88
        _ = try await sandbox.ok("coupons add BIG --amount 5 --min-total 100")
        _ = try await sandbox.ok("basket coupon emilys big")
        let below = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        #expect(below["coupon"] as? String == "BIG" && below["coupon_reason"] as? String == "below minimum"
                && (below["coupon_note"] as? String)?.contains("100.00 USD") == true, "\(below)")
        #expect(below["to_pay"] as? Double == below["discounted_total"] as? Double)
        let refused = try await sandbox.run(["-c", "basket checkout emilys"])
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("BIG"), "\(refused.stderr)")
        await #expect(((try sandbox.json("basket show emilys -o json") as? [String: Any])?["lines"] as? [Any])?.count == 1)
        _ = try await sandbox.ok("basket add emilys 2 --qty 20")
        let applies = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        #expect(applies["coupon_reason"] is NSNull && applies["coupon_discount"] as? Double == 5, "\(applies)")
        let order = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        #expect(order["coupon"] as? String == "BIG" && order["coupon_discount"] as? Double == 5)
        let byCoupon = try await #require(try sandbox.json("orders stats --by coupon --since 1d -o json") as? [[String: Any]])
        let big = byCoupon.first { $0["coupon"] as? String == "BIG" }
        #expect(big?["orders"] as? Int == 1, "\(byCoupon)")
    }
}

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct CouponTerminalTests {
    /// At 80 columns: `basket show` with a coupon (its discount and what is left to pay) and
    /// `coupons list` fit, codes and money whole.
    @Test func basketShowWithACouponAndCouponsListFitEightyColumns() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("coupons add WELCOME-BACK-2026 --percent 12.5 --min-total 20 --expires 2099-12-31 --description 'Customers who left a basket for a month or more'")
        _ = try await sandbox.ok("coupons generate 3 --prefix BF- --amount 5 USD --max-uses 1 --category beauty")
        _ = try await sandbox.ok("basket coupon emilys welcome-back-2026")
        let expected = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        let discount = try #require(expected["coupon_discount"] as? Double)
        let toPay = try #require(expected["to_pay"] as? Double)
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 80, height: 60, pager: "cat")
        for (index, command) in ["basket show emilys", "coupons list"].enumerated() {
            try await terminal.send(command, "Enter")
            try await terminal.waitFor { $0.components(separatedBy: "\(terminal.prompt)>").count == index + 3 }
        }
        let screen = try await terminal.joinedScreen()
        for line in screen.split(separator: "\n") {
            #expect(line.count <= 80, "a line wraps at 80 columns: \(line)")
        }
        for whole in ["WELCOME-BACK-2026", String(format: "%.2f", discount), String(format: "%.2f", toPay), "to pay", "12.50%", "active", "BF-"] {
            #expect(screen.contains(whole), "\(whole) at 80 columns:\n\(screen)")
        }
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct CouponServerRulesTests {
    /// At psql as support: no change to a coupon, no use written by hand, no checkout past the
    /// limit; attaching one is allowed and audited; an admin's change at psql is audited by the server.
    @Test func nothingAtPsqlUsesACodePastItsLimitsOrFakesAUse() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = try await TeamRolesTests.login(shop.admin, in: "shopsh_admin")
        defer { _ = try? ShopshSandbox.psqlNow(shop.admin, "DROP ROLE IF EXISTS \(admin)") }
        let asAdmin = try await TeamRolesTests.url(shop.admin, as: admin)
        let added = try await shop.sandbox.run(["--store", asAdmin, "-c", "coupons add ONEONLY --percent 10 --max-uses 1"])
        #expect(added.status == 0, "\(added.stderr)")
        let bySupport = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "coupons add MINE --percent 90"])
        #expect(bySupport.status == 1 && bySupport.stderr.contains("needs the admin role"), "\(bySupport.stderr)")
        let id = try await ShopshSandbox.psql(shop.admin, "SELECT id FROM coupons WHERE code = 'ONEONLY'")
        for user in ["emilys", "michaelw"] {
            for line in ["basket clear \(user)", "basket add \(user) 1"] {
                await #expect(try shop.sandbox.run(["--store", shop.asSupport, "-c", line]).status == 0)
            }
        }
        try await TeamRolesTests.denied(shop.asSupport, "UPDATE coupons SET max_uses = 1000 WHERE id = \(id)")
        try await TeamRolesTests.denied(shop.asSupport, "INSERT INTO coupons (code, percent_hundredths, currency) VALUES ('FREE', 10000, 'USD')")
        try await TeamRolesTests.denied(shop.asSupport, "INSERT INTO coupon_uses (order_id, coupon_id, user_id, discount_minor) VALUES (1, \(id), 1, 0)")
        try await TeamRolesTests.denied(shop.asSupport, "DELETE FROM coupon_uses")
        try await TeamRolesTests.denied(shop.asSupport, "UPDATE order_lines SET coupon_minor = 0")
        // Support attaches the code to two baskets at psql; the first checkout uses it up.
        _ = try await ShopshSandbox.psql(shop.asSupport, "INSERT INTO basket_coupons (user_id, coupon_id) VALUES (1, \(id)), (2, \(id))")
        await #expect(try ShopshSandbox.psql(shop.admin, """
            SELECT count(*) FROM audit_log WHERE entity = 'basket' AND action = 'coupon add' AND operator = '\(shop.support)'
            """) == "2")
        let order = try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_checkout(1)")
        await #expect(try ShopshSandbox.psql(shop.admin, "SELECT count(*) FROM coupon_uses WHERE coupon_id = \(id) AND order_id = \(order)") == "1")
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_checkout(2)") }
        await #expect(try ShopshSandbox.psql(shop.admin, "SELECT count(*) FROM basket_lines WHERE user_id = 2") == "1")
        await #expect(try ShopshSandbox.psql(shop.admin, "SELECT count(*) FROM coupon_uses WHERE coupon_id = \(id)") == "1")
        let refused = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "basket checkout michaelw"])
        #expect(refused.status == 1 && refused.stderr.contains("coupon ONEONLY is used up"), "\(refused.stderr)")
        // An admin's change at psql: audited by the server under the admin's login.
        _ = try await ShopshSandbox.psql(asAdmin, "UPDATE coupons SET max_uses = 5 WHERE id = \(id)")
        await #expect(try ShopshSandbox.psql(shop.admin, """
            SELECT operator || '|' || entity_id || '|' || action || '|' || (after ->> 'max_uses') FROM audit_log
            WHERE entity = 'coupon' ORDER BY id DESC LIMIT 1
            """) == "\(admin)|ONEONLY|update|5")
        await #expect(try shop.sandbox.run(["--store", shop.asSupport, "-c", "basket checkout michaelw"]).status == 0)
    }
}
