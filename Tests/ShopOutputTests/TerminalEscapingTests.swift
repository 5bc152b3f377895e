// TerminalEscapingTests: control characters in untrusted text become visible escapes.

import Testing
@testable import ShopOutput

/// A raw/escaped pair that names itself by its escaped form, so test logs stay free of control bytes.
struct EscapeCase: Sendable, CustomTestStringConvertible {
    let raw: String
    let expected: String
    init(_ raw: String, _ expected: String) {
        self.raw = raw
        self.expected = expected
    }
    var testDescription: String { expected }
}

@Suite struct TerminalEscapingTests {
    @Test(arguments: [
        EscapeCase("plain text", "plain text"),
        EscapeCase("東京 👍", "東京 👍"),
        EscapeCase("line\nbreak", #"line\nbreak"#),
        EscapeCase("tab\there", #"tab\there"#),
        EscapeCase("cr\rhere", #"cr\rhere"#),
        EscapeCase("\u{1B}[31mred\u{1B}[0m", #"\x1B[31mred\x1B[0m"#),
        EscapeCase("nul\u{0}bel\u{7}", #"nul\x00bel\x07"#),
        EscapeCase("del\u{7F}", #"del\x7F"#),
        EscapeCase("c1\u{85}\u{9B}", #"c1\x85\x9B"#),
        EscapeCase("abc\u{202E}cba", #"abc\u{202E}cba"#),
        EscapeCase("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202A}\u{202B}\u{202C}\u{202D}"#),
        EscapeCase("\u{2066}x\u{2069}", #"\u{2066}x\u{2069}"#),
        EscapeCase("\u{2010}\u{2022}\u{2026}", "\u{2010}\u{2022}\u{2026}"),   // other U+20xx stay
        EscapeCase("\u{A0}é", "\u{A0}é"),                                      // other U+00xx stay
        EscapeCase(#"back\slash"#, #"back\slash"#),                            // kept in the table
    ])
    func escape(_ example: EscapeCase) {
        #expect(TerminalEscaping.escape(example.raw) == example.expected)
    }

    @Test func escapedTextHoldsNoControlBytes() {
        let hostile = "\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}31m\u{202E}\r\n"
        let escaped = TerminalEscaping.escape(hostile)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
    }
}
