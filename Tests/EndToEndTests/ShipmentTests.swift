// ShipmentTests: shipping through the built binary — 2 of 5
// units then the rest, `orders track` in json as a support bot reads it (parcels with the
// carrier's link, what is left, the address, the last notes), a cancel after a shipment and a
// deliver before any refused in one line with nothing changed; a customer's open orders. On
// SQLite, and on PostgreSQL in the second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct ShipmentTests {
    /// A new paid order of emilys: 5 units of product 1, 1 of product 2.
    static func paidOrder(_ sandbox: ShopshSandbox) async throws -> Int {
        _ = try await sandbox.ok("basket clear emilys")
        _ = try await sandbox.ok("basket add emilys 1 --qty 5")
        _ = try await sandbox.ok("basket add emilys 2")
        let placed = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        let id = try #require(placed["order_id"] as? Int ?? placed["id"] as? Int)
        _ = try await sandbox.ok("orders status \(id) paid")
        return id
    }

    static func track(_ sandbox: ShopshSandbox, _ id: Int) async throws -> [String: Any] {
        try await #require(try sandbox.json("orders track \(id) -o json") as? [String: Any])
    }

    @Test func twoOfFiveUnitsThenTheRest() async throws {
        let sandbox = try await ShopshSandbox()
        let id = try await Self.paidOrder(sandbox)
        // Deliver before anything shipped: one line, nothing changed.
        let early = try await sandbox.run(["-c", "orders deliver \(id)"])
        #expect(early.status == 1 && early.stderr.split(separator: "\n").count == 1 && early.stderr.contains("has not shipped yet"), "\(early.stderr)")

        _ = try await sandbox.ok("orders note \(id) leave it with the neighbour")
        _ = try await sandbox.ok("orders ship \(id) --carrier DHL --tracking 00340434161094015902 --lines 1:2")
        var tracked = try await Self.track(sandbox, id)
        #expect(tracked["status"] as? String == "paid" && tracked["units_left"] as? Int == 4, "\(tracked)")
        let left = try #require(tracked["left_to_ship"] as? [[String: Any]])
        #expect(left.map { $0["units"] as? Int } == [3, 1])
        var parcels = try #require(tracked["shipments"] as? [[String: Any]])
        #expect(parcels.count == 1 && parcels[0]["tracking_url"] as? String
                == "https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=00340434161094015902")
        #expect((tracked["notes"] as? [[String: Any]])?.last?["text"] as? String == "leave it with the neighbour")
        #expect(tracked["ship_city"] as? String == "Phoenix")

        // A cancel after a shipment: one line naming it, nothing changed.
        let cancel = try await sandbox.run(["-c", "orders cancel \(id) --yes"])
        #expect(cancel.status == 1 && cancel.stderr.contains("shipment"), "\(cancel.stderr)")
        await #expect(try Self.track(sandbox, id)["status"] as? String == "paid")

        _ = try await sandbox.ok("orders ship \(id) --carrier ups --tracking '1Z 999 AA1 01 2345 6784'")
        tracked = try await Self.track(sandbox, id)
        #expect(tracked["status"] as? String == "shipped" && tracked["units_left"] as? Int == 0)
        parcels = try #require(tracked["shipments"] as? [[String: Any]])
        #expect(parcels.map { $0["units"] as? Int } == [2, 4] && parcels[1]["tracking_code"] as? String == "1Z999AA10123456784")
        _ = try await sandbox.ok("orders deliver \(id)")
        await #expect(try Self.track(sandbox, id)["status"] as? String == "delivered")

        // csv: the parcels, through a real parser.
        let csv = try await sandbox.run(["-c", "orders track \(id) -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let carrier = try #require(reader.headerRow?.firstIndex(of: "carrier"))
        var carriers: [String] = []
        while let row = reader.next() { carriers.append(row[carrier]) }
        #expect(carriers == ["dhl", "ups"])
    }

    @Test func aCustomersOpenOrders() async throws {
        let sandbox = try await ShopshSandbox()
        let id = try await Self.paidOrder(sandbox)
        _ = try await sandbox.ok("orders ship \(id) --carrier gls --tracking 12345678 --lines 2")
        let open = try await #require(try sandbox.json("orders track emilys -o json") as? [[String: Any]])
        let row = try #require(open.first { $0["id"] as? Int == id })
        #expect(row["carrier"] as? String == "gls" && row["status"] as? String == "paid", "\(row)")
        #expect(open.allSatisfy { ["placed", "paid", "shipped"].contains($0["status"] as? String ?? "") })
        for (line, words) in [("orders ship \(id) --carrier gls --tracking 12345678 --lines 9", "has no line 9"),
                              ("orders ship \(id) --carrier gls --tracking 12345678 --lines 1:0", "1 or more units"),
                              ("orders ship \(id) --carrier gls --tracking 'x\u{1B}[2J'", "invalid tracking code"),
                              ("orders ship \(id) --carrier gls --tracking 12345678 --lines a", "--lines takes")] {
            let result = try await sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words)
                    && !result.stderr.contains("\u{1B}"), "\(line): \(result.stderr)")
        }
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct ShipmentServerRulesTests {
    @Test func parcelsMoveOnlyThroughTheServersFunctions() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = shop.admin
        // A paid order with a line of 2 or more units left, to ship in two parcels.
        let row = try await ShopshSandbox.psql(admin, """
            SELECT o.id || ' ' || l.line_number FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status = 'paid' AND l.quantity - l.returned >= 2 ORDER BY o.id DESC, l.line_number LIMIT 1
            """)
        let parts = row.split(separator: " ").compactMap { Int($0) }
        try #require(parts.count == 2, "no paid order with 2 units on a line: \(row)")
        let paid = parts[0], line = parts[1]
        // At psql support may not write parcels or move an order's status around the functions.
        try await TeamRolesTests.denied(shop.asSupport, "INSERT INTO shipments (order_id, carrier, tracking_code) VALUES (\(paid), 'dhl', 'ABCD1234')")
        try await TeamRolesTests.denied(shop.asSupport, "UPDATE shipments SET delivered_at = now()")
        try await TeamRolesTests.denied(shop.asSupport, "DELETE FROM shipment_lines")
        // The function keeps the rules: a bad code, more units than are left, a placed order.
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_ship(\(paid), 'dhl', 'x', NULL, NULL)") }
        await #expect(throws: (any Error).self) {
            try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_ship(\(paid), 'dhl', 'ABCD1234', ARRAY[1], ARRAY[100000])")
        }
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_deliver(\(paid), NULL)") }
        // One unit at psql: the order stays paid, the row is audited as the login; then no cancel.
        let shipment = try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_ship(\(paid), 'dhl', 'ABCD1234', ARRAY[\(line)], ARRAY[1])")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(paid)") == "paid")
        await #expect(try ShopshSandbox.psql(admin, """
            SELECT operator || '|' || action || '|' || (after ->> 'shipment') FROM audit_log WHERE entity = 'order' AND entity_id = '\(paid)'
            ORDER BY id DESC LIMIT 1
            """) == "\(shop.support)|ship|\(shipment)")
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_set_order_status(\(paid), 'cancelled')") }
        let refused = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "orders cancel \(paid) --yes"])
        #expect(refused.status == 1 && refused.stderr.contains("shipment \(shipment)"), "\(refused.stderr)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(paid)") == "paid")
        // The rest: shipped; delivering every parcel delivers it.
        _ = try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_ship(\(paid), 'ups', '1Z999AA10123456784', NULL, NULL)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(paid)") == "shipped")
        _ = try await ShopshSandbox.psql(shop.asSupport, "SELECT shopsh_deliver(\(paid), NULL)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT status FROM orders WHERE id = \(paid)") == "delivered")
    }
}
