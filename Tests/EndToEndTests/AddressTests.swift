// AddressTests: customers' saved addresses through the built binary (issue 35) — every demo
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
    static func bundledUsers() async throws -> [[String: Any]] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ShopStoreKit/DemoData/users.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
    }

    @Test func everyDemoCustomerListsTheBundledAddress() async throws {
        let sandbox = try await ShopshSandbox()
        let users = try await Self.bundledUsers()
        // One batch, one ndjson object per customer (each has one address).
        let lines = users.compactMap { $0["username"] as? String }.map { "users address \($0) list -o ndjson" }
        let result = try await sandbox.run(["-f", try sandbox.file("addresses.shop", lines.joined(separator: "\n") + "\n")])
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

    @Test func anOperatorAddsUpdatesDefaultsAndRemovesAddresses() async throws {
        let sandbox = try await ShopshSandbox()
        let added = try await #require(try sandbox.json("""
            users address emilys add --name 'Emily J' --line1 'Unter den Linden 5' --line2 '3. OG' --city Berlin --postal-code 10117 \
            --country de --phone '+49 30 1234' --default shipping -o json
            """) as? [String: Any])
        let id = try #require(added["id"] as? Int)
        #expect(added["country"] as? String == "DE" && added["defaults"] as? String == "shipping" && added["line2"] as? String == "3. OG")
        var listed = try await #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.map { $0["defaults"] as? String } == ["billing", "shipping"])
        let moved = try await #require(try sandbox.json("users address emilys update \(id) --city Potsdam --phone '' -o json") as? [String: Any])
        #expect(moved["city"] as? String == "Potsdam" && moved["phone"] is NSNull && moved["line1"] as? String == "Unter den Linden 5")
        _ = try await sandbox.ok("users address emilys default \(id) --for billing")
        listed = try await #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.map { $0["defaults"] as? String } == ["", "shipping,billing"])

        // Bad input: one line, nothing changed.
        let before = try await sandbox.ok("users address emilys list -o json")
        for (line, words) in [("users address emilys add --line1 x --city y --country UK", "unknown country"),
                              ("users address emilys add --line1 x --country DE", "--city"),
                              ("users address emilys update \(id) --line1 '\u{1B}[2J'", "control"),
                              ("users address michaelw remove \(id)", "has no address \(id)"),
                              ("users address emilys remove", "needs the address's id"),
                              ("users address emilys list --city Bonn", "takes no address fields"),
                              ("users address emilys frobnicate", "frobnicate")] {
            let result = try await sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words),
                    "\(line): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
        }
        await #expect(try sandbox.ok("users address emilys list -o json") == before)

        _ = try await sandbox.ok("users address emilys remove \(id)")
        listed = try await #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["defaults"] as? String == "")
        // csv, read with a real parser, carries the same address.
        let csv = try await sandbox.run(["-c", "users address emilys list -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let city = try #require(reader.headerRow?.firstIndex(of: "city"))
        let row = try #require(reader.next())
        #expect(row[city] == listed[0]["city"] as? String)
    }
}

extension AddressTests {
    /// The demo customer emilys as the bundled file has her.
    static func emily() async throws -> [String: Any] {
        try await #require(try bundledUsers().first { $0["username"] as? String == "emilys" })
    }

    @Test func anOrderKeepsTheAddressItWasPlacedWith() async throws {
        let sandbox = try await ShopshSandbox()
        let bundled = try await #require(try Self.emily()["address"] as? [String: Any])
        _ = try await sandbox.ok("basket add emilys 1 --qty 2")
        let placed = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        let orderID = try #require(placed["order_id"] as? Int ?? placed["id"] as? Int, "\(placed)")
        func shipTo(_ id: Int) async throws -> [String: Any] {
            try await #require(try sandbox.json("orders show \(id) -o json") as? [String: Any])
        }
        var order = try await shipTo(orderID)
        #expect(order["ship_line1"] as? String == bundled["address"] as? String && order["ship_city"] as? String == bundled["city"] as? String
                && order["ship_postal_code"] as? String == bundled["postalCode"] as? String && order["ship_country"] as? String == "US",
                "\(order)")
        // The customer moves: the order keeps the old address; the next order goes to the new one.
        let added = try await #require(try sandbox.json("""
            users address emilys add --line1 'Unter den Linden 5' --city Berlin --postal-code 10117 --country DE --default shipping -o json
            """) as? [String: Any])
        let berlin = try #require(added["id"] as? Int)
        _ = try await sandbox.ok("users address emilys update 1 --line1 '1 Other Road' --city Tucson")
        order = try await shipTo(orderID)
        #expect(order["ship_line1"] as? String == bundled["address"] as? String && order["ship_city"] as? String == bundled["city"] as? String)
        _ = try await sandbox.ok("basket add emilys 2")
        let second = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        let secondID = try #require(second["order_id"] as? Int ?? second["id"] as? Int)
        await #expect(try shipTo(secondID)["ship_city"] as? String == "Berlin")
        // --address picks another of hers; someone else's is one line and changes nothing.
        _ = try await sandbox.ok("basket add emilys 3")
        let third = try await #require(try sandbox.json("basket checkout emilys --address 1 -o json") as? [String: Any])
        let thirdID = try #require(third["order_id"] as? Int ?? third["id"] as? Int)
        await #expect(try shipTo(thirdID)["ship_city"] as? String == "Tucson")
        _ = try await sandbox.ok("basket add michaelw 4")
        let basketBefore = try await sandbox.ok("basket show michaelw -o json")
        let refused = try await sandbox.run(["-c", "basket checkout michaelw --address \(berlin)"])
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1
                && refused.stderr.contains("has no address \(berlin)"), "\(refused.stderr)")
        await #expect(try sandbox.ok("basket show michaelw -o json") == basketBefore)

        // orders list finds them by where they go; csv through a real parser.
        let toBerlin = try await #require(try sandbox.json("orders list --country de -o json") as? [[String: Any]])
        #expect(toBerlin.map { $0["id"] as? Int } == [secondID])
        let toTucson = try await #require(try sandbox.json("orders list --city tucson --user emilys -o json") as? [[String: Any]])
        #expect(toTucson.map { $0["id"] as? Int } == [thirdID])
        let csv = try await sandbox.run(["-c", "orders list --country US --user emilys -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let country = try #require(reader.headerRow?.firstIndex(of: "ship_country"))
        var countries: Set<String> = []
        while let row = reader.next() { countries.insert(row[country]) }
        #expect(countries == ["US"], "\(csv.stdout)")
        for (line, words) in [("orders list --country XX", "unknown country"), ("orders list --city ''", "--city is empty")] {
            let result = try await sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words), "\(line): \(result.stderr)")
        }
    }

    /// The demo's orders go to their customers' bundled addresses.
    @Test func theDemosOrdersGoToTheirCustomersAddresses() async throws {
        let sandbox = try await ShopshSandbox()
        let users = try await Self.bundledUsers()
        let cities = Dictionary(users.compactMap { user -> (Int, String)? in
            guard let id = user["id"] as? Int, let address = user["address"] as? [String: Any], let city = address["city"] as? String else { return nil }
            return (id, city)
        }, uniquingKeysWith: { first, _ in first })
        let orders = try await #require(try sandbox.json("orders list --limit 200 -o json") as? [[String: Any]])
        try #require(!orders.isEmpty)
        for order in orders {
            let user = try #require(order["user_id"] as? Int)
            #expect(order["ship_city"] as? String == cities[user] && order["ship_country"] as? String == "US", "\(order)")
        }
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct AddressServerRulesTests {
    @Test func aViewerReadsAddressesMaskedAndSupportEditsThem() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = shop.admin
        let viewer = try await TeamRolesTests.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let asViewer = try await TeamRolesTests.url(admin, as: viewer)
        // Through shopsh: masked in json and csv; no change.
        let listed = try await shop.sandbox.run(["--store", asViewer, "-c", "users address emilys list -o json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]], "\(listed.stderr)")
        #expect(rows.first?["line1"] as? String == "***" && rows.first?["name"] as? String == "E***"
                && rows.first?["city"] as? String == "Phoenix" && rows.first?["postal_code"] as? String == "2***", "\(rows)")
        let csv = try await shop.sandbox.run(["--store", asViewer, "-c", "users address emilys list -o csv"])
        #expect(csv.status == 0 && !csv.stdout.contains("626 Main Street") && csv.stdout.contains("***"), "\(csv.stdout)")
        let refused = try await shop.sandbox.run(["--store", asViewer, "-c", "users address emilys add --line1 x --city y --country DE"])
        #expect(refused.status == 1 && refused.stderr.contains("needs the support role"), "\(refused.stderr)")
        // At psql: the table is not theirs to read; the masked view is.
        try await TeamRolesTests.denied(asViewer, "SELECT line1 FROM addresses")
        try await TeamRolesTests.denied(asViewer, "INSERT INTO addresses (user_id, line1, city, country) VALUES (1, 'x', 'y', 'DE')")
        await #expect(try ShopshSandbox.psql(asViewer, "SELECT line1 || '|' || city FROM addresses_masked WHERE user_id = 1") == "***|Phoenix")
        // Support edits them; the server audits the change under the customer.
        let edited = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "users address emilys add --line1 '1 High St' --city York --country GB"])
        #expect(edited.status == 0, "\(edited.stderr)")
        await #expect(try ShopshSandbox.psql(admin, """
            SELECT operator || '|' || entity || '|' || entity_id || '|' || action || '|' || (after ->> 'city') FROM audit_log
            WHERE action LIKE 'address %' ORDER BY id DESC LIMIT 1
            """) == "\(shop.support)|user|1|address add|York")
        await #expect(try ShopshSandbox.psql(asViewer, """
            SELECT after ->> 'line1' FROM audit_log_masked WHERE action = 'address add' ORDER BY id DESC LIMIT 1
            """) == "***")
    }

    @Test func aViewerReadsWhereOrdersGoMaskedAndNobodyRewritesIt() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = shop.admin
        let viewer = try await TeamRolesTests.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let asViewer = try await TeamRolesTests.url(admin, as: viewer)
        let order = try await #require(Int(try ShopshSandbox.psql(admin, "SELECT min(order_id) FROM order_addresses")))
        let line1 = try await ShopshSandbox.psql(admin, "SELECT line1 FROM order_addresses WHERE order_id = \(order)")
        // Through shopsh: masked in json, csv and the table; the city and country are kept.
        let shown = try await shop.sandbox.run(["--store", asViewer, "-c", "orders show \(order) -o json"])
        let object = try #require(try JSONSerialization.jsonObject(with: shown.stdoutData) as? [String: Any], "\(shown.stderr)")
        #expect(object["ship_line1"] as? String == "***" && (object["ship_name"] as? String).map { $0.isEmpty || $0.hasSuffix("***") } == true
                && (object["ship_city"] as? String).map { !$0.isEmpty && $0 != "***" } == true, "\(object)")
        for format in ["csv", "table", "ndjson"] {
            let listed = try await shop.sandbox.run(["--store", asViewer, "-c", "orders list --limit 50 -o \(format) --fields id,ship_line1,ship_postal_code"])
            #expect(listed.status == 0 && !listed.stdout.contains(line1) && listed.stdout.contains("***"), "\(format): \(listed.stdout)")
        }
        // At psql: the table is not the viewer's to read; the masked view is.
        try await TeamRolesTests.denied(asViewer, "SELECT line1 FROM order_addresses")
        await #expect(try ShopshSandbox.psql(asViewer, "SELECT line1 FROM order_addresses_masked WHERE order_id = \(order)") == "***")
        // Support reads it but writes it only through checkout: no rewriting where an order goes.
        await #expect(try ShopshSandbox.psql(shop.asSupport, "SELECT line1 FROM order_addresses WHERE order_id = \(order)") == line1)
        try await TeamRolesTests.denied(shop.asSupport, "UPDATE order_addresses SET line1 = 'elsewhere' WHERE order_id = \(order)")
        try await TeamRolesTests.denied(shop.asSupport, "DELETE FROM order_addresses WHERE order_id = \(order)")
        try await TeamRolesTests.denied(shop.asSupport, "SELECT shopsh_checkout_basket(1)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT line1 FROM order_addresses WHERE order_id = \(order)") == line1)
        // Checkout at psql copies the customer's default shipping address too.
        _ = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "basket add emilys 1"])
        let placed = try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_checkout(1)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT a.line1 = d.line1 FROM order_addresses a, addresses d WHERE a.order_id = \(placed) AND d.user_id = 1 AND d.default_shipping") == "t")
    }
}
