// ExternalPluginTests: `shopsh-NAME` executables found on SHOPSH_PLUGIN_PATH, run through the
// real binary: their rows in every format, their environment, and hostile plugins (crash, hang,
// invalid JSON, a 10 MB line, exit 3, protocol 2) that give one error line and leave the shell up.

import CSV
import Foundation
import Testing

/// A sandbox with a plugin folder on SHOPSH_PLUGIN_PATH, and tiny sh plugins written into it.
final class PluginSandbox {
    let sandbox: ShopshSandbox
    let folder: URL

    init() async throws {
        sandbox = try await ShopshSandbox()
        folder = sandbox.root.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        sandbox.environment["SHOPSH_PLUGIN_PATH"] = folder.path
    }

    /// The description most test plugins give: one command `list` with a CATEGORY and --threshold;
    /// `writes` adds that command's `"writes"` field (absent when nil).
    static func description(_ name: String, protocolVersion: Int = 1, writes: Bool? = nil) -> String {
        let declared = writes.map { #", "writes": \#($0)"# } ?? ""
        return #"{"protocol": \#(protocolVersion), "name": "\#(name)", "version": "1.2.3", "summary": "Test plugin \#(name)", "commands": [{"name": "list", "summary": "List rows"\#(declared), "arguments": [{"name": "category", "kind": "category", "optional": true}], "options": [{"name": "threshold", "kind": "integer", "summary": "At most this"}]}]}"#
    }

    /// Writes `shopsh-NAME`: `--shopsh-describe` runs `describe` (default: print the
    /// description), anything else runs `body` with the command word shifted away.
    @discardableResult
    func plugin(_ name: String, describe: String? = nil, writes: Bool? = nil, body: String,
                executable: Bool = true) throws -> String {
        let path = folder.appendingPathComponent("shopsh-" + name).path
        let script = """
            #!/bin/sh
            if [ "$1" = "--shopsh-describe" ]; then
            \(describe ?? "cat <<'JSON'\n\(Self.description(name, writes: writes))\nJSON")
            exit 0
            fi
            shift
            \(body)
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
        return path
    }

    /// Describes plugin `name` (the shell caches the description) before a test relies on it: on a
    /// loaded machine a first describe may overrun its 2 s, and a test of anything else must not
    /// depend on how fast the machine is. Tries up to 10 times.
    func described(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<10 {
            let listed = try await run(["plugins", "-o", "json"])
            let rows = (try? JSONSerialization.jsonObject(with: listed.stdoutData)) as? [[String: Any]] ?? []
            if rows.contains(where: { $0["name"] as? String == name && $0["status"] as? String == "ok" }) { return }
        }
        Issue.record("plugin \(name) was never described", sourceLocation: sourceLocation)
    }

    /// The good plugin: three rows with text, integer, decimal, bool, null and list values.
    func threeRows() async throws {
        try plugin("rows", body: """
            printf '%s\\n' '{"name": "Lipstick", "stock": 3, "price": 12.50, "active": true, "tags": ["red", "matte"]}'
            printf '%s\\n' '{"name": "=1+2", "stock": 0, "price": 0.99, "active": false, "tags": []}'
            printf '%s\\n' '{"stock": 7, "name": "Comma, \\"quoted\\"", "price": 100, "active": null, "tags": ["x"]}'
            """)
    }

    func run(_ arguments: [String], timeLimit: Double = 60) async throws -> ShopshSandbox.Result {
        try await sandbox.run(arguments, stdinData: Data(), timeLimit: timeLimit)
    }
}

@Suite struct ExternalPluginTests {
    @Test func rowsRenderInEveryFormat() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        let json = try await plugins.run(["-c", "rows list -o json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        #expect(rows.count == 3)
        #expect(rows.map { $0["name"] as? String } == ["Lipstick", "=1+2", "Comma, \"quoted\""])
        #expect(rows.map { ($0["stock"] as? NSNumber)?.intValue } == [3, 0, 7])
        #expect(json.stdout.contains("12.50"), "decimals keep their digits: \(json.stdout)")
        #expect(rows[0]["tags"] as? [String] == ["red", "matte"])
        #expect(rows[2]["active"] is NSNull)

        let csv = try await plugins.run(["-c", "rows list -o csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        #expect(reader.headerRow == ["name", "stock", "price", "active", "tags"])
        var names: [String] = []
        while let row = reader.next() { names.append(row[0]) }
        #expect(names.count == 3)
        #expect(names[1] != "=1+2", "a formula cell is defused as in built-in csv output: \(names)")
        #expect(names[2] == "Comma, \"quoted\"")

        let fields = try await plugins.run(["-c", "rows list -o tsv --fields stock,name --no-header"])
        #expect(fields.status == 0, "\(fields.stderr)")
        #expect(fields.stdout.split(separator: "\n").first == "3\tLipstick")

        let ndjson = try await plugins.run(["-o", "ndjson", "-c", "rows list --threshold 5 Beauty"])
        #expect(ndjson.status == 0, "\(ndjson.stderr)")
        #expect(ndjson.stdout.split(separator: "\n").count == 3)
    }

    @Test func thePluginGetsTheStoreTheOperatorAndTheBinary() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("env", writes: false, body: #"""
            printf '{"protocol": "%s", "store": "%s", "operator": "%s", "bin": "%s", "user": "%s", "args": "%s", "readonly": "%s"}\n' \
              "$SHOPSH_PROTOCOL" "$SHOPSH_STORE" "$SHOPSH_OPERATOR" "$SHOPSH_BIN" "${SHOPSH_USER-unset}" "$*" "${SHOPSH_READ_ONLY-}"
            """#)
        let result = try await plugins.run(["-c", "env list --threshold 4 -o json beauty"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = try #require((try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: String]])?.first)
        #expect(row["protocol"] == "1")
        #expect(row["args"] == "--threshold 4 beauty", "the output flags stay with the shell")
        #expect(row["user"] == "unset")
        // The store this sandbox's shopsh uses: a server URL (without a password) or the file.
        let store = row["store"] ?? ""
        #expect(store == plugins.sandbox.environment["SHOPSH_STORE"] ?? plugins.sandbox.storePath, "\(store)")
        #expect(!store.contains(":@"))
        #expect(!(row["operator"] ?? "").isEmpty)
        #expect(FileManager.default.isExecutableFile(atPath: row["bin"] ?? ""), "\(row)")
        #expect(row["readonly"] == "")
        let readOnly = try await plugins.run(["--read-only", "-c", "env list -o json"])
        #expect(readOnly.status == 0, "\(readOnly.stderr)")
        let readOnlyRow = (try JSONSerialization.jsonObject(with: readOnly.stdoutData) as? [[String: String]])?.first
        #expect(readOnlyRow?["readonly"] == "1", "a read-only session's plugin calls shopsh read-only")
    }

    @Test func aPluginReadsTheShopThroughShopshItself() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("top", body: #"exec "$SHOPSH_BIN" -o ndjson -c 'products list --limit 3 --fields id,title'"#)
        let result = try await plugins.run(["-c", "top list -o json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        #expect(rows.count == 3)
        #expect(rows.first?["title"] is String)
    }

    /// A plugin's writes through shopsh could not join an --atomic or --dry-run run's transaction:
    /// there its shopsh calls are read-only, so one that says it does not write but tries (without
    /// undoing SHOPSH_READ_ONLY) changes nothing. (One that may write is not even started there:
    /// PluginPromisesTests.)
    @Test func aDryRunsPluginCannotWriteThroughShopsh() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("writer", writes: false, body: #"exec "$SHOPSH_BIN" -o ndjson -c 'basket add emilys 1'"#)
        let before = try await plugins.sandbox.ok("basket show emilys -o json")
        for flag in ["--dry-run", "--atomic"] {
            let result = try await plugins.run([flag, "-c", "writer list"])
            #expect(result.status == 1 && result.stderr.contains("read-only"), "\(flag): \(result.stderr)")
        }
        await #expect(try plugins.sandbox.ok("basket show emilys -o json") == before)
        await #expect(try plugins.run(["-c", "writer list"]).status == 0, "outside a run the plugin writes")
    }

    /// Each hostile plugin: exit status 1, exactly one error line naming it, and the next
    /// command of the batch still runs (`--continue-on-error`).
    @Test(arguments: [
        ("crash", "kill -SEGV $$", "crash: killed by"),
        ("exit3", "echo 'first line' >&2; echo 'out of paper' >&2; exit 3", "exit3: out of paper"),
        ("silent", "exit 3", "silent: exited with status 3"),
        ("badjson", #"echo '{"a": 1}'; echo '{"a":'"#, "badjson: output line 2 is not valid JSON"),
        ("notutf8", #"printf '{"a": "\377"}\n'"#, "notutf8: output line 1 is not UTF-8"),
        ("notflat", #"echo '{"a": {"b": 1}}'"#, "notflat: output line 1: \"a\" is an object"),
        ("flood", "head -c 10000000 /dev/zero | tr '\\0' x; sleep 100", "flood: output line 1 is longer than"),
    ])
    func aHostilePluginIsOneErrorLine(name: String, body: String, message: String) async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        try plugins.plugin(name, body: body)
        let started = Date()
        let result = try await plugins.run(["--continue-on-error", "-c", "\(name) list\nrows list -o ndjson"])
        #expect(Date().timeIntervalSince(started) < 60, "it did not wait for the plugin's sleep 100")
        #expect(!result.timedOut && !result.signalled)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.contains("Lipstick"), "the next command ran: \(result.stdout)")
    }

    @Test func aDescribeThatHangsIsSkippedWithinTwoSeconds() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        try plugins.plugin("hang", describe: "sleep 100", body: "true")
        let started = Date()
        let result = try await plugins.run(["--continue-on-error", "-c", "hang list\nrows list -o ndjson"])
        #expect(Date().timeIntervalSince(started) < 60, "it did not wait for the describe's sleep 100")
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("did not finish within 2 s"), "\(result.stderr)")
        #expect(result.stdout.contains("Lipstick"))
    }

    @Test func anUnknownProtocolIsRefusedNamingTheOnesSpoken() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("future", describe: "echo '\(PluginSandbox.description("future", protocolVersion: 2))'", body: "true")
        let result = try await plugins.run(["-c", "future list"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("protocol 2 is not one this shopsh speaks (it speaks 1)"), "\(result.stderr)")
    }

    @Test func wrongUseIsAUsageError() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        for line in ["rows nosuch", "rows list --nosuch 1", "rows list --threshold many", "rows list a b"] {
            let result = try await plugins.run(["-c", line])
            #expect(result.status == 2, "\(line): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(line): \(result.stderr)")
        }
        let unknown = try await plugins.run(["-c", "nosuchplugin"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command"))
    }

    @Test func helpShowsTheDescription() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        for line in ["help rows", "rows --help", "rows"] {
            let result = try await plugins.run(["-c", line])
            #expect(result.status == 0, "\(line): \(result.stderr)")
            #expect(result.stdout.contains("Test plugin rows"), "\(line): \(result.stdout)")
            #expect(result.stdout.contains("--threshold INTEGER"), "\(line): \(result.stdout)")
            #expect(result.stdout.contains("[CATEGORY]"), "\(line): \(result.stdout)")
        }
        let all = try await plugins.run(["-c", "help"])
        #expect(all.stdout.contains("External plugins:"))
    }

    @Test func pluginsListsBuiltInAndExternalWithTheirStatus() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        try plugins.plugin("products", body: "true")
        try plugins.plugin("noexec", body: "true", executable: false)
        try plugins.plugin("broken", describe: "echo 'not json'", body: "true")
        let result = try await plugins.run(["-c", "plugins -o json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        let external = Dictionary(uniqueKeysWithValues: rows.filter { $0["kind"] as? String == "external" }
            .compactMap { row in (row["name"] as? String).map { ($0, row) } })
        #expect(external["rows"]?["status"] as? String == "ok")
        #expect(external["rows"]?["version"] as? String == "1.2.3")
        #expect(external["products"]?["status"] as? String == "shadowed by a built-in")
        #expect(external["noexec"]?["status"] as? String == "not executable")
        #expect((external["broken"]?["status"] as? String)?.hasPrefix("describe failed: ") == true)
        #expect(rows.contains { $0["name"] as? String == "products" && $0["kind"] as? String == "built-in" })
        #expect(result.stderr.contains("shadowed"), "a warning for each plugin that cannot run: \(result.stderr)")
        // The built-in still runs.
        await #expect(try plugins.run(["-c", "products show 1 --fields id -o csv --no-header"]).stdout == "1\r\n")
        for format in ["table", "csv", "tsv", "ndjson"] {
            await #expect(try plugins.run(["-c", "plugins -o \(format)"]).status == 0)
        }
    }

    @Test func completionOffersPluginsCommandsOptionsAndLiveValues() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        _ = try await plugins.sandbox.ok("products show 1")   // __complete never creates the default store
        func complete(_ words: String...) async throws -> [String] {
            try await plugins.run(["__complete"] + words).stdout.split(separator: "\n").map(String.init)
        }
        await #expect(try complete("ro").contains("rows"))
        await #expect(try complete("rows", "") == ["list"])
        await #expect(try complete("rows", "list", "--th") == ["--threshold"])
        await #expect(try complete("rows", "list", "-o", "cs") == ["csv"])
        let categories = try await complete("rows", "list", "--threshold", "5", "")
        #expect(categories.contains("beauty"), "\(categories)")
        await #expect(try complete("rows", "list", "beauty", "").isEmpty)
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func ctrlCStopsAHangingPluginAndItsGroup() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        try plugins.plugin("hang", body: "sleep 100 & echo '{\"child\": '$!'}'; sleep 100")
        let terminal = TerminalSession(sandbox: plugins.sandbox)
        try await terminal.start()
        try await terminal.send("hang list -o ndjson --no-pager", "Enter")
        let shown = try await terminal.waitFor { $0.contains("{\"child\":") }
        let child = shown.split(separator: "\n").first { $0.contains("{\"child\":") }
            .flatMap { line in pid_t(line.filter(\.isNumber)) }
        try await terminal.send("C-c")
        try await terminal.waitFor { $0.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
            .hasSuffix(">") == true && $0.contains("interrupted") }
        try await terminal.send("rows list --fields name", "Enter")
        try await terminal.waitFor { $0.contains("Lipstick") }
        if let child {
            for _ in 0..<200 where TerminalSession.isRunning(child) { try? await Task.sleep(for: .microseconds(10_000)) }
            #expect(!TerminalSession.isRunning(child), "the plugin's background child was stopped too")
        }
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func tabAtThePromptCompletesAPluginAndItsLiveArguments() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        _ = try await plugins.sandbox.ok("products show 1")   // create the demo shop first
        let terminal = TerminalSession(sandbox: plugins.sandbox)
        try await terminal.start()
        try await terminal.send("row", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> rows") }
        try await terminal.send("li", "Tab", "--threshold 5 fra", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> rows list --threshold 5 fragrances") }
    }

    @Test func aChangedPluginIsDescribedAgain() async throws {
        let plugins = try await PluginSandbox()
        try await plugins.threeRows()
        await #expect(try plugins.run(["-c", "help rows"]).stdout.contains("rows 1.2.3"))
        try plugins.plugin("rows", describe: "echo '\(PluginSandbox.description("rows").replacingOccurrences(of: "1.2.3", with: "2.0.0"))'",
                           body: "true")
        await #expect(try plugins.run(["-c", "help rows"]).stdout.contains("rows 2.0.0"))
    }

    @Test func aBatchEndedByASignalEndsItsPluginToo() async throws {
        let plugins = try await PluginSandbox()
        let pidFile = plugins.sandbox.root.appendingPathComponent("plugin.pid").path
        try plugins.plugin("hang", body: "echo $$ > '\(pidFile)'; exec sleep 100")
        let started = Date()
        // Spawn, not the sandbox's run: a test thread's blocked signals would be inherited.
        // The signal comes after 10 s: long enough for a loaded machine to have started the plugin
        // (3 s was not, under a parallel build), far shorter than its sleep.
        let result = try await Spawn.run("/usr/bin/timeout", ["-s", "INT", "10", ShopshBinary.url.path, "-c", "hang list"],
                                   environment: plugins.sandbox.environment)
        #expect(Date().timeIntervalSince(started) < 60, "it did not wait for the plugin's sleep 100")
        #expect(result.status != 0)
        let pid = try #require(pid_t(((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)),
                               "\(result.status) \(result.output)")
        for _ in 0..<200 where TerminalSession.isRunning(pid) { try? await Task.sleep(for: .microseconds(10_000)) }
        #expect(!TerminalSession.isRunning(pid), "the plugin's process group got the signal too")
    }
}
