// LineParserTests: the shell-like splitting rules of LineParser (quotes, escapes, comments,
// pipes, redirects) and its error messages.

import ShopCore
import Testing
@testable import ShellKit

@Suite struct LineParserTests {
    private func words(_ line: String) throws -> [String] {
        try LineParser.parse(line).words
    }

    private func usageError(_ line: String) -> String? {
        do {
            _ = try LineParser.parse(line)
            return nil
        } catch {
            guard case .usage(let message) = error else { return "not a usage error: \(error)" }
            return message
        }
    }

    // MARK: - Words

    @Test func splitsOnSpacesAndTabs() throws {
        #expect(try words("products  list\t--limit 5 ") == ["products", "list", "--limit", "5"])
    }

    @Test func blankAndEmptyLinesHaveNoWords() throws {
        #expect(try LineParser.parse("") == ParsedLine(words: []))
        #expect(try LineParser.parse(" \t ") == ParsedLine(words: []))
        #expect(try LineParser.parse("").isEmpty)
    }

    @Test func singleQuotesAreLiteral() throws {
        #expect(try words(#"say 'a "b" \n | > # $x'"#) == ["say", #"a "b" \n | > # $x"#])
    }

    @Test func doubleQuotesAllowFourEscapes() throws {
        #expect(try words(#"say "a \"b\" \\ \$ \` end""#) == ["say", #"a "b" \ $ ` end"#])
    }

    @Test func doubleQuotesKeepOtherBackslashes() throws {
        #expect(try words(#"say "a\nb\ c""#) == ["say", #"a\nb\ c"#])
    }

    @Test func doubleQuotesKeepSpecialCharacters() throws {
        #expect(try words(#"say "a | b > c # d 'e'""#) == ["say", "a | b > c # d 'e'"])
    }

