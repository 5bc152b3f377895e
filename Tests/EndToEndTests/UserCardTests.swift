// UserCardTests: `users show USER --all`, the customer's card, through the built binary (issue 35)
// — its parts compared with what the other commands list (addresses, notes, orders and their
// net), the lifetime spend added up here from `orders list`, csv read with a real parser. On
// SQLite, and on PostgreSQL in the second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct UserCardTests {
    @Test func theCardHoldsWhatTheOtherCommandsList() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("users note emilys prefers morning deliveries")
        _ = try await sandbox.ok("basket add emilys 1 --qty 2")
        let placed = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        let newest = try #require(placed["order_id"] as? Int ?? placed["id"] as? Int)
        _ = try await sandbox.ok("basket add emilys 2")
        let card = try await #require(try sandbox.json("users show emilys --all -o json") as? [String: Any])
        #expect(card["username"] as? String == "emilys" && card["email"] as? String == "emily.johnson@x.dummyjson.com", "\(card)")

        let addresses = try await #require(try sandbox.json("users address emilys list -o json") as? [[String: Any]])
        #expect((card["addresses"] as? [[String: Any]])?.map { $0["id"] as? Int } == addresses.map { $0["id"] as? Int })
        let notes = try #require(card["notes"] as? [[String: Any]])
        #expect(notes.map { $0["text"] as? String } == ["prefers morning deliveries"])

        let orders = try await #require(try sandbox.json("orders list --user emilys --all -o json") as? [[String: Any]])
        let last = try #require(card["last_orders"] as? [[String: Any]])
        #expect(last.map { $0["id"] as? Int } == orders.prefix(5).map { $0["id"] as? Int } && last.first?["id"] as? Int == newest)
        #expect(last.first?["ship_city"] as? String == orders.first?["ship_city"] as? String)
        #expect(card["orders"] as? Int == orders.count)
        // Lifetime spend: every order's net (as paid, less refunds) but the cancelled ones', in cents.
        func cents(_ value: Any?) -> Int {
            let text = (value as? NSNumber)?.stringValue ?? value as? String ?? "0"
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let fraction = parts.count > 1 ? String(parts[1]).padding(toLength: 2, withPad: "0", startingAt: 0) : "00"
            return (Int(parts[0]) ?? 0) * 100 + (Int(fraction) ?? 0)
        }
        let spent = orders.filter { $0["status"] as? String != "cancelled" }.map { cents($0["net"]) }.reduce(0, +)
        #expect(cents(card["lifetime_spend"]) == spent, "\(card["lifetime_spend"] ?? "") vs \(spent)")
        let basket = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        #expect(card["basket_items"] as? Int == basket["total_quantity"] as? Int
                && cents(card["basket_total"]) == cents(basket["discounted_total"]), "\(card) \(basket)")
        let favorites = try await #require(try sandbox.json("favorites list emilys --all -o json") as? [Any])
        #expect(card["favorites"] as? Int == favorites.count)

        // csv: the last orders, read with a real parser; the rest on stderr.
        let csv = try await sandbox.run(["-c", "users show emilys --all -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let id = try #require(reader.headerRow?.firstIndex(of: "id"))
        var ids: [Int] = []
        while let row = reader.next() { ids.append(Int(row[id]) ?? 0) }
        #expect(ids == last.compactMap { $0["id"] as? Int } && csv.stderr.contains("lifetime spend"), "\(csv.stderr)")
    }
}
