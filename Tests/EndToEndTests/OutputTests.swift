// OutputTests: formats, fields, paging and the safety rules (formula neutralisation, escaping)
// checked on the real binary's output.

import CSV
import Foundation
import Testing

@Suite struct OutputTests {
    @Test func formulaCellsAreNeutralisedButNegativeNumbersAreNot() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok(#"products add --title '=HYPERLINK("http://x")' --price 1.50 --category test --sku T-1"#)
        _ = try await sandbox.ok("products add --title=-12.50 --price 2 --category test --sku T-2")
        let text = try await sandbox.ok("products list --category test --sort sku -o csv --fields sku,title,price")
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        #expect(rows == [["T-1", #"'=HYPERLINK("http://x")"#, "1.50"], ["T-2", "-12.50", "2.00"]])
    }

    @Test func controlCharactersInDataNeverReachTheTerminalRaw() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products add --title redalert --price 1 --category test --sku T-ESC")
        try await sandbox.storeTitleBehindShopsh(sku: "T-ESC", "red\u{1B}[31malert")   // shopsh's own rules refuse an ESC
        for command in ["products list --category test -o table", "products show T-ESC -o table"] {
            let output = try await sandbox.ok(command)
            #expect(output.contains("alert"))
            #expect(!output.utf8.contains(0x1B), "raw ESC in \(command)")
        }
        // JSON keeps the data but escapes it.
        let json = try await sandbox.ok("products show T-ESC -o json")
        #expect(json.lowercased().contains(#"red\u001b[31malert"#))
    }

    @Test func everyFormatRendersTheSameRows() async throws {
        let sandbox = try await ShopshSandbox()
        let filter = "products list --category smartphones --sort price:desc --limit 3"
        let json = try await #require(try sandbox.json("\(filter) -o json") as? [[String: Any]])
        let ndjson = try await sandbox.ok("\(filter) -o ndjson").split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let tsv = try await sandbox.ok("\(filter) -o tsv").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(json.count == 3 && ndjson.count == 3 && tsv.count == 4)
        let ids = json.compactMap { $0["id"] as? Int }
        #expect(ids == ndjson.compactMap { $0["id"] as? Int })
        #expect(ids.map(String.init) == tsv.dropFirst().map { String($0[0]) })
        let prices = json.compactMap { ($0["price"] as? NSNumber)?.doubleValue }
        #expect(prices == prices.sorted(by: >))
    }

    @Test func emptyResultsAreNormalOutput() async throws {
        let sandbox = try await ShopshSandbox()
        let json = try await sandbox.run(["-c", "products list --search zzzz-nothing -o json"])
        #expect(json.status == 0)
        #expect(json.stdout == "[]\n")
        await #expect(try sandbox.ok("products list --category toys -o csv --fields id,title") == "id,title\r\n")
        await #expect(try sandbox.ok("products list --category toys -o ndjson") == "")
    }

    @Test func globalOutputOptionsApplyToEveryCommandOfTheRun() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["-o", "json", "-c", "products show 1", "-c", "products show 2"])
        let objects = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.compactMap { $0["id"] as? Int } == [1, 2])
        // A command's own flag wins over the global one.
        await #expect(try sandbox.run(["-o", "json", "-c", "products show 1 -o csv --fields id"]).stdout == "id\r\n1\r\n")
        // SHOPSH_FORMAT sets the default.
        sandbox.environment["SHOPSH_FORMAT"] = "ndjson"
        await #expect(try sandbox.ok("products list --limit 2 --fields id") == "{\"id\":1}\n{\"id\":2}\n")
    }

    @Test func pagingAndSorting() async throws {
        let sandbox = try await ShopshSandbox()
        let page = try await #require(try sandbox.json("products list --sort id:desc --limit 2 --offset 1 -o json --fields id") as? [[String: Int]])
        #expect(page == [["id": 193], ["id": 192]])
        let defaultLimit = try await #require(try sandbox.json("products list -o json") as? [Any])
        #expect(defaultLimit.count == 50)
        let badSort = try await sandbox.run(["-c", "products list --sort colour"])
        #expect(badSort.status == 1)
        #expect(badSort.stderr.contains("cannot sort by \"colour\""))
        let badField = try await sandbox.run(["-c", "products list --fields id,colour"])
        #expect(badField.status == 1)
        #expect(badField.stderr.contains("colour"))
    }
}