    @Test func backslashOutsideQuotesEscapesNextCharacter() throws {
        #expect(try words(##"say a\ b \"c\" \\ \| \> \# d\'e"##)
                == ["say", "a b", "\"c\"", "\\", "|", ">", "#", "d'e"])
    }

    @Test func emptyQuotesMakeEmptyWords() throws {
        #expect(try words(#"set x '' """#) == ["set", "x", "", ""])
        #expect(try words(#"a''b"#) == ["ab"])
    }

    @Test func quotesJoinWithNeighbours() throws {
        #expect(try words(#"users add --name="Ann Lee" it'"s'"#) == ["users", "add", "--name=Ann Lee", "it\"s"])
    }

    @Test func keepsUnicodeAndCombiningMarks() throws {
        // A quote followed by a combining mark is one Character but still a quote.
        #expect(try words("say \"e\u{301}\" 日本 \"\u{301}\"") == ["say", "e\u{301}", "日本", "\u{301}"])
    }

    // MARK: - Comments

    @Test func hashAtWordStartStartsComment() throws {
        #expect(try words("products list # all of them | x > y") == ["products", "list"])
        #expect(try words("# only a comment") == [])
        #expect(try words("  #") == [])
    }

    @Test func hashInsideWordOrQuotedIsLiteral() throws {
        #expect(try words(##"search a#b '#c' "#d" \#e"##) == ["search", "a#b", "#c", "#d", "#e"])
    }

    // MARK: - Pipes

    @Test func pipeKeepsRestRaw() throws {
        let parsed = try LineParser.parse(#"products list --format json |  jq '.[] | .id' > "out file"  "#)
        #expect(parsed.words == ["products", "list", "--format", "json"])
        #expect(parsed.pipeCommand == #"jq '.[] | .id' > "out file""#)
        #expect(parsed.redirect == nil)
    }

    @Test func pipeWithoutSpaces() throws {
        let parsed = try LineParser.parse("list|wc -l")
        #expect(parsed == ParsedLine(words: ["list"], pipeCommand: "wc -l"))
    }

    @Test func quotedOrEscapedPipeIsLiteral() throws {
        let parsed = try LineParser.parse(#"search 'a|b' "c|d" e\|f"#)
        #expect(parsed == ParsedLine(words: ["search", "a|b", "c|d", "e|f"]))
    }

    @Test func hashAfterPipeBelongsToPipeCommand() throws {
        #expect(try LineParser.parse("list | grep x # note").pipeCommand == "grep x # note")
    }

    @Test func pipeErrors() {
        #expect(usageError("list |") == "missing command after |")
        #expect(usageError("list |   ") == "missing command after |")
        #expect(usageError("| jq .") == "missing command before |")
    }

    // MARK: - Redirects

    @Test(arguments: [
        ("list > out.csv", Redirect(path: "out.csv", append: false)),
        ("list >out.csv", Redirect(path: "out.csv", append: false)),
        ("list>out.csv", Redirect(path: "out.csv", append: false)),
        ("list >> out.csv", Redirect(path: "out.csv", append: true)),
        ("list>>out.csv", Redirect(path: "out.csv", append: true)),
        (#"list > "my file.csv""#, Redirect(path: "my file.csv", append: false)),
        ("list >> 'a|b>c.csv'", Redirect(path: "a|b>c.csv", append: true)),
        (#"list > my\ file.csv"#, Redirect(path: "my file.csv", append: false)),
        ("list > out.csv   ", Redirect(path: "out.csv", append: false)),
        ("list > out.csv # saved for Ann", Redirect(path: "out.csv", append: false)),
        ("list > a#b", Redirect(path: "a#b", append: false)),
    ])
    func redirectForms(line: String, expected: Redirect) throws {
        let parsed = try LineParser.parse(line)
        #expect(parsed.words == ["list"])
        #expect(parsed.redirect == expected)
        #expect(parsed.pipeCommand == nil)
    }

    @Test func quotedGreaterThanIsLiteral() throws {
        #expect(try LineParser.parse(#"search '>' "a>b" c\>d"#) == ParsedLine(words: ["search", ">", "a>b", "c>d"]))
    }

    @Test func redirectInsidePipeCommandIsFine() throws {
        let parsed = try LineParser.parse("list | sort > sorted.txt")
        #expect(parsed == ParsedLine(words: ["list"], pipeCommand: "sort > sorted.txt"))
    }

    @Test func redirectErrors() {
        #expect(usageError("list >") == "missing file name after >")
        #expect(usageError("list >>   ") == "missing file name after >>")
        #expect(usageError("list > # note") == "missing file name after >")
        #expect(usageError("list > ''") == "empty file name after >")
        #expect(usageError("list > a b") == "unexpected text after > a: b")
        #expect(usageError("list >> a --all") == "unexpected text after >> a: --all")
        #expect(usageError("list > a > b") == "only one > FILE is allowed on a line")
        #expect(usageError("> out.csv") == "missing command before >")
        #expect(usageError("list >>> a") == "missing file name after >>")
    }

    @Test func redirectThenPipeIsAnError() throws {
        let message = try #require(usageError("list > f | x"))
        #expect(message.hasPrefix("cannot use both > FILE and | CMD"))
    }

    @Test func fileDescriptorRedirectIsRejected() throws {
        let message = try #require(usageError("list 2>err.txt"))
        #expect(message.contains("2>"))
        // Digits that are quoted, or separated from >, stay a word.
        #expect(try LineParser.parse("list --limit 5 > out").words == ["list", "--limit", "5"])
        #expect(try LineParser.parse("list '2'>out").words == ["list", "2"])
    }

    // MARK: - Errors

    @Test func unterminatedQuotes() {
        #expect(usageError("say 'abc") == "unterminated single quote")
        #expect(usageError(#"say "abc"#) == "unterminated double quote")
        #expect(usageError(#"say "abc\""#) == "unterminated double quote")
        #expect(usageError(#"say "abc\"#) == "unterminated double quote")
        #expect(usageError("list > 'out") == "unterminated single quote")
    }

    @Test func trailingLoneBackslash() throws {
        let message = try #require(usageError(#"say abc\"#))
        #expect(message.contains("backslash"))
    }

    @Test func errorsAreUsageErrors() {
        #expect(throws: ShopError.usage("unterminated single quote")) {
            try LineParser.parse("'")
        }
    }
}
