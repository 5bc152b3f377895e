// CommandTreeTests: the binary's one command tree, as argument-parser walks it — its tool-info
// dump holds the modes and every plugin command, the bash script it generates completes live
// values through `shopsh __complete --values`, and the modes run through it.

import Foundation
import Testing

@Suite(.serialized)
struct CommandTreeTests {
    @Test func theDumpHoldsTheModesAndEveryPluginCommand() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["--experimental-dump-help"])
        #expect(result.status == 0)
        let tool = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        #expect(root["commandName"] as? String == "shopsh")
        let subcommands = try #require(root["subcommands"] as? [[String: Any]])
        let names = subcommands.compactMap { $0["commandName"] as? String }
        for name in ["init", "roles", "products", "basket", "favorites", "users", "orders", "currency", "audit", "whoami"] {
            #expect(names.contains(name), "\(name) is in the tree")
        }
        let basket = try #require(subcommands.first { $0["commandName"] as? String == "basket" })
        let basketCommands = (basket["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(Set(["show", "add", "set", "remove", "clear", "total", "checkout"]).isSubset(of: basketCommands))
        // The root's options are the binary's own.
        let options = (root["arguments"] as? [[String: Any]] ?? []).compactMap { ($0["preferredName"] as? [String: Any])?["name"] as? String }
        #expect(Set(["command", "file", "store", "atomic", "format"]).isSubset(of: options))
    }

    @Test func theModesRunThroughTheTree() async throws {
        let sandbox = try await ShopshSandbox()
        let help = try await sandbox.run(["init", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: shopsh init"))
        let wrong = try await sandbox.run(["roles", "teardown"])
        #expect(wrong.status == 2)
        // The refusal comes from RolesMode.Action's declaration (a ChoiceArgument), on one line.
        #expect(wrong.stderr == "shopsh: error: The value 'teardown' is invalid for '<action>'. Please provide one of 'setup'. (see 'shopsh --help')\n")
        // A mode's --store is the binary's own option, read through the tree wherever it is given.
        let empty = sandbox.root.appendingPathComponent("empty.sqlite").path
        let made = try await sandbox.run(["init", "--empty", "--store", empty])
        #expect(made.status == 0 && made.stderr.contains("created") && FileManager.default.fileExists(atPath: empty))
        let big = sandbox.root.appendingPathComponent("generated.sqlite").path
        let generated = try await sandbox.run(["dev", "generate", "--products", "50", "--users", "5", "--store", big])
        #expect(generated.status == 0, "\(generated.stderr)")
        await #expect(try sandbox.run(["--store", big, "-o", "tsv", "--no-header", "products", "show", "50", "--fields", "id"]).stdout == "50\n")
        await #expect(try sandbox.run(["dev", "generate", "--products", "5"]).status == 2)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
    func argumentParsersBashScriptCompletesLiveValues() async throws {
        let sandbox = try await CompletionTests.demoSandbox()
        let generated = try await sandbox.run(["--generate-completion-script", "bash"])
        #expect(generated.status == 0)
        let script = try sandbox.file("shopsh-generated.bash", generated.stdout)
        func complete(_ words: [String]) async throws -> [String] {
            let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
            return try await CompletionTests.bashComplete(script: script, words: quoted, index: words.count - 1, sandbox: sandbox)
                .split(separator: "\n").map(String.init)
        }
        // Live product ids from the store (the demo shop has 194), and fixed values from the declarations.
        let ids = try await complete(["shopsh", "products", "show", ""])
        #expect(ids.prefix(3) == ["1", "2", "3"])
        await #expect(try complete(["shopsh", "orders", "status", "1", ""]) == ["placed", "paid", "shipped", "delivered", "refunded", "cancelled"])
        await #expect(try complete(["shopsh", "roles", ""]) == ["setup"])
        await #expect(try complete(["shopsh", "products", "list", "--category", "be"]) == ["beauty"])
        await #expect(try complete(["shopsh", "basket", "add", ""]).contains("emily.johnson@x.dummyjson.com"))
    }
}
