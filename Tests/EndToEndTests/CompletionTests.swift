// CompletionTests: Tab completion of live values, flags and flag values in the real shell under
// tmux, `shopsh __complete`, and the bash completion script sourced by a real bash.

import Foundation
import Testing

@Suite(.serialized)
struct CompletionTests {
    /// A sandbox whose default store holds the demo shop.
    static func demoSandbox() async throws -> ShopshSandbox {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        return sandbox
    }

    // MARK: - readline (tmux)

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func tabCompletesALiveEmail() async throws {
        let terminal = await TerminalSession(sandbox: try Self.demoSandbox())
        try await terminal.start()
        // Two users start with "emi" (emilys, emilyt): Tab inserts their emails' common part.
        try await terminal.send("basket show emi", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> basket show emily.") }
        // readline lists the candidates on the second Tab after one that changed the line.
        try await terminal.send("Tab", "Tab")
        try await terminal.waitFor { $0.contains("emily.brown@x.dummyjson.com") && $0.contains("emily.johnson@x.dummyjson.com") }
        try await terminal.send("j", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> basket show emily.johnson@x.dummyjson.com") }
        // The completion added a space after the email (capture-pane drops trailing blanks).
        try await terminal.send(" --fields=quantity", "Enter")   // a leading blank: tmux reads "-…" as its own flag
        let screen = try await terminal.waitFor { $0.contains("basket show emily.johnson@x.dummyjson.com  --fields=quantity\nbasket of emilys") }
        #expect(!screen.contains("error"))
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func tabTabListsProductIdsWithTheirTitles() async throws {
        let terminal = await TerminalSession(sandbox: try Self.demoSandbox())
        try await terminal.start()
        try await terminal.send("products show 1", "Tab", "Tab")
        // 106 ids start with 1; the engine asks the store for at most 100: 1, 10–19, 100–188.
        let screen = try await Self.waitForListing(terminal, typed: "products show 1")
        let ids = Self.listedIds(screen, prompt: terminal.prompt)
        #expect(ids == [1] + Array(10...19) + Array(100...188))
        #expect(screen.contains("12  Annibale Colombo Sofa"))   // the title beside each id
        try await terminal.send("C-c")
        try await Self.waitForFreshPrompt(terminal)
        try await terminal.send("products show 12", "Tab", "Tab")
        let twelve = try await Self.waitForListing(terminal, typed: "products show 12")
        #expect(twelve.contains("129  Realme X"))
        #expect(Self.listedIds(twelve.components(separatedBy: "\(terminal.prompt)> products show 12").dropFirst().joined(), prompt: terminal.prompt)
                == [12] + Array(120...129))
    }

    /// The ids of a described listing: each cell is "ID  TITLE", cells separated by 2+ blanks.
    static func listedIds(_ screen: String, prompt: String) -> [Int] {
        var ids: [Int] = []
        for line in screen.split(separator: "\n") where !line.hasPrefix("\(prompt)>") {
            let cells = line.split(separator: "  ", omittingEmptySubsequences: true)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            ids += cells.compactMap { Int($0) }
        }
        return ids.sorted()
    }

    /// Waits until readline has printed a whole candidate listing: the typed line shows again
    /// below the listing as the last line on the screen (a listing printed halfway is not enough).
    @discardableResult
    static func waitForListing(_ terminal: TerminalSession, typed: String) async throws -> String {
        let promptLine = "\(terminal.prompt)> " + typed
        return try await terminal.waitFor { screen in
            let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            return lines.filter { $0 == promptLine }.count >= 2 && lines.last(where: { !$0.isEmpty }) == promptLine
        }
    }

    /// Waits until Ctrl-C has been handled: the last line on the screen is an empty prompt.
    static func waitForFreshPrompt(_ terminal: TerminalSession) async throws {
        try await terminal.waitFor { screen in
            screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(terminal.prompt)>"
        }
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func tabTabListsOrderStatusesAndFormats() async throws {
        let terminal = await TerminalSession(sandbox: try Self.demoSandbox())
        try await terminal.start()
        try await terminal.send("orders list --status ", "Tab", "Tab")
        try await Self.waitForListing(terminal, typed: "orders list --status")
        try await terminal.waitFor { screen in
            ["placed", "paid", "shipped", "delivered", "refunded", "cancelled"].allSatisfy { screen.contains($0) }
        }
        try await terminal.send("C-c")
        try await Self.waitForFreshPrompt(terminal)
        try await terminal.send("products list -o ", "Tab", "Tab")
        try await Self.waitForListing(terminal, typed: "products list -o")
        try await terminal.waitFor { screen in
            ["table", "json", "ndjson", "csv", "tsv"].allSatisfy { screen.contains($0) }
        }
        try await terminal.send("C-c")
        try await Self.waitForFreshPrompt(terminal)
        try await terminal.send("products list --cat", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> products list --category") }
    }

    // MARK: - __complete

    @Test func completeCommandPrintsOneCandidatePerLine() async throws {
        let sandbox = try await Self.demoSandbox()
        await #expect(try sandbox.run(["__complete", "products", "list", "--cat"]).stdout == "--category\n")
        await #expect(try sandbox.run(["__complete", "basket", "show", "emi"]).stdout
                == "emily.brown@x.dummyjson.com\nemily.johnson@x.dummyjson.com\n")
        await #expect(try sandbox.run(["__complete", "orders", "list", "--status", ""]).stdout
                == "placed\npaid\nshipped\ndelivered\nrefunded\ncancelled\n")
        await #expect(try sandbox.run(["__complete", "products", "list", "--category", "mens-"]).stdout
                == "mens-shirts\nmens-shoes\nmens-watches\n")
        await #expect(try sandbox.run(["__complete", "basket", "add", "emilys", "16"]).stdout.split(separator: "\n").count == 11)
        // A barcode completes from its first digits (the bundled data's, product 1's), with its title.
        await #expect(try sandbox.run(["__complete", "basket", "add", "emilys", "57847"]).stdout
                == "5784719087687\tEssence Mascara Lash Princess\n")
        await #expect(try sandbox.run(["__complete", "pro"]).stdout == "products\n")
        // File names complete too (`data/` is there on SQLite already: the default store's folder).
        try FileManager.default.createDirectory(at: sandbox.root.appendingPathComponent("data"), withIntermediateDirectories: true)
        await #expect(try sandbox.run(["__complete", "products", "import", "d"]).stdout == "data/\n")
        await #expect(try sandbox.run(["__complete"]).stdout == "")
    }

