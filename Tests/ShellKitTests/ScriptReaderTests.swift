// ScriptReaderTests: how batch text becomes numbered commands (comments, blank lines,
// backslash continuation, CRLF, a missing final newline) and the incremental accumulator.

import Testing
@testable import ShellKit

@Suite struct ScriptReaderTests {
    @Test func skipsBlankAndCommentLines() {
        let text = """
            # set-up

            products list
               # indented comment
            \t
            basket show ann
            """
        #expect(ScriptReader.commands(in: text) == [
            ScriptCommand(line: 3, text: "products list"),
            ScriptCommand(line: 6, text: "basket show ann"),
        ])
    }

    @Test func dropsLeadingBlanksKeepsTrailingComment() {
        #expect(ScriptReader.commands(in: "   products list # all\n") == [
            ScriptCommand(line: 1, text: "products list # all"),
        ])
    }

    @Test func continuationJoinsWithOneSpaceAndKeepsFirstLineNumber() {
        let text = "# header\nproducts list \\\n    --category beauty\\\n\t--limit 5\nbasket show ann\n"
        #expect(ScriptReader.commands(in: text) == [
            ScriptCommand(line: 2, text: "products list --category beauty --limit 5"),
            ScriptCommand(line: 5, text: "basket show ann"),
        ])
    }

    @Test func escapedOrQuotedBackslashDoesNotContinue() {
        let text = #"""
            say a\\
            say 'b\'
            say "c\"
            say d # e \
            next
            """#
        #expect(ScriptReader.commands(in: text).map(\.line) == [1, 2, 3, 4, 5])
        #expect(ScriptReader.commands(in: text).first?.text == #"say a\\"#)
    }

    @Test func backslashAfterEscapedSpaceContinues() throws {
        let commands = ScriptReader.commands(in: "say a\\ \\\nb")
        #expect(commands == [ScriptCommand(line: 1, text: "say a\\ b")])
        #expect(try LineParser.parse(commands[0].text).words == ["say", "a b"])
    }

    @Test func continuationIntoCommentOrBlankLine() throws {
        let commands = ScriptReader.commands(in: "list \\\n# note \\\nnext\nshow \\\n\nlast")
        #expect(commands == [
            ScriptCommand(line: 1, text: #"list # note \"#),  // a comment's backslash continues nothing
            ScriptCommand(line: 3, text: "next"),
            ScriptCommand(line: 4, text: "show "),
            ScriptCommand(line: 6, text: "last"),
        ])
        #expect(try LineParser.parse(commands[0].text).words == ["list"])
    }

    @Test func crlfLines() {
        let text = "# c\r\nproducts list \\\r\n  --limit 2\r\n\r\nbasket show ann\r\n"
        #expect(ScriptReader.commands(in: text) == [
            ScriptCommand(line: 2, text: "products list --limit 2"),
            ScriptCommand(line: 5, text: "basket show ann"),
        ])
    }

    @Test func lastLineWithoutNewline() {
        #expect(ScriptReader.commands(in: "a\nb") == [
            ScriptCommand(line: 1, text: "a"), ScriptCommand(line: 2, text: "b"),
        ])
    }

    @Test func continuationOnLastLineStillRuns() {
        #expect(ScriptReader.commands(in: "a \\\nb \\") == [ScriptCommand(line: 1, text: "a b ")])
        #expect(ScriptReader.commands(in: "a \\\n") == [ScriptCommand(line: 1, text: "a ")])
    }

    @Test func emptyInputsGiveNoCommands() {
        #expect(ScriptReader.commands(in: "").isEmpty)
        #expect(ScriptReader.commands(in: "\n\n# x\n").isEmpty)
    }

    @Test func byteOrderMarkIsIgnored() {
        #expect(ScriptReader.commands(in: "\u{FEFF}# c\nlist") == [ScriptCommand(line: 2, text: "list")])
        #expect(ScriptReader.commands(in: "\u{FEFF}list") == [ScriptCommand(line: 1, text: "list")])
    }

    @Test func fromLinesMatchesText() {
        let lines = ["a \\", "  b", "", "# c", "d"]
        #expect(ScriptReader.commands(fromLines: lines) == ScriptReader.commands(in: lines.joined(separator: "\n")))
        #expect(ScriptReader.commands(fromLines: lines) == [
            ScriptCommand(line: 1, text: "a b"), ScriptCommand(line: 5, text: "d"),
        ])
    }

    @Test func accumulatorReportsCommandsAsSoonAsComplete() {
        var accumulator = ScriptAccumulator()
        #expect(accumulator.feed("# c", lineNumber: 1) == nil)
        #expect(accumulator.feed("a \\", lineNumber: 2) == nil)
        #expect(accumulator.isContinuing)
        #expect(accumulator.feed("b", lineNumber: 3) == ScriptCommand(line: 2, text: "a b"))
        #expect(!accumulator.isContinuing)
        #expect(accumulator.feed("c", lineNumber: 4) == ScriptCommand(line: 4, text: "c"))
        #expect(accumulator.finish() == nil)
    }
}
