// ReadlinePasteTests: how ReadlineLineReader cuts a multi-line paste into the lines it
// returns one by one.

import Testing
@testable import LineEditor

/// How a multi-line paste is cut into the lines `readLine` returns one by one.
@Suite struct ReadlinePasteTests {
    @Test func singleLineIsNotAPaste() {
        #expect(ReadlineLineReader.pastedLines(in: "products list").isEmpty)
        #expect(ReadlineLineReader.pastedLines(in: "").isEmpty)
    }

    @Test func splitsOnLFAndCRLFIgnoringFinalNewline() {
        #expect(ReadlineLineReader.pastedLines(in: "a\r\n\nb c\nd\n") == ["a", "", "b c", "d"])
        #expect(ReadlineLineReader.pastedLines(in: "a\nb") == ["a", "b"])
        #expect(ReadlineLineReader.pastedLines(in: "\n") == [""])
    }
}
