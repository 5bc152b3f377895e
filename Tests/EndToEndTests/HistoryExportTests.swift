// HistoryExportTests: `history export` in the real binary under tmux — the commands typed at the
// prompt become a private batch file that `shopsh --dry-run -f` replays; no silent overwrite.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct HistoryExportTests {
    @Test func typedCommandsBecomeAPrivateBatchFileThatReplays() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")   // the demo shop, before the prompt
        let path = sandbox.root.appendingPathComponent("s.shop").path
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("set pager off", "Enter")
        try await terminal.send("products show 1 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        try await terminal.send("products show 99999", "Enter")   // fails: left out
        try await terminal.waitFor { $0.contains("error: no product") }
        try await terminal.send("basket add emilys 3 --qty 2", "Enter")
        try await terminal.waitFor { $0.contains("to the basket of emilys") }
        try await terminal.send("products list --search 'Powder Canister' --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-VEL-POW-003") }
        try await terminal.send("history 2", "Enter")
        try await terminal.send("history export \(path)", "Enter")
        try await terminal.waitFor { $0.contains("wrote 4 commands to \(path); left out 3 (2 history, 1 failed)") }

        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let header = lines.prefix { $0.hasPrefix("#") }
        #expect(header.count >= 3 && header.contains { $0.contains("replay with: shopsh --dry-run -f \(path)") }, "\(text)")
        #expect(header.contains { $0.contains("store: \(sandbox.prompt)") }, "\(text)")
        #expect(Array(lines.dropFirst(header.count)) == [
            "set pager off",
            "products show 1 --fields sku",
            "basket add emilys 3 --qty 2",
            "products list --search 'Powder Canister' --fields sku",
        ])
        let store = sandbox.environment["SHOPSH_STORE"] ?? sandbox.storePath
        let replay = try await sandbox.run(["--dry-run", "-f", path, "--store", store])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("BEA-ESS-ESS-001") && replay.stdout.contains("BEA-VEL-POW-003"))

        // Again without --force: one error line naming the file, the file untouched.
        try await terminal.send("history export \(path)", "Enter")
        let screen = try await terminal.waitFor { $0.contains("exists; add --force") && terminal.promptIsBack($0) }
        let refused = screen.split(separator: "\n").drop { !$0.hasPrefix("\(terminal.prompt)> history export \(path)") }.dropFirst(2)
        let lastExport = refused.drop { !$0.hasPrefix("error:") }
        #expect(lastExport.first == "error: \(path) exists; add --force to overwrite it", "\(screen)")
        #expect(lastExport.dropFirst().first?.hasPrefix("\(terminal.prompt)>") == true, "one line, then the prompt:\n\(screen)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)

        // --since N (the numbers history shows) with --force.
        try await terminal.send("history export --force --since 4 \(path)", "Enter")
        try await terminal.waitFor { $0.contains("wrote 2 commands to \(path)") }
        let since = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(since == ["basket add emilys 3 --qty 2", "products list --search 'Powder Canister' --fields sku"])
    }

    @Test func aBatchHasNoHistoryToExport() async throws {
        let sandbox = try await ShopshSandbox()
        let path = sandbox.root.appendingPathComponent("none.shop").path
        let result = try await sandbox.run(["-c", "history export \(path)"])
        #expect(result.status == 1)
        #expect(result.stderr == "-c:1: error: no history to export (history is kept at the interactive prompt)\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
