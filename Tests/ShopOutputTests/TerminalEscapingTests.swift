// TerminalEscapingTests: control characters in untrusted text become visible escapes.

import Foundation
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

    // MARK: - Every format, to a terminal or not

    static let hostileColumns = ["title", "tags"].map(Column.init)
    static let hostileRow: [Cell] = [.text("\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}x\u{7F}\nend"), .list(["\u{1B}[31mred"])]

    /// Whether `text` holds a control character other than the separators and line ends a format
    /// writes (the data holds no tab).
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
    }

    @Test(arguments: OutputFormat.allCases)
    func nothingFromTheDataReachesATerminalRaw(format: OutputFormat) throws {
        let options = RenderOptions(format: format, toTerminal: true)
        let listing = try renderList(Self.hostileColumns, [Self.hostileRow], options)
        #expect(!Self.hasControls(listing), "\(listing.debugDescription)")
        let record = try renderRecord(Self.hostileColumns, Self.hostileRow, options)
        #expect(!Self.hasControls(record), "\(record.debugDescription)")
    }

    @Test func csvToAFileOrPipeStaysExact() throws {
        let csv = try renderList(Self.hostileColumns, [Self.hostileRow], RenderOptions(format: .csv, header: false))
        #expect(csv == "\"\u{1B}]0;pwned\u{7}\u{9B}31m\u{202E}x\u{7F}\nend\",\u{1B}[31mred\r\n")
        #expect(try renderList(Self.hostileColumns, [Self.hostileRow], RenderOptions(format: .csv, header: false, toTerminal: true))
                == #"\x1B]0;pwned\x07\x9B31m\u{202E}x\x7F\nend,\x1B[31mred"# + "\r\n")
    }

    /// JSON to a terminal escapes the rest of the rule as JSON escapes: the same text for a JSON reader.
    @Test(arguments: [OutputFormat.json, .ndjson])
    func jsonToATerminalMeansTheSameText(format: OutputFormat) throws {
        let options = RenderOptions(format: format, toTerminal: true)
        let shown = try renderRecord(Self.hostileColumns, Self.hostileRow, options)
        #expect(shown.contains(#""\u001B]0;pwned\u0007\u009B31m\u202Ex\u007F\nend""#), "\(shown)")
        let exact = try renderRecord(Self.hostileColumns, Self.hostileRow, RenderOptions(format: format))
        #expect(exact.contains("\u{9B}31m\u{202E}x\u{7F}"))
        let parsedShown = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? NSDictionary
        let parsedExact = try JSONSerialization.jsonObject(with: Data(exact.utf8)) as? NSDictionary
        #expect(parsedShown != nil && parsedShown == parsedExact)
    }
}
