// ShellLanguageTests: the built binary taught things (issue 37) — a start-up file applied to -c
// runs and skipped with --no-rc, refused when others can write it; variables, $(…) capture, if
// and for in command files under --dry-run, --atomic and plainly; exit N; aliases in help; and
// `shopsh --help` listing the commands. Outputs are parsed (JSON with JSONSerialization), and the
// shop's state is read back through shopsh after each run.

import Foundation
import Testing

@Suite struct ShellLanguageTests {
    /// A demo shop whose start-up file is `rc` (mode 0600).
    static func sandbox(rc: String? = nil) async throws -> ShopshSandbox {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        if let rc { try await writeRc(rc, in: sandbox) }
        return sandbox
    }

    /// The default start-up file of `sandbox` ($XDG_CONFIG_HOME/shopsh/shopshrc), written with `mode`.
    @discardableResult
    static func writeRc(_ text: String, in sandbox: ShopshSandbox, mode: Int = 0o600) async throws -> String {
        let folder = sandbox.root.appendingPathComponent("config/shopsh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("shopshrc").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    static func object(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any]? {
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        if parsed == nil { Issue.record("not JSON: \(text)", sourceLocation: sourceLocation) }
        return parsed as? [String: Any]
    }

    static let rc = """
        # support's aliases
        alias one 'users show $1 --fields id,username'
        set format json
        let ME = emilys
        """

    // MARK: - The start-up file

    @Test func theStartUpFileAppliesToCommandRunsAndNoRcIgnoresIt() async throws {
        let sandbox = try await Self.sandbox(rc: Self.rc)
        let shown = try await sandbox.run(["-c", "one $ME"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(Self.object(shown.stdout)?["username"] as? String == "emilys")
        // The command line's -o wins over the file's `set format json`.
        let csv = try await sandbox.run(["-o", "csv", "-c", "one $ME"])
        #expect(csv.stdout == "id,username\r\n1,emilys\r\n", "\(csv.stderr)")   // RFC 4180 lines
        // Without it: no alias, no variable, no json.
        let plain = try await sandbox.run(["--no-rc", "-c", "one emilys"])
        #expect(plain.status == 2 && plain.stderr.contains("unknown command \"one\""), "\(plain.stderr)")
        let unset = try await sandbox.run(["--no-rc", "-c", "users show $ME --fields username"])
        #expect(unset.status == 2 && unset.stderr.contains("$ME is not set"), "\(unset.stderr)")
        let tsv = try await sandbox.run(["--no-rc", "-c", "users show emilys --fields username"])
        #expect(tsv.stdout == "username\nemilys\n")
        // Stdin batches read it too.
        let stdin = try await sandbox.run([], stdin: "one $ME\n")
        #expect(Self.object(stdin.stdout)?["id"] as? Int == 1, "\(stdin.stderr)")
    }

    @Test func anotherFileByRcOrShopshRcReplacesTheDefault() async throws {
        let sandbox = try await Self.sandbox(rc: "let WHO = default")
        let other = try sandbox.file("team.rc", "let WHO = team\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: other)
        await #expect(try sandbox.run(["-c", "echo $WHO"]).stdout == "default\n")
        await #expect(try sandbox.run(["--rc", other, "-c", "echo $WHO"]).stdout == "team\n")
        sandbox.environment["SHOPSH_RC"] = other
        await #expect(try sandbox.run(["-c", "echo $WHO"]).stdout == "team\n")
        // A file named but missing is an error; the default one missing is not.
        let missing = try await sandbox.run(["--rc", sandbox.root.appendingPathComponent("nope").path, "-c", "echo hi"])
        #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr.contains("cannot read the start-up file"))
    }

    @Test(arguments: [0o664, 0o646, 0o666, 0o620])
    func aStartUpFileOthersCanWriteIsRefusedInOneLine(mode: Int) async throws {
        let sandbox = try await Self.sandbox()
        let path = try await Self.writeRc(Self.rc, in: sandbox, mode: mode)
        let refused = try await sandbox.run(["-c", "products show 1 --fields sku"])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty, "nothing ran: \(refused.stdout)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("\(path) is writable by others") && lines[0].contains("chmod go-w"), "\(refused.stderr)")
        // --no-rc still runs.
        await #expect(try sandbox.run(["--no-rc", "-c", "products show 1 --fields sku"]).stdout == "sku\nBEA-ESS-ESS-001\n")
    }

    @Test func aBadLineOfTheStartUpFileNamesItsLineAndTheRestLoads() async throws {
        let sandbox = try await Self.sandbox()
        let path = try await Self.writeRc("let A = 1\nproducts stock 1 =0\nalias loop 'loop'\nlet 9B = x\nlet C = 3\n", in: sandbox)
        let run = try await sandbox.run(["-c", "echo $A $C"])
        #expect(run.status == 0 && run.stdout == "1 3\n", "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 3, "\(run.stderr)")
        #expect(errors.first?.hasPrefix("\(path):2: error:") == true && errors.first?.contains("command file") == true)
        #expect(errors.dropFirst().first?.hasPrefix("\(path):3: error:") == true)
        #expect(errors.last?.hasPrefix("\(path):4: error:") == true)
        // The command on line 2 never ran.
        await #expect(try sandbox.run(["--no-rc", "-c", "products show 1 --fields stock --no-header"]).stdout != "0\n")
    }

    // MARK: - A command file that checks out, captures and decides

    /// Checks emilys's basket out, captures the order's id and total, and branches on the total
    /// (above $MIN: a stock change, then `products show $CHECK`, which fails for an unknown product).
    static let checkoutScript = """
        let U = emilys
        basket add $U 1 --qty 2
        let ORDER = $(basket checkout $U --fields id --no-header -o tsv)
        let TOTAL = $(orders list --user $U --sort id:desc --limit 1 --fields discounted_total --no-header -o tsv)
        if $TOTAL > $MIN
          products stock 1 -1
          products show $CHECK --fields id --no-header
          echo big order $ORDER of $TOTAL
        else
          echo small order $ORDER of $TOTAL
        end
        """

    struct ShopState: Equatable {
        var orders: Int
        var stock: String
        var basket: Int
    }

    static func state(_ sandbox: ShopshSandbox) async throws -> ShopState {
        let orders = try await sandbox.json("orders list --all -o json") as? [Any]
        let basket = try await sandbox.json("basket show emilys -o json") as? [String: Any]
        return await ShopState(orders: orders?.count ?? -1, stock: try sandbox.ok("products show 1 --fields stock --no-header -o tsv"),
                         basket: (basket?["lines"] as? [Any])?.count ?? -1)
    }

    @Test func aCommandFileCapturesTheOrderAndBranchesOnItsTotal() async throws {
        let sandbox = try await Self.sandbox()
        let file = try sandbox.file("nightly.shop", Self.checkoutScript)
        let before = try await Self.state(sandbox)
        let stockBefore = try #require(Int(before.stock.trimmingCharacters(in: .newlines)))

        let plain = try await sandbox.run(["-v", "MIN=10", "-v", "CHECK=1", "-f", file])
        #expect(plain.status == 0, "\(plain.stderr)")
        let order = try #require(plain.stdout.split(separator: "\n").last.map(String.init))
        let words = order.split(separator: " ")
        #expect(words.prefix(2) == ["big", "order"] && words.count == 5, "\(plain.stdout)")
        let id = String(words[2])
        let shown = try await #require(try sandbox.json("orders show \(id) -o json") as? [String: Any])
        #expect((shown["discounted_total"] as? NSNumber)?.doubleValue == Double(String(words[4])), "\(shown)")
        #expect(shown["customer"] as? String == "emilys")
        let after = try await Self.state(sandbox)
        #expect(after.orders == before.orders + 1 && after.basket == 0)
        #expect(after.stock == "\(stockBefore - 3)\n", "2 sold, 1 taken in the branch")

        // The other branch: nothing but the checkout changes.
        let small = try await sandbox.run(["-v", "MIN=1000000", "-v", "CHECK=1", "-f", file])
        #expect(small.status == 0 && small.stdout.hasSuffix(" of 17.89\n") && small.stdout.contains("small order "), "\(small.stdout) \(small.stderr)")
        await #expect(try Self.state(sandbox).stock == "\(stockBefore - 5)\n")
    }

    @Test func dryRunAndAtomicKeepTheirMeaningInsideBlocks() async throws {
        let sandbox = try await Self.sandbox()
        let file = try sandbox.file("nightly.shop", Self.checkoutScript)
        let before = try await Self.state(sandbox)

        let dry = try await sandbox.run(["--dry-run", "-v", "MIN=10", "-v", "CHECK=1", "-f", file])
        #expect(dry.status == 0 && dry.stdout.contains("big order "), "\(dry.stderr)")
        #expect(dry.stderr.contains("dry run: every change was undone"))
        await #expect(try Self.state(sandbox) == before)

        // A failing command in the taken branch: the run fails at its line and keeps nothing.
        let atomic = try await sandbox.run(["--atomic", "-v", "MIN=10", "-v", "CHECK=99999", "-f", file])
        #expect(atomic.status == 1)
        #expect(atomic.stderr.contains("\(file):7: error: no product"), "\(atomic.stderr)")
        #expect(!atomic.stdout.contains("big order"))
        await #expect(try Self.state(sandbox) == before)

        // The branch not taken holds the failing command: the run is kept.
        let kept = try await sandbox.run(["--atomic", "-v", "MIN=1000000", "-v", "CHECK=99999", "-f", file])
        #expect(kept.status == 0, "\(kept.stderr)")
        await #expect(try Self.state(sandbox).orders == before.orders + 1)
    }

    @Test func forWalksEachLineOfACapturedListAndStdinRunsBlocks() async throws {
        let sandbox = try await Self.sandbox()
        let script = """
            let IDS = $(products list --limit 3 --fields id --no-header -o tsv)
            for ID in $IDS
              echo id=$ID
            end
            for W in a "b c"
              if $W == a
                echo first $W
              else
                echo then $W
              end
            end
            """
        let expected = "id=1\nid=2\nid=3\nfirst a\nthen b c\n"
        let fromFile = try await sandbox.run(["-f", try sandbox.file("walk.shop", script)])
        #expect(fromFile.stdout == expected, "\(fromFile.stderr)")
        let fromStdin = try await sandbox.run([], stdin: script + "\n")
        #expect(fromStdin.stdout == expected, "\(fromStdin.stderr)")
        let fromCommand = try await sandbox.run(["-c", script])
        #expect(fromCommand.stdout == expected, "\(fromCommand.stderr)")
    }

    @Test func anIfOnACommandFollowsItsSuccess() async throws {
        let sandbox = try await Self.sandbox()
        let run = try await sandbox.run(["-c", """
            if products show 1 --fields id --no-header
              echo found
            end
            if ! products show 99999
              echo missing
            else
              echo unexpected
            end
            """])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "1\nfound\nmissing\n")
        // The failing test said why, once, and the file went on.
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("-c:4: error: no product"), "\(run.stderr)")
    }

    @Test func exitEndsTheRunWithItsStatusAndAnAtomicRunKeepsNothing() async throws {
        let sandbox = try await Self.sandbox()
        let stock = try await sandbox.ok("products show 1 --fields stock --no-header -o tsv")
        let ended = try await sandbox.run(["-c", "echo a", "-c", "exit 3", "-c", "echo b"])
        #expect(ended.status == 3 && ended.stdout == "a\n", "\(ended.stderr)")
        let atomic = try await sandbox.run(["--atomic", "-c", "products stock 1 -1\nexit 4"])
        #expect(atomic.status == 4)
        #expect(atomic.stderr.contains("atomic run: it ended with exit 4, so every change of the run was undone"), "\(atomic.stderr)")
        await #expect(try sandbox.ok("products show 1 --fields stock --no-header -o tsv") == stock)
        let zero = try await sandbox.run(["-c", "products stock 1 -1\nexit 0\nproducts stock 1 -1"])
        #expect(zero.status == 0)
        await #expect(try sandbox.ok("products show 1 --fields stock --no-header -o tsv") == "\((Int(stock.dropLast()) ?? 0) - 1)\n")
        let bad = try await sandbox.run(["-c", "exit 256"])
        #expect(bad.status == 2 && bad.stderr.contains("0 to 255"))
    }

    @Test func timingPrintsEachCommandsTimeOnStderr() async throws {
        let sandbox = try await Self.sandbox()
        let run = try await sandbox.run(["-c", "set timing on\nproducts show 1 --fields id --no-header\nset timing off\nproducts show 2 --fields id --no-header"])
        #expect(run.stdout == "1\n2\n")
        let times = run.stderr.split(separator: "\n")
        // `set timing off` itself is timed; the last command is not.
        #expect(times.count == 2 && times.allSatisfy { $0.wholeMatch(of: /Time: \d+\.\d{3} ms/) != nil }, "\(run.stderr)")
    }

    // MARK: - Help

    @Test func helpListsAliasesAndShopshHelpListsTheCommands() async throws {
        let sandbox = try await Self.sandbox(rc: "alias vip 'users show $1; basket show $1'\n")
        let help = try await sandbox.ok("help")
        #expect(help.contains("Aliases:\n  vip  users show $1; basket show $1\n"), "\(help)")
        await #expect(try sandbox.ok("help vip") == "vip is an alias: users show $1; basket show $1\n")
        let binary = try await sandbox.run(["--help"])
        #expect(binary.status == 0)
        for command in ["products", "basket", "coupons", "alias", "let", "edit", "source"] {
            #expect(binary.stdout.contains("\n  \(command) "), "\(command) missing from shopsh --help")
        }
        #expect(binary.stdout.contains("--no-rc") && binary.stdout.contains("--rc <file>"))
    }

    @Test func anAliasThatCallsItselfIsOneLine() async throws {
        let sandbox = try await Self.sandbox()
        let run = try await sandbox.run(["-c", "alias a 'b'", "-c", "alias b 'products list; a'"])
        #expect(run.status == 2)
        #expect(run.stderr == "-c[2]:1: error: alias b would call itself (b → a → b)\n", "\(run.stderr)")
        let withArguments = try await sandbox.run(["-c", "alias pick 'products show $1 --fields ${2:-sku} --no-header'\npick 2\npick 3 title\npick $@"])
        #expect(withArguments.stdout == "BEA-GLA-EYE-002\nPowder Canister\n", "\(withArguments.stderr)")
        #expect(withArguments.stderr.contains("-c:4: error: $@ is an alias's argument"), "\(withArguments.stderr)")
    }
}
