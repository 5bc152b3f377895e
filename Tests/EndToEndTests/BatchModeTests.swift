// BatchModeTests: -c, -f and stdin batches: comments, continuation, error locations, exit codes.

import Foundation
import Testing

@Suite struct BatchModeTests {
    static let script = """
        # set-up
        products add --title "Batch One" --price 1.00 --category batch --sku B-1

        products add --title "Batch Two" \\
            --price 2.00 --category batch --sku B-2
        products show NO-SUCH-SKU
        products add --title "Batch Four" --price 4.00 --category batch --sku B-4
        """

    func skus(_ sandbox: ShopshSandbox) async throws -> [String] {
        let rows = try await #require(try sandbox.json("products list --category batch --sort sku -o json") as? [[String: Any]])
        return rows.compactMap { $0["sku"] as? String }
    }

    @Test func theFirstFailureStopsTheRunWithItsFileAndLine() async throws {
        let sandbox = try await ShopshSandbox()
        let path = try sandbox.file("upkeep.shop", Self.script)
        let result = try await sandbox.run(["-f", path])
        #expect(result.status == 1)
        // The third command starts on line 6 of the file.
        #expect(result.stderr.contains("\(path):6: error: no product with id or SKU \"NO-SUCH-SKU\""))
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("error:") }.count == 1)
        await #expect(try skus(sandbox) == ["B-1", "B-2"])
    }

    @Test func continueOnErrorRunsEverythingAndStillFails() async throws {
        let sandbox = try await ShopshSandbox()
        let path = try sandbox.file("upkeep.shop", Self.script)
        let result = try await sandbox.run(["--continue-on-error", "-f", path])
        #expect(result.status == 1)
        await #expect(try skus(sandbox) == ["B-1", "B-2", "B-4"])
    }

    /// Long files are parsed ahead on another thread (ParseAhead): output, errors and effects must
    /// be those of running the lines one by one.
    @Test func aLongFileRunsInOrderAndStopsAtItsFirstUsageError() async throws {
        let sandbox = try await ShopshSandbox()
        var lines = ["basket clear emilys"]
        lines += (1...30).map { _ in "basket add emilys 5 --qty 1 -o tsv --fields quantity --no-header\nbasket show emilys -o tsv --fields quantity --no-header" }
        lines.insert("basket add emilys 5 --qty x", at: 21)   // after 20 adds: line 1 + 40 + 1 = line 42
        let path = try sandbox.file("long.shop", lines.joined(separator: "\n") + "\n")

        let stopped = try await sandbox.run(["-f", path])
        #expect(stopped.status == 2)
        #expect(stopped.stderr.contains("\(path):42: error: The value 'x' is invalid for '--qty <N>'"))
        // The add and the show after it both print the new quantity.
        let expectedStopped: [String] = (1...20).flatMap { [String($0), String($0)] }
        #expect(stopped.stdout.split(separator: "\n").map(String.init) == expectedStopped)

        let continued = try await sandbox.run(["--continue-on-error", "-f", path])
        #expect(continued.status == 2)
        #expect(continued.stderr.split(separator: "\n").filter { $0.contains("error:") }.count == 1)
        let expectedContinued: [String] = (1...30).flatMap { [String($0), String($0)] }
        #expect(continued.stdout.split(separator: "\n").map(String.init) == expectedContinued)
    }

    /// The quantity of product 5 in emilys's basket (0 when the line is absent).
    func quantityOfFive(_ sandbox: ShopshSandbox) async throws -> Int {
        let lines = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        let items = try #require(lines["lines"] as? [[String: Any]])
        return items.first { ($0["product_id"] as? Int) == 5 }?["quantity"] as? Int ?? 0
    }

    static let addsThenAFailure = """
        basket add emilys 5 --qty 2
        basket add emilys 5 --qty 3
        basket add emilys NO-SUCH-SKU
        basket add emilys 5
        """

    @Test func atomicRunsKeepEverythingOrNothing() async throws {
        let sandbox = try await ShopshSandbox()
        let before = try await quantityOfFive(sandbox)
        let failing = try sandbox.file("failing.shop", Self.addsThenAFailure)
        let failed = try await sandbox.run(["--atomic", "-f", failing])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(failing):3: error:"))
        #expect(failed.stderr.contains("every change of the run was undone"))
        await #expect(try quantityOfFive(sandbox) == before)
        // Without --atomic the two adds before the failure stay.
        _ = try await sandbox.run(["-f", failing])
        await #expect(try quantityOfFive(sandbox) == before + 5)
        // With --continue-on-error, --atomic still keeps nothing when anything failed.
        let continued = try await sandbox.run(["--atomic", "--continue-on-error", "-f", failing])
        #expect(continued.status == 1)
        await #expect(try quantityOfFive(sandbox) == before + 5)
        let passing = try sandbox.file("passing.shop", "basket add emilys 5 --qty 2\nbasket add emilys 5 --qty 3\n")
        await #expect(try sandbox.run(["--atomic", "-f", passing]).status == 0)
        await #expect(try quantityOfFive(sandbox) == before + 10)
    }

    @Test func dryRunsShowTheOutputAndUndoEverything() async throws {
        let sandbox = try await ShopshSandbox()
        let before = try await quantityOfFive(sandbox)
        let result = try await sandbox.run(["--dry-run", "-c", "basket add emilys 5 --qty 2 -o tsv --fields quantity --no-header",
                                      "-c", "basket add emilys 5 --qty 3 -o tsv --fields quantity --no-header"])
        #expect(result.status == 0)
        // The commands saw each other's changes …
        #expect(result.stdout == "\(before + 2)\n\(before + 5)\n")
        #expect(result.stderr.contains("dry run: every change was undone"))
        // … and none of them is kept.
        await #expect(try quantityOfFive(sandbox) == before)
        // Commands on stdin too.
        _ = try await sandbox.run(["--dry-run"], stdin: "basket add emilys 5\n")
        await #expect(try quantityOfFive(sandbox) == before)
    }

    @Test func commandsOnStdinGetTheirOwnLabel() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run([], stdin: "products show 1 -o csv --fields id\n\nproducts show 0\nproducts show 2\n")
        #expect(result.status == 1)
        #expect(result.stdout == "id\r\n1\r\n")
        #expect(result.stderr.contains("<stdin>:3: error:"))
    }

    @Test func repeatedCommandFlagsRunInOrder() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["-c", "products show 2 -o tsv --fields id --no-header",
                                      "-c", "products show 1 -o tsv --fields id --no-header"])
        #expect(result.status == 0)
        #expect(result.stdout == "2\n1\n")
        let failing = try await sandbox.run(["-c", "products show 1", "-c", "products show x-none"])
        #expect(failing.stderr.contains("-c[2]:1: error:"))
    }

    @Test func usageErrorsExitWithTwo() async throws {
        let sandbox = try await ShopshSandbox()
        let unknownFlag = try await sandbox.run(["-c", "products list --colour red"])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.stderr.contains("--colour"))
        await #expect(try sandbox.run(["--no-such-option"]).status == 2)
        let help = try await sandbox.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: shopsh"))
        let version = try await sandbox.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
        await #expect(try sandbox.run(["help"]).stdout.contains("Commands:"))   // the shell's own help command
        await #expect(try sandbox.run(["-c", "frobnicate"]).status == 2)
        let unterminated = try await sandbox.run(["-c", "products show \"1"])
        #expect(unterminated.status == 2)
        #expect(unterminated.stderr.contains("unterminated"))
    }

    @Test func errorsAreOneLineAndJSONWhenTheFormatIsJSON() async throws {
        let sandbox = try await ShopshSandbox()
        let plain = try await sandbox.run(["-c", "products show 99999"])
        #expect(plain.stderr == "-c:1: error: no product with id or SKU \"99999\"\n")
        let json = try await sandbox.run(["-c", "products show 99999 -o json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: String])
        #expect(object["error"] == "no product with id or SKU \"99999\"")
        #expect(json.stdout.isEmpty)
    }

    @Test func sourceRunsAFileInsideTheShell() async throws {
        let sandbox = try await ShopshSandbox()
        let path = try sandbox.file("inner.shop", "products show 3 -o tsv --fields id --no-header\n")
        let result = try await sandbox.run([], stdin: "source \(path)\nproducts show 4 -o tsv --fields id --no-header\n")
        #expect(result.status == 0)
        #expect(result.stdout == "3\n4\n")
    }

    @Test func aFailingSourcedFileReportsItsOwnLineOnly() async throws {
        let sandbox = try await ShopshSandbox()
        let path = try sandbox.file("inner.shop", "products show 3 -o tsv --fields id --no-header\nproducts show nope\n")
        let result = try await sandbox.run(["--continue-on-error"],
                                     stdin: "source \(path)\nproducts show 4 -o tsv --fields id --no-header\n")
        #expect(result.status == 1)
        #expect(result.stdout == "3\n4\n")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors == ["\(path):2: error: no product with id or SKU \"nope\""], "stderr: \(result.stderr)")
    }

    @Test func helpForCommandsAndSubcommands() async throws {
        let sandbox = try await ShopshSandbox()
        let overview = try await sandbox.ok("help")
        #expect(overview.contains("products") && overview.contains("exit"))
        for command in ["products stock --help", "help products stock", "products help stock", "products stock -h"] {
            let text = try await sandbox.ok(command)
            #expect(text.contains("USAGE: products stock"), "\(command) gave:\n\(text)")
        }
        await #expect(try sandbox.ok("products").contains("SUBCOMMANDS"))
        await #expect(try sandbox.run(["-c", "help nothing"]).status == 2)
    }

    @Test func pipesAndRedirectsInsideTheShell() async throws {
        let sandbox = try await ShopshSandbox()
        let file = sandbox.root.appendingPathComponent("all.csv").path
        let result = try await sandbox.run([], stdin: """
            products list --all -o json | jq length
            products list --all -o csv > \(file)
            products show 2 -o csv --fields id --no-header >> \(file)
            products search 'a|b > c' -o json
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("194\n"))
        #expect(result.stdout.hasSuffix("[]\n"))   // quoted | and > are part of the search text
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.components(separatedBy: "\r\n").count == 197)   // header, 194 rows, "2", final empty
        #expect(written.hasSuffix("\r\n2\r\n"))
    }

    @Test func sharedScenariosRunUnchanged() async throws {
        let folder = ShopshBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Scenarios")
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".shop") }
        #expect(!scenarios.isEmpty)
        for scenario in scenarios {
            let sandbox = try await ShopshSandbox()
            let result = try await sandbox.run(["-f", folder.appendingPathComponent(scenario).path])
            #expect(result.status == 0, "\(scenario): \(result.stderr)")
        }
    }
}
