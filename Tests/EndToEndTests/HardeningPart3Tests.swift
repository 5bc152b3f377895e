// HardeningPart3Tests: issue 32's repros through the real binary, on the test's store (SQLite in
// the first pass, PostgreSQL in the second): report sums past 64 bits, stock changes that revert
// (twice: the second says so), a lone `+1` that is a change and never product 1, exit statuses
// of malformed and refused values, help text without runs of blanks, and one name for an order
// and a customer in machine output. (NUL bytes and empty selections are in BadInput/cases.txt;
// the server's own rules at psql in ServerRulesTests; the wait for a server in SharedShopTests.)

import CSV
import Foundation
import Testing

@Suite struct HardeningPart3Tests {
    /// The records of a CSV text after its header, read by a real CSV parser.
    func csvRows(_ text: String) async throws -> [[String: String]] {
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        let header = reader.headerRow ?? []
        var rows: [[String: String]] = []
        while let row = reader.next() { rows.append(Dictionary(uniqueKeysWithValues: zip(header, row).map { ($0, $1) })) }
        return rows
    }

    /// `value` rounded half away from zero to a whole number.
    func rounded(_ value: Decimal) -> Decimal {
        var input = value, result = Decimal()
        NSDecimalRound(&result, &input, 0, .plain)
        return result
    }

