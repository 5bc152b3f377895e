// HistoryScriptTests: what `history export` writes — which entries it leaves out and why, and
// that every line it writes reads back through ScriptReader and LineParser as the same command.

import Foundation
import Testing
@testable import ShellKit

@Suite struct HistoryScriptTests {
    private func script(_ lines: [String], failed: Set<String> = []) -> HistoryScript {
        HistoryScript(entries: lines.enumerated().map { (number: $0.offset + 1, line: $0.element) }) { line in
            failed.contains(line) ? .failure : nil
        }
    }

    @Test func leavesOutHistoryExitSecretsAndFailures() {
        let made = script([
            "products show 1",
            "history 5",
            "history export /tmp/x.shop",
            "users add ann --password hunter2",
            "products show 99999",
            "exit",
            "quit",
            "basket add emilys 3 --qty 2",
        ], failed: ["products show 99999"])
        #expect(made.commands == ["products show 1", "basket add emilys 3 --qty 2"])
        #expect(made.leftOut.map(\.number) == [2, 3, 4, 5, 6, 7])
        #expect(made.leftOutSummary == "6 (2 history, 2 exit/quit, 1 with a secret, 1 failed)")
    }

    /// A batch replaying these would fail: watch needs --count there, a password a terminal.
    @Test func leavesOutCommandsThatNeedATerminal() {
        let made = script([
            "watch -n 1 orders list",
            "watch --count 2 orders list",
            "users passwd emilys",
            "users passwd emilys --password-file /tmp/pw",
            "users check-password emilys",
        ])
        #expect(made.commands == ["watch --count 2 orders list", "users passwd emilys --password-file /tmp/pw"])
        #expect(made.leftOutSummary == "3 (3 that need a terminal)")
    }

    @Test(arguments: [
        "products list --search 'a b' --limit 1",
        "products list -o json | jq '.[0] | .id'",
        "products list -o csv >> 'out file.csv'",
        "  products show 1",
        "products list --search \"it's\"",
        "products list --search a\\ b",
        "products list --search 'ends in \\'",
        "products list --search x # a comment",
        "products list --search 'café ☕'",
        "products list --search a\tb",
    ])
    func everyLineReadsBackAsTheSameCommand(line: String) throws {
        let parsed = try LineParser.parse(line)
        let written = try #require(HistoryScript.scriptLine(for: line, parsed: parsed))
        let file = script([line, "products show 2"]).text(storeName: "shop", time: Date(), file: "f.shop")
        let read = ScriptReader.commands(in: file)
        #expect(read.count == 2)
        #expect(try LineParser.parse(read[0].text) == parsed)
        #expect(read[0].text == written)
        #expect(read[1].text == "products show 2")
    }

    @Test func aLineBreakOutsideQuotesIsWrittenAgainOnOneLine() throws {
        let line = "products list\n--limit 2"
        let made = script([line])
        #expect(made.commands == ["products list --limit 2"])
    }

    @Test(arguments: [
        "products list --search 'a\nb'",     // a word holding a line break: no batch line holds it
        "products list --search x\\",        // a lone trailing backslash: not a command
        "products list --search 'open",      // an unterminated quote
        "# only a comment",
    ])
    func linesThatCannotBeWrittenAreLeftOut(line: String) {
        let made = script([line, "products show 1"])
        #expect(made.commands == ["products show 1"])
        #expect(made.leftOut.map(\.reason) == [.notOneLine])
    }

    @Test func theHeaderIsCommentLinesOnly() {
        let made = script(["products show 1", "exit"])
        let text = made.text(storeName: "shop\n# not a comment", time: Date(timeIntervalSince1970: 0), file: "my file.shop")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.filter { !$0.hasPrefix("#") } == ["products show 1"])
        #expect(text.contains("# exported: 1970-01-01 00:00:00 UTC\n"))
        #expect(text.contains("# commands: 1; left out: 1 (1 exit/quit)\n"))
        #expect(text.contains("# replay with: shopsh --dry-run -f 'my file.shop'\n"))
        #expect(ScriptReader.commands(in: text).map(\.text) == ["products show 1"])
    }
}
