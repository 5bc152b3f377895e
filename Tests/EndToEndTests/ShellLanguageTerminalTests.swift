// ShellLanguageTerminalTests: issue 37 at the real prompt (tmux) — the start-up file applied,
// Tab after an alias, `edit` and C-x C-e running what the editor saved, a block typed line by
// line, and `shopsh -c 'history export FILE'` exporting what was typed at the prompt.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct ShellLanguageTerminalTests {
    @Test func theStartUpFileAppliesAtThePrompt() async throws {
        let sandbox = try await ShellLanguageTests.sandbox(rc: ShellLanguageTests.rc)
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("one $ME", "Enter")
        try await terminal.waitFor { $0.contains(#"{"id":1,"username":"emilys"}"#) }
        try await terminal.send("set", "Enter")
        try await terminal.waitFor { $0.contains("format\tjson") || $0.contains("format  json") || $0.contains(#""format""#) }
    }

    @Test func tabAfterAnAliasOffersWhatItsFirstCommandTakes() async throws {
        let sandbox = try await ShellLanguageTests.sandbox(rc: "alias vip 'users show $1; basket show $1'\n")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("vi", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> vip") }
        // After `vip ` come users, as after `users show `: two emails start with emily.
        try await terminal.send("emi", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> vip emily.") }
        try await terminal.send("j", "Tab", "Enter")
        try await terminal.waitFor { $0.contains("basket of emilys") && terminal.promptIsBack($0) }
    }

    @Test func editAndCtrlXCtrlERunWhatTheEditorSaved() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        // The "editor" turns any product id in the file into 3.
        let editor = try sandbox.file("editor.sh", "#!/bin/sh\nsed -i 's/show [0-9]*/show 3/' \"$1\"\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: editor)
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(extraEnvironment: ["EDITOR": editor])
        try await terminal.send("products show 1 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        try await terminal.send("edit", "Enter")
        try await terminal.waitFor { $0.components(separatedBy: "BEA-VEL-POW-003").count == 2 && terminal.promptIsBack($0) }
        // C-x C-e on a line being typed: it runs as the editor left it.
        try await terminal.send("products show 4 --fields sku", "C-x", "C-e")
        try await terminal.waitFor { $0.components(separatedBy: "BEA-VEL-POW-003").count == 3 && terminal.promptIsBack($0) }
        try await terminal.send("history 3", "Enter")
        let screen = try await terminal.waitFor { $0.contains("history 3") && terminal.promptIsBack($0) }
        #expect(screen.contains("products show 3 --fields sku"), "\(screen)")
    }

    @Test func aBlockTypedAtThePromptRunsAtItsEnd() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("for X in a b", "Enter")
        try await terminal.waitFor { $0.contains("…>") }
        try await terminal.send("echo got $X", "Enter")
        try await terminal.tmux(["send-keys", "-t", "shop", "-l", "end"])   // literally: tmux reads `end` as the End key
        try await terminal.send("Enter")
        let screen = try await terminal.waitFor { $0.contains("got a\ngot b") && terminal.promptIsBack($0) }
        #expect(!screen.contains("error"))
    }

    @Test func historyExportInACommandRunExportsThePromptsSavedHistory() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("products show 1 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        // The shell saves its history as it exits: wait until it has.
        let shells = try await terminal.shopshProcesses()
        #expect(!shells.isEmpty)
        try await terminal.send("exit", "Enter")
        for _ in 0..<400 where shells.contains(where: TerminalSession.isRunning) { try? await Task.sleep(for: .microseconds(50_000)) }
        let path = sandbox.root.appendingPathComponent("typed.shop").path
        let exported = try await sandbox.run(["-c", "history export \(path)"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let commands = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(commands == ["products show 1 --fields sku"])
    }
}
