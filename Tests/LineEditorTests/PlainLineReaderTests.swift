// PlainLineReaderTests: reading lines from a pipe or file descriptor (LF and CRLF, a last
// line without newline, invalid UTF-8, a byte-order mark, lines across 64 KiB reads).

import Foundation
import Testing
@testable import LineEditor

@Suite struct PlainLineReaderTests {
    /// Reads every line that `bytes`, written into a pipe, produces.
    private func lines(fromPipe bytes: [UInt8]) throws -> [String] {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        try #require(written == bytes.count)
        return readAll(PlainLineReader(fileDescriptor: fds[0]))
    }

    private func readAll(_ reader: PlainLineReader) -> [String] {
        var result: [String] = []
        while case .line(let line) = reader.readLine(prompt: "> ") { result.append(line) }
        return result
    }

    @Test func readsLinesKeepingBlankOnes() throws {
        #expect(try lines(fromPipe: Array("a b\n\n  c  \n".utf8)) == ["a b", "", "  c  "])
    }

    @Test func stripsCarriageReturnBeforeNewlineOnly() throws {
        #expect(try lines(fromPipe: Array("a\r\nb\rc\r\n\r\n".utf8)) == ["a", "b\rc", ""])
    }

    @Test func returnsLastLineWithoutNewline() throws {
        #expect(try lines(fromPipe: Array("a\nlast".utf8)) == ["a", "last"])
        #expect(try lines(fromPipe: Array("only\r".utf8)) == ["only"])
    }

    @Test func emptyInputEndsAtOnce() throws {
        #expect(try lines(fromPipe: []) == [])
    }

    @Test func endOfInputRepeats() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        close(fds[1])
        let reader = PlainLineReader(fileDescriptor: fds[0])
        #expect(reader.readLine(prompt: "") == .endOfInput)
        #expect(reader.readLine(prompt: "") == .endOfInput)
    }

    @Test func decodesInvalidUTF8WithReplacement() throws {
        let bytes: [UInt8] = Array("ok é\n".utf8) + [0x61, 0xFF, 0x62, 0x0A]
        #expect(try lines(fromPipe: bytes) == ["ok é", "a\u{FFFD}b"])
    }

    @Test func skipsByteOrderMarkAtStartOnly() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8)
        #expect(try lines(fromPipe: bytes) == ["a", "\u{FEFF}b"])
    }

    @Test func readsLinesAcrossManyChunks() throws {
        // 20,000 lines of varying length (≈ 600 KiB) plus one line longer than a chunk.
        var expected = (0..<20_000).map { "products show \($0) " + String(repeating: "x", count: $0 % 50) }
        expected.insert(String(repeating: "long", count: 40_000), at: 777)
        let text = expected.joined(separator: "\n") + "\n"

        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("plain-reader-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }

        #expect(readAll(PlainLineReader(fileDescriptor: fd)) == expected)
    }

    @Test func keepsNoHistory() {
        let reader = PlainLineReader(fileDescriptor: -1)
        reader.addHistory("products list")
        reader.saveHistory()
        #expect(reader.history.isEmpty)
        #expect(reader.readLine(prompt: "") == .endOfInput)  // a bad descriptor ends input
    }
}
