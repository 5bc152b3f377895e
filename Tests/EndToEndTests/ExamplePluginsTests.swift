// ExamplePluginsTests: the example external plugins in plugins/external (shopsh-lowstock in
// Python 3, shopsh-whois in POSIX sh) run as their own processes, the way the shell runs them
// (plugins/PROTOCOL.md): SHOPSH_PROTOCOL=1 and SHOPSH_BIN = the built binary, in the sandbox's
// environment (so on the PostgreSQL pass their shopsh calls use the sandbox's server shop).

import CSV
import Foundation
import Testing

@Suite struct ExamplePluginsTests {
    static let folder = ShopshBinary.packageRoot.appendingPathComponent("plugins/external")
    static let lowstock = folder.appendingPathComponent("shopsh-lowstock").path
    static let whois = folder.appendingPathComponent("shopsh-whois").path

    static let hasPython: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }()

    /// A sandbox whose environment is what the shell gives a plugin.
    static func sandbox() async throws -> ShopshSandbox {
        let sandbox = try await ShopshSandbox()
        sandbox.environment["SHOPSH_BIN"] = ShopshBinary.url.path
        sandbox.environment["SHOPSH_PROTOCOL"] = "1"
        sandbox.environment["SHOPSH_OPERATOR"] = "tester"
        return sandbox
    }

    /// Runs a plugin executable with `arguments` in the sandbox's environment.
    static func plugin(_ sandbox: ShopshSandbox, _ path: String, _ arguments: [String]) async throws -> ShopshSandbox.Result {
        try await sandbox.run(arguments, stdinData: Data(), launcher: [path], timeLimit: 120)
    }

    /// Every stdout line parsed as a JSON object (an issue and nil when one is not).
    static func rows(_ result: ShopshSandbox.Result, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        #expect(result.stdout.isEmpty || result.stdout.hasSuffix("\n"), sourceLocation: sourceLocation)
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)", sourceLocation: sourceLocation)
            return object
        }
    }

    /// The describe answer: one line, one JSON object, protocol 1, named as the file.
    static func checkDescribe(_ path: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let sandbox = try await Self.sandbox()
        let result = try await plugin(sandbox, path, ["--shopsh-describe"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.filter { $0 == "\n" }.count == 1, sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
                                  sourceLocation: sourceLocation)
        #expect(object["protocol"] as? Int == 1, sourceLocation: sourceLocation)
        #expect(object["name"] as? String == name, sourceLocation: sourceLocation)
        #expect(object["version"] is String && object["summary"] is String, sourceLocation: sourceLocation)
        let kinds: Set = ["text", "integer", "decimal", "file", "user", "product", "order", "category", "currency"]
        let commands = try #require(object["commands"] as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(!commands.isEmpty, sourceLocation: sourceLocation)
        for command in commands {
            #expect(command["name"] is String && command["summary"] is String, sourceLocation: sourceLocation)
            for entry in (command["arguments"] as? [[String: Any]] ?? []) + (command["options"] as? [[String: Any]] ?? []) {
                #expect(kinds.contains(entry["kind"] as? String ?? ""), "\(entry)", sourceLocation: sourceLocation)
            }
        }
        return object
    }

    /// A usage error: status 2, nothing on stdout, exactly one line on stderr.
    static func expectUsageError(_ result: ShopshSandbox.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1,
                "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: - shopsh-lowstock (Python 3)

    @Test(.enabled(if: hasPython, "python3 is not on PATH"))
    func lowstockDescribesItself() async throws {
        let object = try await Self.checkDescribe(Self.lowstock, name: "lowstock")
        let command = try #require((object["commands"] as? [[String: Any]])?.first)
        #expect(command["name"] as? String == "list")
        #expect((command["arguments"] as? [[String: Any]])?.first?["kind"] as? String == "category")
        #expect((command["options"] as? [[String: Any]])?.first?["name"] as? String == "threshold")
    }

    @Test(.enabled(if: hasPython, "python3 is not on PATH"))
    func lowstockListsEveryProductAtOrBelowTheThreshold() async throws {
        let sandbox = try await Self.sandbox()
        // One low product whose text needs JSON escaping and whose price must stay 12.50.
        let title = "Low \"quoted\" \\ back é\t\u{1B}[31m"
        let added = try await sandbox.run(["products", "add", "--title", "Low", "--price", "12.50", "--category", "test-low",
                                     "--sku", "LOW-1", "--stock", "0"])
        #expect(added.status == 0, "\(added.stderr)")
        try await sandbox.storeTitleBehindShopsh(sku: "LOW-1", title)   // a tab and ESC: shopsh's own rules refuse them
        let all = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        for threshold in [5, 0, 1_000_000] {
            let expected = all.filter { ($0["stock"] as? Int ?? Int.max) <= threshold }.compactMap { $0["id"] as? Int }
            let result = try await Self.plugin(sandbox, Self.lowstock, ["list", "--threshold", "\(threshold)"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            let rows = Self.rows(result)
            #expect(rows.count == expected.count)
            #expect(Set(rows.compactMap { $0["id"] as? Int }) == Set(expected))
            #expect(rows.allSatisfy { ($0["stock"] as? Int).map { $0 <= threshold } ?? false })
        }
        // The default threshold is 5, and --threshold=N is the same as --threshold N.
        let byDefault = try await Self.plugin(sandbox, Self.lowstock, ["list"])
        await #expect(byDefault.stdout == (try Self.plugin(sandbox, Self.lowstock, ["list", "--threshold", "5"])).stdout)
        await #expect(byDefault.stdout == (try Self.plugin(sandbox, Self.lowstock, ["list", "--threshold=5"])).stdout)
        #expect(!byDefault.stdout.isEmpty)
        // The columns, the escaped title read back exactly, and the price's exact text.
        let line = try #require(byDefault.stdout.split(separator: "\n").first { $0.contains("LOW-1") })
        let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(row["title"] as? String == title)
        #expect(row["sku"] as? String == "LOW-1" && row["category"] as? String == "test-low" && row["stock"] as? Int == 0)
        #expect(line.contains(#""price":12.50"#) || line.contains(#""price":"12.50""#), "\(line)")
        for key in ["id", "sku", "title", "category", "stock", "price", "currency"] { #expect(row[key] != nil, "\(key)") }
    }

    @Test(.enabled(if: hasPython, "python3 is not on PATH"))
    func lowstockFiltersByCategory() async throws {
        let sandbox = try await Self.sandbox()
        _ = try await sandbox.ok("products add --title 'Odd one' --price 1 --category odd-cat --sku ODD-1 --stock 2")
        _ = try await sandbox.ok("products add --title 'Odd two' --price 1 --category odd-cat --sku ODD-2 --stock 9")
        let odd = await Self.rows(try Self.plugin(sandbox, Self.lowstock, ["list", "odd-cat", "--threshold", "5"]))
        #expect(odd.compactMap { $0["sku"] as? String } == ["ODD-1"])
        // A real category, everything in it: the same products as shopsh's own filter.
        let phones = try await #require(try sandbox.json("products list --all --category smartphones -o json") as? [[String: Any]])
        #expect(!phones.isEmpty)
        let listed = await Self.rows(try Self.plugin(sandbox, Self.lowstock, ["list", "--threshold=1000000", "smartphones"]))
        #expect(listed.count == phones.count)
        #expect(listed.allSatisfy { $0["category"] as? String == "smartphones" })
        // A category that starts with "-" after `--` is still a category (it has no products).
        let dashed = try await Self.plugin(sandbox, Self.lowstock, ["list", "--", "-x"])
        #expect(dashed.status == 0 && dashed.stdout.isEmpty, "\(dashed.stderr)")
    }

    @Test(.enabled(if: hasPython, "python3 is not on PATH"))
    func lowstockRefusesBadArgumentsWithOneLineAndStatus2() async throws {
        let sandbox = try await Self.sandbox()
        for arguments in [["list", "--threshold", "five"], ["list", "--threshold=-1"], ["list", "--threshold", "1.5"],
                          ["list", "--threshold"], ["list", "--colour", "red"], ["list", "a", "b"], ["lists"], []] {
            await Self.expectUsageError(try Self.plugin(sandbox, Self.lowstock, arguments))
        }
    }

    @Test(.enabled(if: hasPython, "python3 is not on PATH"))
    func lowstockForwardsShopshErrorsAndStopsQuietlyOnAClosedPipe() async throws {
        let sandbox = try await Self.sandbox()
        // A store shopsh cannot open: its one error line, status 1.
        let broken = try await Self.sandbox()
        broken.environment["SHOPSH_STORE"] = broken.root.path + "/no/such/folder/shop.sqlite"
        let failed = try await Self.plugin(broken, Self.lowstock, ["list"])
        #expect(failed.status == 1, "\(failed.status) \(failed.stderr)")
        #expect(failed.stdout.isEmpty)
        #expect(failed.stderr.filter { $0 == "\n" }.count == 1 && failed.stderr.contains("no store at"), "\(failed.stderr)")
        // | head -n 1: one row, no traceback, no BrokenPipeError.
        let head = try await sandbox.run([], stdinData: Data(), launcher: [
            "sh", "-c", #""$0" list --threshold 1000000 | head -n 1"#, Self.lowstock])
        #expect(head.status == 0)
        #expect(head.stdout.filter { $0 == "\n" }.count == 1)
        #expect(head.stderr.isEmpty, "\(head.stderr)")
    }

    // MARK: - shopsh-whois (POSIX sh)

    @Test func whoisDescribesItself() async throws {
        let object = try await Self.checkDescribe(Self.whois, name: "whois")
        let command = try #require((object["commands"] as? [[String: Any]])?.first)
        #expect(command["name"] as? String == "show")
        #expect((command["arguments"] as? [[String: Any]])?.first?["kind"] as? String == "user")
    }

    @Test func whoisShowsACustomerTheirBasketAndTheirLastOrder() async throws {
        let sandbox = try await Self.sandbox()
        // Names with what JSON must escape and what shopsh's tsv escapes (names hold no C0 controls).
        let first = "Zoë \"Q\" \\ x", last = "\u{202E}rtl \\n"
        let created = try await sandbox.run(["users", "add", "--username", "zoe.q", "--email", "zoe@example.com",
                                       "--first-name", first, "--last-name", last])
        #expect(created.status == 0, "\(created.stderr)")
        let added = try await sandbox.run(["users", "show", "zoe.q", "-o", "json"])
        #expect(added.status == 0, "\(added.stderr)")
        let user = try #require(try JSONSerialization.jsonObject(with: added.stdoutData) as? [String: Any])
        let id = try #require(user["id"] as? Int)
        _ = try await sandbox.ok("basket add \(id) 1 --qty 2")
        _ = try await sandbox.ok("basket add \(id) 2 --qty 3")

        let result = try await Self.plugin(sandbox, Self.whois, ["show", "zoe.q"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let rows = Self.rows(result)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row["id"] as? Int == id)
        #expect(row["username"] as? String == "zoe.q")
        #expect(row["email"] as? String == user["email"] as? String)
        #expect(row["name"] as? String == first + " " + last)
        #expect(row["basket_lines"] as? Int == 2 && row["basket_items"] as? Int == 5)
        #expect(row["orders"] as? Int == 0 && row["last_order"] is NSNull)
        #expect(row["notes"] as? Int == 0 && row["last_note"] is NSNull)
        let total = try await #require(try sandbox.json("basket total \(id) -o json") as? [String: Any])
        #expect((row["basket_total"] as? NSNumber)?.decimalValue == (total["discounted_total"] as? NSNumber)?.decimalValue)

        // After checkout: one order, the newest; the default user is SHOPSH_USER.
        _ = try await sandbox.ok("basket checkout \(id)")
        sandbox.environment["SHOPSH_USER"] = String(id)   // the shell passes the id
        let after = await Self.rows(try Self.plugin(sandbox, Self.whois, ["show"]))
        let orders = try await #require(try sandbox.json("orders list --all --user \(id) -o json") as? [[String: Any]])
        #expect(after.first?["orders"] as? Int == orders.count && orders.count == 1)
        #expect(after.first?["last_order"] as? Int == orders.first?["id"] as? Int)
        #expect(after.first?["last_order_status"] as? String == orders.first?["status"] as? String)
        #expect(after.first?["basket_items"] as? Int == 0)
        // An order of a customer without an address goes nowhere yet; the team's newest note is shown.
        #expect(after.first?["last_order_to"] as? String == "")
        _ = try await sandbox.ok("users note \(id) first note")
        _ = try await sandbox.ok(#"users note \#(id) 'call, "don\x27t" email'"#)
        _ = try await sandbox.ok("users address \(id) add --line1 '1 High St' --city York --country GB")
        _ = try await sandbox.ok("basket add \(id) 1")
        _ = try await sandbox.ok("basket checkout \(id)")
        let noted = await Self.rows(try Self.plugin(sandbox, Self.whois, ["show"]))
        #expect(noted.first?["notes"] as? Int == 2 && noted.first?["last_note"] as? String == #"call, "don\x27t" email"#,
                "\(noted)")
        #expect(noted.first?["last_order_to"] as? String == "York, GB")
    }

    @Test func whoisErrors() async throws {
        let sandbox = try await Self.sandbox()
        // No user and no current customer; unknown options and commands: usage errors.
        for arguments in [["show"], ["show", "--colour"], ["show", "a", "b"], ["shows"], []] {
            await Self.expectUsageError(try Self.plugin(sandbox, Self.whois, arguments))
        }
        // An unknown user: shopsh's own error line, status 1.
        let missing = try await Self.plugin(sandbox, Self.whois, ["show", "nobody-at-all"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.filter { $0 == "\n" }.count == 1, "\(missing.stderr)")
    }

    /// The issue's acceptance, through the shell: with SHOPSH_PLUGIN_PATH=plugins/external,
    /// `shopsh lowstock list --threshold 5 -o json` has as many rows as products with stock ≤ 5,
    /// and `-o csv` parses with a CSV parser into the same rows.
    @Test(.enabled(if: hasPython, "needs python3")) func lowstockThroughTheShellInJSONAndCSV() async throws {
        let sandbox = try await Self.sandbox()
        sandbox.environment["SHOPSH_PLUGIN_PATH"] = Self.folder.path
        let products = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        let low = Set(products.filter { ($0["stock"] as? Int ?? Int.max) <= 5 }.compactMap { $0["id"] as? Int })
        #expect(!low.isEmpty)
        let json = try await sandbox.run(["lowstock", "list", "--threshold", "5", "-o", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["id"] as? Int }) == low && rows.count == low.count)
        let csv = try await sandbox.run(["lowstock", "list", "--threshold", "5", "-o", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let idColumn = try #require(reader.headerRow?.firstIndex(of: "id"))
        var ids: Set<Int> = []
        while let row = reader.next() { if let id = Int(row[idColumn]) { ids.insert(id) } }
        #expect(ids == low)
    }
}
