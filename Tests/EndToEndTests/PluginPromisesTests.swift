// PluginPromisesTests: what shopsh promises in a --read-only session and in --dry-run and
// --atomic runs holds with external plugins too. A plugin runs with the operator's rights, so
// the hostile plugins here unset SHOPSH_READ_ONLY and write through "$SHOPSH_BIN": shopsh runs
// only commands whose description says "writes": false there, says what is true at the end of a
// dry run, and bounds a plugin that waits on the run's own locks.

import Foundation
import Testing

@Suite struct PluginPromisesTests {
    /// A plugin that ignores SHOPSH_READ_ONLY and sets product 1's stock to 7 through shopsh,
    /// touching `marker` first (so a test can tell whether it was started at all).
    static func hostileBody(marker: String) -> String {
        """
        touch '\(marker)'
        unset SHOPSH_READ_ONLY
        "$SHOPSH_BIN" -c 'products stock 1 =7' >/dev/null || exit 1
        echo '{"done": true}'
        """
    }

    static func stock(_ plugins: PluginSandbox) async throws -> String {
        try await plugins.sandbox.ok("products show 1 --fields stock -o csv --no-header")
    }

    @Test(arguments: [["--read-only"], ["--dry-run"], ["--atomic"]])
    func aPluginThatMayWriteIsNotStarted(flags: [String]) async throws {
        let plugins = try await PluginSandbox()
        let marker = plugins.sandbox.root.appendingPathComponent("started").path
        try plugins.plugin("fixer", body: Self.hostileBody(marker: marker))
        let before = try await Self.stock(plugins)
        let result = try await plugins.run(flags + ["-c", "fixer list"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.contains(#"fixer list may change the shop (its description does not say "writes": false)"#) == true,
                "\(result.stderr)")
        #expect(errors.first?.contains("it was not started; nothing was changed") == true, "\(result.stderr)")
        #expect(errors.first?.contains(flags[0]) == true, "the line names the mode: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the plugin was not started")
        await #expect(try Self.stock(plugins) == before, "the shop is unchanged")
    }

    /// A session read-only for another reason than --read-only refuses too: a viewer's, on a
    /// PostgreSQL server (as root, the SQLite file's permissions cannot make one here).
    @Test(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                   "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
    func aViewersSessionRefusesAPluginThatMayWrite() async throws {
        let plugins = try await PluginSandbox()
        let marker = plugins.sandbox.root.appendingPathComponent("started").path
        try plugins.plugin("fixer", body: Self.hostileBody(marker: marker))
        let admin = try await plugins.sandbox.serverShop()
        let viewer = try await TeamRolesTests.login(admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(viewer)") }
        let result = try await plugins.run(["--store", try TeamRolesTests.url(admin, as: viewer), "-c", "fixer list"])
        #expect(result.status == 1 && result.stderr.contains("this session is read-only (the viewer role)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test(arguments: [["--read-only"], ["--dry-run"], ["--atomic"]])
    func aPluginDeclaredReadOnlyStillRuns(flags: [String]) async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("reader", writes: false,
                           body: #"exec "$SHOPSH_BIN" -o ndjson -c 'products show 1 --fields id,stock'"#)
        _ = try await Self.stock(plugins)   // the demo shop exists before a read-only session opens it
        let result = try await plugins.run(flags + ["-c", "reader list -o json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]]
        #expect((rows?.first?["id"] as? NSNumber)?.intValue == 1, "\(result.stdout)")
    }

    /// After a dry run in which a plugin ran, shopsh does not claim that every change was undone:
    /// the plugin ran as a separate program, outside the run.
    @Test func aDryRunInWhichAPluginRanSaysSo() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("reader", writes: false, body: #"echo '{"ok": true}'"#)
        let result = try await plugins.run(["--dry-run", "-c", "products stock 1 =40", "-c", "reader list -o ndjson"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("every change was undone"), "\(result.stderr)")
        #expect(result.stderr.contains("dry run: the run's own changes were undone; the external plugin reader ran outside it"),
                "\(result.stderr)")
        let alone = try await plugins.run(["--dry-run", "-c", "products stock 1 =40"])
        #expect(alone.stderr.contains("dry run: every change was undone"), "without a plugin the claim holds: \(alone.stderr)")
    }

    /// A plugin that claims to be read-only but writes anyway waits on the row the run has
    /// locked (on PostgreSQL), or on the SQLite write lock, while the run waits on the plugin.
    /// SHOPSH_PLUGIN_TIMEOUT bounds it: its process group is killed, the command fails, and
    /// the shop is unchanged.
    @Test func aPluginWaitingOnTheRunsLocksIsStoppedAtTheBound() async throws {
        let plugins = try await PluginSandbox()
        let marker = plugins.sandbox.root.appendingPathComponent("started").path
        try plugins.plugin("liar", writes: false, body: Self.hostileBody(marker: marker))
        let before = try await Self.stock(plugins)
        plugins.sandbox.environment["SHOPSH_PLUGIN_TIMEOUT"] = "2"
        let result = try await plugins.run(["--dry-run", "-c", "products stock 1 =40", "-c", "liar list"], timeLimit: 100)
        #expect(!result.timedOut, "shopsh did not hang: \(result.stderr)")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: liar: stopped after 2 s"), "\(result.stderr)")
        #expect(!result.stderr.contains("every change was undone"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
        await #expect(try Self.stock(plugins) == before, "neither the run's change nor the plugin's was kept")
    }

    @Test func aBadBoundIsOneLine() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("reader", writes: false, body: #"echo '{"ok": true}'"#)
        plugins.sandbox.environment["SHOPSH_PLUGIN_TIMEOUT"] = "soon"
        let result = try await plugins.run(["--atomic", "-c", "reader list"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("SHOPSH_PLUGIN_TIMEOUT"), "\(result.stderr)")
    }

    @Test func pluginsShowsWhichCommandsAreReadOnly() async throws {
        let plugins = try await PluginSandbox()
        try plugins.plugin("reader", writes: false, body: "true")
        try plugins.plugin("fixer", body: "true")
        let result = try await plugins.run(["-c", "plugins -o json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        let readOnly = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["name"] as? String).map { ($0, row["read_only"] as? [String]) }
        })
        #expect(readOnly["reader"] == ["list"])
        #expect(readOnly["fixer"] == [])
    }
}
