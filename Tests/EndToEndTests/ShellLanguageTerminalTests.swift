// ShellLanguageTerminalTests: issue 37 at the real prompt (tmux) — the start-up file applied,
// Tab after an alias, `edit` and C-x C-e running what the editor saved, a block typed line by
// line, and `shopsh -c 'history export FILE'` exporting what was typed at the prompt.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct ShellLanguageTerminalTests {
    @Test func theStartUpFileAppliesAtThePrompt() throws {
        let sandbox = try ShellLanguageTests.sandbox(rc: ShellLanguageTests.rc)
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("one $ME", "Enter")
        try terminal.waitFor { $0.contains(#"{"id":1,"username":"emilys"}"#) }
        try terminal.send("set", "Enter")
        try terminal.waitFor { $0.contains("format\tjson") || $0.contains("format  json") || $0.contains(#""format""#) }
    }

    @Test func tabAfterAnAliasOffersWhatItsFirstCommandTakes() throws {
        let sandbox = try ShellLanguageTests.sandbox(rc: "alias vip 'users show $1; basket show $1'\n")
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("vi", "Tab")
        try terminal.waitFor { $0.contains("\(terminal.prompt)> vip") }
        // After `vip ` come users, as after `users show `: two emails start with emily.
        try terminal.send("emi", "Tab")
        try terminal.waitFor { $0.contains("\(terminal.prompt)> vip emily.") }
        try terminal.send("j", "Tab", "Enter")
        try terminal.waitFor { $0.contains("basket of emilys") && terminal.promptIsBack($0) }
    }

    @Test func editAndCtrlXCtrlERunWhatTheEditorSaved() throws {
        let sandbox = try ShellLanguageTests.sandbox()
        // The "editor" turns any product id in the file into 3.
        let editor = try sandbox.file("editor.sh", "#!/bin/sh\nsed -i 's/show [0-9]*/show 3/' \"$1\"\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: editor)
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start(extraEnvironment: ["EDITOR": editor])
        try terminal.send("products show 1 --fields sku", "Enter")
        try terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        try terminal.send("edit", "Enter")
        try terminal.waitFor { $0.components(separatedBy: "BEA-VEL-POW-003").count == 2 && terminal.promptIsBack($0) }
        // C-x C-e on a line being typed: it runs as the editor left it.
        try terminal.send("products show 4 --fields sku", "C-x", "C-e")
        try terminal.waitFor { $0.components(separatedBy: "BEA-VEL-POW-003").count == 3 && terminal.promptIsBack($0) }
        try terminal.send("history 3", "Enter")
        let screen = try terminal.waitFor { $0.contains("history 3") && terminal.promptIsBack($0) }
        #expect(screen.contains("products show 3 --fields sku"), "\(screen)")
    }

    @Test func aBlockTypedAtThePromptRunsAtItsEnd() throws {
        let sandbox = try ShellLanguageTests.sandbox()
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("for X in a b", "Enter")
        try terminal.waitFor { $0.contains("…>") }
        try terminal.send("echo got $X", "Enter")
        try terminal.tmux(["send-keys", "-t", "shop", "-l", "end"])   // literally: tmux reads `end` as the End key
        try terminal.send("Enter")
        let screen = try terminal.waitFor { $0.contains("got a\ngot b") && terminal.promptIsBack($0) }
        #expect(!screen.contains("error"))
    }

    @Test func historyExportInACommandRunExportsThePromptsSavedHistory() throws {
        let sandbox = try ShellLanguageTests.sandbox()
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("products show 1 --fields sku", "Enter")
        try terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        // The shell saves its history as it exits: wait until it has.
        let shells = try terminal.shopshProcesses()
        #expect(!shells.isEmpty)
        try terminal.send("exit", "Enter")
        for _ in 0..<400 where shells.contains(where: TerminalSession.isRunning) { usleep(50_000) }
        let path = sandbox.root.appendingPathComponent("typed.shop").path
        let exported = try sandbox.run(["-c", "history export \(path)"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let commands = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(commands == ["products show 1 --fields sku"])
    }
}