    /// The repro: two lines of 10,000 units at about 1,000,000,000.00 with odd discounts,
    /// within ShopCore's limits. `unit × quantity × (10000 − discount)` passes 2^63 there: SQLite
    /// fell to floating point (category and day differed by 0.01), PostgreSQL failed.
    @Test func reportSumsPast64BitsAgreeWithDecimalsInEveryGrouping() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products update 4 --price 1000000000 --discount 0.01 --stock 1000000000")
        _ = try await sandbox.ok("products update 5 --price 999999999.99 --discount 33.33 --stock 1000000000")
        _ = try await sandbox.ok("basket clear michaelw --yes")
        _ = try await sandbox.ok("basket add michaelw 4 --qty 10000")
        _ = try await sandbox.ok("basket add michaelw 5 --qty 10000")
        _ = try await sandbox.ok("basket checkout michaelw")
        // Each line's net in cents, recomputed with Decimal: the price times the units, less the discount, rounded once.
        let lines: [(cents: Decimal, discount: Decimal)] = [(100_000_000_000, Decimal(string: "0.01")!), (99_999_999_999, Decimal(string: "33.33")!)]
        let expectedCents = lines.reduce(Decimal(0)) { sum, line in
            sum + rounded(line.cents * 10_000 * (100 - line.discount) / 100)
        }
        let expected = expectedCents / 100
        for grouping in ["day", "category", "product", "customer", "status"] {
            let rows = try await csvRows(try sandbox.ok("orders stats --by \(grouping) --since today -o csv"))
            let net = rows.reduce(Decimal(0)) { $0 + (Decimal(string: $1["net"] ?? "") ?? -1) }
            #expect(net == expected, "--by \(grouping): \(rows)")
        }
        // Inside one transaction too (PostgreSQL failed any --atomic or --dry-run file holding such a report).
        let atomic = try await sandbox.run(["--atomic", "-c", "orders stats --by product --since today -o csv"])
        #expect(atomic.status == 0, "\(atomic.stderr)")
        await #expect(try csvRows(atomic.stdout).reduce(Decimal(0)) { $0 + (Decimal(string: $1["net"] ?? "") ?? -1) } == expected)
        let top = try await csvRows(try sandbox.ok("products top --since today -o csv"))
        #expect(top.reduce(Decimal(0)) { $0 + (Decimal(string: $1["net"] ?? "") ?? -1) } == expected, "\(top)")
    }

    @Test func aSingleStockChangeRevertsAndASecondRevertSaysItIsUndone() async throws {
        let sandbox = try await ShopshSandbox()
        let before = try await #require(try sandbox.json("products show 1 -o json") as? [String: Any])["stock"] as? Int
        _ = try await sandbox.ok("products stock 1 +5")
        let rows = try await #require(try sandbox.json("audit list --entity product --id 1 --sort id -o json") as? [[String: Any]])
        let row = try #require(rows.last?["id"] as? Int)
        let reverted = try await sandbox.run(["-c", "audit revert \(row) --yes"])
        #expect(reverted.status == 0, "\(reverted.stderr)")
        await #expect(try #require(try sandbox.json("products show 1 -o json") as? [String: Any])["stock"] as? Int == before)
        let again = try await sandbox.run(["-c", "audit revert \(row) --yes"])
        #expect(again.status == 0 && again.stderr.contains("already undone") && !again.stderr.contains("changed since"), "\(again.stderr)")
        await #expect(try #require(try sandbox.json("products show 1 -o json") as? [String: Any])["stock"] as? Int == before)
    }

    @Test func aBasketChangeRevertedTwiceSaysItIsUndone() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket add emilys 7 --qty 2")
        let rows = try await #require(try sandbox.json("audit list --entity basket --sort id -o json") as? [[String: Any]])
        let row = try #require(rows.last?["id"] as? Int)
        await #expect(try sandbox.run(["-c", "audit revert \(row) --yes"]).status == 0)
        let again = try await sandbox.run(["-c", "audit revert \(row) --yes"])
        #expect(again.status == 0 && again.stderr.contains("already undone"), "\(again.stderr)")
    }

    @Test func aLoneStockChangeIsNeverAProduct() async throws {
        let sandbox = try await ShopshSandbox()
        let stock = { try #require(try await sandbox.json("products show 1 -o json") as? [String: Any])["stock"] as? Int }
        let before = try await stock()
        let lone = try await sandbox.run(["-c", "products stock +1 --yes"])
        #expect(lone.status == 2 && lone.stderr.contains("a selection") && lone.stdout.isEmpty, "\(lone.stderr)")
        await #expect(try stock() == before)
        // With a selection it is the change.
        await #expect(try sandbox.run(["-c", "products stock +1 --ids 1 --yes"]).status == 0)
        await #expect(try stock() == before.map { $0 + 1 })
    }

    /// README: 2 for a value of the wrong shape, 1 for a well-formed one the shop refuses.
    @Test(arguments: [("orders stats --top -1", Int32(1)), ("orders stats --top 0", 1), ("orders stats --top=-1", 1),
                      ("products top --top -1", 1), ("orders stats --by year", 2), ("orders stats --since 12x", 2),
                      ("orders stats --since 2024-5-1", 2), ("orders stats --since 2024-02-30", 1), ("orders stats --since 0d", 1),
                      ("orders list --status lost", 2), ("orders status 1 lost", 2), ("users list --role boss", 2),
                      ("users list --status gone", 2), ("audit list --entity planet", 2), ("audit list --since 2026-2-1", 2),
                      ("audit list --since 2026-02-30", 1), ("basket list --idle 3x", 2), ("basket list --idle 99999w", 1)])
    func malformedValuesAreUsageErrorsAndRefusedOnesFailures(command: String, status: Int32) async throws {
        let result = try await ShopshSandbox().run(["-c", command])
        #expect(result.status == status, "\(command): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("error:") }.count == 1, "\(result.stderr)")
    }

    /// `orders stats --help` had runs of 17 blanks where its text had been joined without `\`.
    @Test func helpTextHasNoRunsOfBlanks() async throws {
        let sandbox = try await ShopshSandbox()
        for command in ["orders stats --help", "products top --help", "audit revert --help", "products stock --help"] {
            // The prose before USAGE (overview and discussion); option rows below are aligned with blanks.
            let help = try await sandbox.ok(command).components(separatedBy: "USAGE:")[0]
            #expect(help.contains("OVERVIEW"), "\(command): \(help)")
            for line in help.split(separator: "\n") {
                let text = line.drop { $0 == " " }
                #expect(!text.contains("    "), "\(command): \(line)")
            }
        }
    }

    /// One name per thing in machine output: an order's own record is `id`, a customer `customer`.
    @Test func anOrderIsIdAndACustomerIsCustomerInEveryRecord() async throws {
        let sandbox = try await ShopshSandbox()
        let placed = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        let id = try #require(placed["id"] as? Int, "\(placed)")
        #expect(placed["order_id"] == nil && placed["user"] == nil && placed["customer"] as? String == "emilys", "\(placed)")
        let order = try await #require(try sandbox.json("orders show \(id) -o json") as? [String: Any])
        #expect(order["id"] as? Int == id && order["customer"] as? String == "emilys", "\(order)")
        let baskets = try await #require(try sandbox.json("basket list --all -o json") as? [[String: Any]])
        #expect(!baskets.isEmpty && baskets.allSatisfy { $0["customer"] is String && $0["user"] == nil }, "\(baskets.prefix(1))")
        let shown = try await #require(try sandbox.json("basket show michaelw -o json") as? [String: Any])
        #expect(shown["customer"] as? String == "michaelw" && shown["user"] == nil)
        // Machine formats keep full ISO 8601 times.
        #expect(baskets.allSatisfy { ($0["last_change"] as? String)?.hasSuffix("Z") == true })
    }
}
