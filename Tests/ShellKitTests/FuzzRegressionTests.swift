// FuzzRegressionTests: replays every input saved under FuzzRegressions/FuzzLineParser/ (found by
// fuzz/FuzzLineParser) through LineParser and ScriptReader with the same checks as the target.

import Foundation
import ShopCore
import Testing
@testable import ShellKit

@Suite struct LineParserFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions/FuzzLineParser")

    /// A parsed line's words survive being quoted and parsed again; errors are usage errors whose
    /// message is one line without control characters.
    static func checkLine(_ line: String, _ name: String) {
        do {
            let parsed = try LineParser.parse(line)
            #expect(parsed.pipeCommand == nil || parsed.redirect == nil, "\(name)")
            let requoted = parsed.words.map(LineParser.quoted).joined(separator: " ")
            #expect(try LineParser.parse(requoted).words == parsed.words, "\(name): \(requoted.debugDescription)")
        } catch {
            #expect(error.isUsageError, "\(name): \(error)")
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                    "\(name): \(error.message.debugDescription)")
        }
    }

    @Test func replaysEveryInput() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let text = String(decoding: try Data(contentsOf: Self.folder.appendingPathComponent(name)), as: UTF8.self)
            Self.checkLine(text, name)
            for command in ScriptReader.commands(in: text) { Self.checkLine(command.text, name) }
        }
    }

    @Test func messagesQuoteTheLineWithoutItsControlCharacters() {
        do {
            _ = try LineParser.parse("list > 'a\u{1B}b' c\td\ne\u{202E}")
            Issue.record("accepted text after the redirect's file")
        } catch {
            #expect(error.message == #"unexpected text after > a\u{1B}b: c\u{9}d\u{A}e\u{202E}"#)
        }
    }

    @Test func aQuoteFollowedByACombiningMarkIsStillAQuote() throws {
        #expect(try LineParser.parse("\"'\u{309}\"").words == ["'\u{309}"])
        #expect(try LineParser.parse("'a'\u{309}").words == ["a\u{309}"])
        #expect(throws: ShopError.self) { try LineParser.parse("'a\u{309}") }
    }
}
