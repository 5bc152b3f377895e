// AddressTests: customers' saved addresses through the built binary (issue 35, WIP) — every demo
// customer lists the bundled address (compared with the bundled users.json read by Foundation);
// add, update, default and remove as an operator types them, bad input one line that changes
// nothing; at PostgreSQL a viewer reads them masked in every format and cannot read the table.
// On SQLite, and on PostgreSQL in the second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct AddressTests {
    /// The bundled users, as the project ships them.
    static func bundledUsers() throws -> [[String: Any]] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ShopStoreKit/DemoData/users.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
    }

    @Test func everyDemoCustomerListsTheBundledAddress() throws {
        let sandbox = try ShopshSandbox()
        let users = try Self.bundledUsers()
        // One batch, one ndjson object per customer (each has one address).
        let lines = users.compactMap { $0["username"] as? String }.map { "users address \($0) list -o ndjson" }
        let result = try sandbox.run(["-f", try sandbox.file("addresses.shop", lines.joined(separator: "\n") + "\n")])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(objects.count == users.count, "\(objects.count) of \(users.count)")
        for (user, listed) in zip(users, objects) {
            let bundled = try #require(user["address"] as? [String: Any])
            #expect(listed["line1"] as? String == bundled["address"] as? String && listed["city"] as? String == bundled["city"] as? String
                    && listed["state"] as? String == bundled["state"] as? String
                    && listed["postal_code"] as? String == bundled["postalCode"] as? String
                    && listed["country"] as? String == "US" && listed["defaults"] as? String == "shipping,billing",
                    "\(user["username"] ?? ""): \(listed)")
            #expect(listed["user_id"] as? Int == user["id"] as? Int && listed["phone"] as? String == user["phone"] as? String)
        }
    }

    @Test func anOperatorAddsUpdatesDefaultsAndRemovesAddresses() throws {
        let sandbox = try ShopshSandbox()
        let added = try #require(try sandbox.json("""
            users address emilys add --name 'Emily J' --line1 'Unter den Linden 5' --line2 '3. OG' --city Berlin --postal-code 10117 \
            --country de --phone '+49 30 1234' --default shipping -o json
            """) as? [String: Any])
        let id = try #require(added["id"] as? Int)
        #expect(added["country"] as? String == "DE" && added["defaults"] as? String == "shipping" && added["line2"] as? String == "3. OG")
        var listed = try #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.map { $0["defaults"] as? String } == ["billing", "shipping"])
        let moved = try #require(try sandbox.json("users address emilys update \(id) --city Potsdam --phone '' -o json") as? [String: Any])
        #expect(moved["city"] as? String == "Potsdam" && moved["phone"] is NSNull && moved["line1"] as? String == "Unter den Linden 5")
        _ = try sandbox.ok("users address emilys default \(id) --for billing")
        listed = try #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.map { $0["defaults"] as? String } == ["", "shipping,billing"])

        // Bad input: one line, nothing changed.
        let before = try sandbox.ok("users address emilys list -o json")
        for (line, words) in [("users address emilys add --line1 x --city y --country UK", "unknown country"),
                              ("users address emilys add --line1 x --country DE", "--city"),
                              ("users address emilys update \(id) --line1 '\u{1B}[2J'", "control"),
                              ("users address michaelw remove \(id)", "has no address \(id)"),
                              ("users address emilys remove", "needs the address's id"),
                              ("users address emilys list --city Bonn", "takes no address fields"),
                              ("users address emilys frobnicate", "frobnicate")] {
            let result = try sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words),
                    "\(line): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
        }
        #expect(try sandbox.ok("users address emilys list -o json") == before)

        _ = try sandbox.ok("users address emilys remove \(id)")
        listed = try #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["defaults"] as? String == "")
        // csv, read with a real parser, carries the same address.
        let csv = try sandbox.run(["-c", "users address emilys list -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let city = try #require(reader.headerRow?.firstIndex(of: "city"))
        let row = try #require(reader.next())
        #expect(row[city] == listed[0]["city"] as? String)
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct AddressServerRulesTests {
    @Test func aViewerReadsAddressesMaskedAndSupportEditsThem() throws {
        let shop = try ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = shop.admin
        let viewer = try TeamRolesTests.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psql(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let asViewer = try TeamRolesTests.url(admin, as: viewer)
        // Through shopsh: masked in json and csv; no change.
        let listed = try shop.sandbox.run(["--store", asViewer, "-c", "users address emilys list -o json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]], "\(listed.stderr)")
        #expect(rows.first?["line1"] as? String == "***" && rows.first?["name"] as? String == "E***"
                && rows.first?["city"] as? String == "Phoenix" && rows.first?["postal_code"] as? String == "2***", "\(rows)")
        let csv = try shop.sandbox.run(["--store", asViewer, "-c", "users address emilys list -o csv"])
        #expect(csv.status == 0 && !csv.stdout.contains("626 Main Street") && csv.stdout.contains("***"), "\(csv.stdout)")
        let refused = try shop.sandbox.run(["--store", asViewer, "-c", "users address emilys add --line1 x --city y --country DE"])
        #expect(refused.status == 1 && refused.stderr.contains("needs the support role"), "\(refused.stderr)")
        // At psql: the table is not theirs to read; the masked view is.
        try TeamRolesTests.denied(asViewer, "SELECT line1 FROM addresses")
        try TeamRolesTests.denied(asViewer, "INSERT INTO addresses (user_id, line1, city, country) VALUES (1, 'x', 'y', 'DE')")
        #expect(try ShopshSandbox.psql(asViewer, "SELECT line1 || '|' || city FROM addresses_masked WHERE user_id = 1") == "***|Phoenix")
        // Support edits them; the server audits the change under the customer.
        let edited = try shop.sandbox.run(["--store", shop.asSupport, "-c", "users address emilys add --line1 '1 High St' --city York --country GB"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try ShopshSandbox.psql(admin, """
            SELECT operator || '|' || entity || '|' || entity_id || '|' || action || '|' || (after ->> 'city') FROM audit_log
            WHERE action LIKE 'address %' ORDER BY id DESC LIMIT 1
            """) == "\(shop.support)|user|1|address add|York")
        #expect(try ShopshSandbox.psql(asViewer, """
            SELECT after ->> 'line1' FROM audit_log_masked WHERE action = 'address add' ORDER BY id DESC LIMIT 1
            """) == "***")
    }
}
