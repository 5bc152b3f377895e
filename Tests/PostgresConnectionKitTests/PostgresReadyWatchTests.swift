// PostgresReadyWatchTests: the ReadyForQuery counter reads the server's message frames however the
// bytes are cut into reads, lets a waiter go only when its ReadyForQuery has come, fails it when
// the connection ends first, and stops judging when the frames make no sense. No server needed.

import NIOCore
import Testing

@testable import PostgresConnectionKit

@Suite struct PostgresReadyWatchTests {
    /// A backend message: type, length (counting itself), body.
    func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count + 4)
        return [UInt8(ascii: type.unicodeScalars.first ?? "?")] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + body
    }

    /// What a one-row statement's answer looks like: ParseComplete, BindComplete, RowDescription,
    /// a DataRow, CommandComplete and ReadyForQuery.
    var answer: [UInt8] {
        message("1", []) + message("2", []) + message("T", Array(repeating: 7, count: 30)) + message("D", Array(repeating: 1, count: 12))
            + message("C", Array("SELECT 1\0".utf8)) + message("Z", [UInt8(ascii: "I")])
    }

    @Test func readyForQueryIsCountedWhereverTheReadsAreCut() {
        let bytes = answer + answer
        for cut in 1..<bytes.count {
            let watch = PostgresReadyWatch()
            _ = watch.observe(ByteBuffer(bytes: bytes[..<cut]))
            _ = watch.observe(ByteBuffer(bytes: bytes[cut...]))
            #expect(watch.readyCount == 2, "cut at \(cut)")
            #expect(!watch.isLost)
        }
        let byteByByte = PostgresReadyWatch()
        for byte in bytes { _ = byteByByte.observe(ByteBuffer(bytes: [byte])) }
        #expect(byteByByte.readyCount == 2)
    }

    @Test func anAnswerWithoutReadyForQueryLetsNoWaiterGo() async throws {
        let watch = PostgresReadyWatch()
        let before = watch.readyCount
        let waiter = Task { try await watch.waitForReady(after: before) }
        try await Task.sleep(for: .milliseconds(20))
        // The answer up to CommandComplete, then a notice (the server's WARNING before it ends the session).
        let cutShort = Array(answer.dropLast(6)) + message("N", Array("SWARNING\0\0".utf8))
        #expect(watch.observe(ByteBuffer(bytes: cutShort)).isEmpty)
        #expect(watch.readyCount == before)
        // Its ReadyForQuery lets it go.
        for continuation in watch.observe(ByteBuffer(bytes: message("Z", [UInt8(ascii: "I")]))) { continuation.resume() }
        try await waiter.value
        #expect(watch.readyCount == before + 1)
    }

    @Test func framesThatMakeNoSenseStopTheWatchFromHoldingBack() async throws {
        let watch = PostgresReadyWatch()
        _ = watch.observe(ByteBuffer(bytes: [0x00, 0x00, 0x00, 0x00, 0x02]))
        #expect(watch.isLost)
        try await watch.waitForReady(after: 5)   // returns at once
    }
}