    /// Title words complete to product ids, each line `ID<tab>TITLE` (the title fish and zsh show
    /// beside the id), the title the product's own.
    @Test func asOfCompletesSpansAgoAndTheLastDays() async throws {
        let sandbox = try await ShopshSandbox()
        let offered = try await sandbox.run(["__complete", "basket", "show", "emilys", "--as-of", ""]).stdout.split(separator: "\n").map(String.init)
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        for expected in ["1h", "2h", "1d", "3d", "1w", today] { #expect(offered.contains(expected), "\(offered)") }
        let days = try await sandbox.run(["__complete", "products", "list", "--as-of", today]).stdout.split(separator: "\n")
        #expect(!days.isEmpty && days.allSatisfy { $0.hasPrefix(today) }, "\(days)")
        // What Tab offers, the option takes (a day of the last week may be before this new shop's log).
        for candidate in offered where !candidate.hasPrefix("20") || candidate.hasPrefix(today + "T") {
            let shown = try await sandbox.run(["-c", "products show 1 --as-of \(candidate) -o json"])
            #expect(shown.status == 0 || shown.stderr.contains("the audit log answers from"), "\(candidate): \(shown.stderr)")
        }
    }

    @Test func completeCommandDescribesProductsFoundByTitleWords() async throws {
        let sandbox = try await Self.demoSandbox()
        let lines = try await sandbox.run(["__complete", "basket", "add", "emilys", "ipho"]).stdout.split(separator: "\n")
        #expect(lines.count >= 5)
        for line in lines {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == 2, "\(line)")
            guard cells.count == 2, let id = Int(cells[0]) else { continue }
            #expect(cells[1].lowercased().contains("iphone"), "\(line)")
            let shown = try await sandbox.json("products show \(id) -o json") as? [String: Any]
            #expect(shown?["title"] as? String == cells[1])
        }
    }

    @Test(.aboutTheSQLiteFile) func completeCommandHonoursTheStoreOptionAndNeverCreatesTheDefaultStore() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["__complete", "basket", "show", "emi"])
        #expect(result.status == 0 && result.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
        await #expect(try sandbox.run(["__complete", "orders", "list", "-o", "j"]).stdout == "json\n")

        let other = sandbox.root.appendingPathComponent("other.sqlite").path
        await #expect(try sandbox.run(["init", "--store", other]).status == 0)
        await #expect(try sandbox.run(["__complete", "--store", other, "users", "show", "michael.w"]).stdout
                == "michael.williams@x.dummyjson.com\n")
        sandbox.environment["SHOPSH_STORE"] = other
        await #expect(try sandbox.run(["__complete", "users", "show", "michael.w"]).stdout == "michael.williams@x.dummyjson.com\n")
    }

    // MARK: - The bash script

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
    func bashScriptCompletesFlagsAndEmails() async throws {
        let sandbox = try await Self.demoSandbox()
        let script = ShopshBinary.packageRoot.appendingPathComponent("completions/shopsh.bash").path
        func complete(_ words: String, index: Int) async throws -> String {
            try await Self.bashComplete(script: script, words: words, index: index, sandbox: sandbox)
        }
        await #expect(try complete("shopsh products list --cat", index: 3) == "--category\n")
        await #expect(try complete("shopsh basket show emi", index: 3)
                == "emily.brown@x.dummyjson.com\nemily.johnson@x.dummyjson.com\n")
        await #expect(try complete("shopsh products list --format = n", index: 5) == "ndjson\n")
        // Products found by title words: bash shows the ids alone.
        let ids = try await complete("shopsh basket add emilys ipho", index: 4).split(separator: "\n")
        #expect(!ids.isEmpty && ids.allSatisfy { Int($0) != nil }, "\(ids)")
        // A file name with a blank is inserted escaped, so bash reads it back as one word.
        _ = try sandbox.file("my prices.csv", "")
        await #expect(try complete("shopsh products import \(sandbox.root.path)/my", index: 3)
                == "\(sandbox.root.path)/my\\ prices.csv\n")
    }

    /// Runs a real bash with `script` sourced and its `_shopsh` completing `words` (bash syntax,
    /// as COMP_WORDS; the one at `index` is being typed), shopsh on PATH; returns COMPREPLY, a line each.
    static func bashComplete(script: String, words: String, index: Int, sandbox: ShopshSandbox) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", """
            source '\(script)'; COMP_WORDS=(\(words)); COMP_CWORD=\(index); COMP_LINE="${COMP_WORDS[*]}"; \
            COMP_POINT=${#COMP_LINE}; _shopsh shopsh "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"
            """]
        var environment = sandbox.environment
        environment["PATH"] = ShopshBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
