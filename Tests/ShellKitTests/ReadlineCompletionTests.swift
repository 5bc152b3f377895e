// ReadlineCompletionTests: how completion candidates are quoted for LineParser, how the
// typed word is unquoted for the completer, and the common-prefix rule.

import Testing
@testable import ShellKit
@testable import LineEditor

@Suite struct ReadlineCompletionTests {
    @Test func escapesSpecialCharactersOutsideQuotes() throws {
        let escaped = ReadlineCompletion.escape(#"my file|a>b'c"d\e#f"#, quote: nil)
        #expect(escaped == #"my\ file\|a\>b\'c\"d\\e#f"#)
        #expect(try LineParser.parse("x " + escaped).words == ["x", #"my file|a>b'c"d\e#f"#])
        #expect(ReadlineCompletion.escape("#tag", quote: nil) == ##"\#tag"##)
        #expect(ReadlineCompletion.escape("beauty", quote: nil) == "beauty")
    }

    @Test func escapesForAnOpenQuote() throws {
        let double = ReadlineCompletion.escape(#"a "b" \c"#, quote: "\"")
        #expect(double == #"a \"b\" \\c"#)
        #expect(try LineParser.parse("x \"" + double + "\"").words == ["x", #"a "b" \c"#])
        let single = ReadlineCompletion.escape("it's", quote: "'")
        #expect(try LineParser.parse("x '" + single + "'").words == ["x", "it's"])
    }

    @Test func unescapesTheTypedWord() {
        #expect(ReadlineCompletion.unescape(#"my\ fi"#, quote: nil) == "my fi")
        #expect(ReadlineCompletion.unescape(#"a\"b\n"#, quote: "\"") == #"a"b\n"#)
        #expect(ReadlineCompletion.unescape(#"a\b"#, quote: "'") == #"a\b"#)
        #expect(ReadlineCompletion.unescape(#"end\"#, quote: nil) == #"end\"#)
    }

    @Test func singleCandidateIsTheReplacement() {
        #expect(ReadlineCompletion.replacements(for: ["list"], word: "li", quote: nil) == ["list"])
        #expect(ReadlineCompletion.replacements(for: ["a b", "a b"], word: "a", quote: nil) == [#"a\ b"#])
        #expect(ReadlineCompletion.replacements(for: [], word: "x", quote: nil) == [])
        // Products found by a title word: their ids share no prefix with it, so the word stays.
        #expect(ReadlineCompletion.replacements(for: ["10045", "10046"], word: "ipho", quote: nil) == ["ipho", "10045", "10046"])
        #expect(ReadlineCompletion.replacements(for: ["122"], word: "ipho", quote: nil) == ["122"])
    }

    @Test func manyCandidatesStartWithCommonPrefix() {
        #expect(ReadlineCompletion.replacements(for: ["show", "shop", "list"], word: "", quote: nil)
                == ["", "show", "shop", "list"])
        #expect(ReadlineCompletion.replacements(for: ["show", "shop"], word: "s", quote: nil)
                == ["sho", "show", "shop"])
        // Never shorter than what was typed (a completer may match case-insensitively).
        #expect(ReadlineCompletion.replacements(for: ["Ann", "anna"], word: "an", quote: nil)
                == ["an", "Ann", "anna"])
    }

    @Test func findsQuotedAndEscapedPositions() {
        let line = Array(#"a\ b "c d" 'e f' g"#.utf8)
        #expect(ReadlineCompletion.isQuoted(line, at: 2))   // escaped space
        #expect(!ReadlineCompletion.isQuoted(line, at: 4))  // plain space
        #expect(ReadlineCompletion.isQuoted(line, at: 7))   // inside "…"
        #expect(!ReadlineCompletion.isQuoted(line, at: 10))
        #expect(ReadlineCompletion.isQuoted(line, at: 13))  // inside '…'
        #expect(!ReadlineCompletion.isQuoted(line, at: 16))
    }
}
