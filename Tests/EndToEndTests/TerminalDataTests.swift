// TerminalDataTests: data that reaches a terminal is escaped in every format (a product title
// cannot set the window's title or colour the screen through `-o csv` or `-o json`), while files
// and pipes get the exact bytes of each format.

import Foundation
import Testing

@Suite(.serialized) struct TerminalDataTests {
    static let osc = "\u{1B}]0;pwned\u{07}"
    static let red = "\u{1B}[31mRED\u{1B}[0m"
    /// A right-to-left override and a C1 CSI: JSON leaves them raw unless told otherwise.
    static let bidiAndC1 = "a\u{202E}b\u{9B}c"

    /// A sandbox whose products 1, 2 and 3 have those titles.
    static func hostileShop() async throws -> PluginSandbox {
        let plugins = try await PluginSandbox()
        // Titles shopsh itself refuses (control characters), as another program could store them.
        for (id, title) in [(1, osc), (2, red), (3, bidiAndC1)] { try await plugins.sandbox.storeTitleBehindShopsh(id, title) }
        try plugins.plugin("rows", writes: false, body: #"printf '%s\n' '{"t": "\u001b]0;pwned\u0007"}'"#)
        try await plugins.described("rows")
        return plugins
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func csvAndJSONAtThePromptCannotDriveTheTerminal() async throws {
        let plugins = try await Self.hostileShop()
        let terminal = TerminalSession(sandbox: plugins.sandbox)
        try await terminal.start()
        func paneTitle() async throws -> String {
            try await terminal.tmux(["display-message", "-p", "-t", "shop", "#{pane_title}"]).trimmingCharacters(in: .newlines)
        }
        try await terminal.tmux(["select-pane", "-t", "shop", "-T", "before"])
        try await terminal.send("products list --limit 3 --fields id,title -o csv --no-pager", "Enter")
        try await terminal.waitFor { $0.contains("\n3,") && terminal.promptIsBack($0) }
        await #expect(try paneTitle() == "before", "the title did not change")
        let screen = try await terminal.screen()
        #expect(screen.contains(#"1,\x1B]0;pwned\x07"#), "\(screen)")
        #expect(screen.contains(#"2,\x1B[31mRED\x1B[0m"#), "\(screen)")
        let coloured = try await terminal.tmux(["capture-pane", "-p", "-e", "-t", "shop"])
        #expect(!coloured.contains("\u{1B}[31m"), "no red text: \(coloured)")

        try await terminal.send("rows list -o csv --no-pager", "Enter")
        try await terminal.waitFor { terminal.promptIsBack($0) && ($0.components(separatedBy: "rows list -o csv --no-pager").dropFirst().first ?? "").hasPrefix("\nt\n") }
        await #expect(try paneTitle() == "before", "a plugin's csv row did not change it either")

        try await terminal.send("products show 3 --fields id,title -o json --no-pager", "Enter")
        let json = try await terminal.waitFor { $0.contains(#""id":3"#) }
        #expect(json.contains(#""title":"a\u202Eb\u009Bc""#), "JSON escapes them as JSON: \(json)")
        try await terminal.send("products list --limit 2 --fields title -o ndjson --no-pager", "Enter")
        let ndjson = try await terminal.waitFor { $0.contains(#"{"title":"\u001B[31mRED\u001B[0m"}"#) }
        await #expect(try paneTitle() == "before", "\(ndjson)")

        // An error line as a JSON object on the terminal's stderr: the typed reference is data too.
        try await terminal.send("-l", "products show x\u{202E}y -o json")
        try await terminal.send("Enter")
        let error = try await terminal.waitFor { $0.contains(#"{"error":"#) }
        #expect(error.contains(#"x\u202Ey"#), "\(error)")
    }

    /// To a pipe or a file every format keeps the exact data: CSV is RFC 4180, JSON means the same text.
    @Test func pipesAndFilesGetTheExactBytes() async throws {
        let plugins = try await Self.hostileShop()
        let csv = try await plugins.run(["-c", "products list --limit 3 --fields id,title -o csv --no-header"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == "1,\(Self.osc)\r\n2,\(Self.red)\r\n3,\(Self.bidiAndC1)\r\n")
        let plugin = try await plugins.run(["-c", "rows list -o csv --no-header"])
        #expect(plugin.stdout == "\(Self.osc)\r\n", "\(plugin.stderr)")
        let json = try await plugins.run(["-c", "products show 3 --fields title -o json"])
        #expect(json.stdout == "{\"title\":\"\(Self.bidiAndC1)\"}\n")

        let file = plugins.sandbox.root.appendingPathComponent("out.csv").path
        let redirected = try await plugins.run(["-c", "products list --limit 3 --fields id,title -o csv --no-header > \(file)"])
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == csv.stdout)
    }
}
