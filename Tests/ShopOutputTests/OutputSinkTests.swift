// OutputSinkTests: buffering, complete writes through pipes, broken pipes and write errors.

import Dispatch
import Foundation
import Testing
@testable import ShopOutput

/// Reads a file descriptor to its end on another thread, like the other side of `| less`.
final class PipeReader: @unchecked Sendable {
    private let group = DispatchGroup()
    private var bytes: [UInt8] = []

    init(fileDescriptor: Int32, pauseEvery: Int? = nil) {
        group.enter()
        DispatchQueue.global().async {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var reads = 0
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                self.bytes.append(contentsOf: chunk[..<count])
                reads += 1
                if let pauseEvery, reads % pauseEvery == 0 { usleep(1000) }   // a slow reader
            }
            close(fileDescriptor)
            self.group.leave()
        }
    }

    /// Everything read, once the writing side is closed.
    func waitForAll() -> [UInt8] {
        group.wait()
        return bytes
    }
}

func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    return (ends[0], ends[1])
}

@Suite struct OutputSinkTests {
    @Test func memorySinkCollectsTextAndBytes() throws {
        let sink = OutputSink.memory()
        sink.write("héllo ")
        sink.write(bytes: [0xE6, 0x9D, 0xB1])   // 東
        sink.write(bytes: "京".utf8)
        #expect(sink.memoryText == "héllo 東京")
        try sink.flush()
        sink.write("!")
        #expect(sink.memoryText == "héllo 東京!")
    }

    @Test func memorySinkKeepsEverythingPastTheBufferSize() throws {
        let sink = OutputSink.memory()
        let line = String(repeating: "x", count: 99) + "\n"
        for _ in 0..<5_000 { sink.write(line) }
        try sink.flush()
        #expect(sink.memoryText.utf8.count == 500_000)
    }

    @Test func writesEveryByteThroughAPipe() throws {
        let ends = makePipe()
        let reader = PipeReader(fileDescriptor: ends.read)
        let sink = OutputSink(fileDescriptor: ends.write)
        let writer = try Renderer.list(columns: [Column("id"), Column("title")], options: RenderOptions(format: .csv), sink: sink)
        for index in 0..<50_000 { try writer.write([.integer(Int64(index)), .text("title number \(index)")]) }
        #expect(try writer.finish() == 50_000)
        close(ends.write)
        let text = String(decoding: reader.waitForAll(), as: UTF8.self)
        #expect(text.utf8.count > 1_000_000)
        #expect(text.hasPrefix("id,title\r\n0,title number 0\r\n"))
        #expect(text.hasSuffix("49999,title number 49999\r\n"))
    }

    @Test func waitsOnANonBlockingPipeInsteadOfFailing() throws {
        let ends = makePipe()
        _ = fcntl(ends.write, F_SETFL, fcntl(ends.write, F_GETFL) | O_NONBLOCK)
        let reader = PipeReader(fileDescriptor: ends.read, pauseEvery: 4)
        let sink = OutputSink(fileDescriptor: ends.write)
        let chunk = String(repeating: "0123456789", count: 1_000) + "\n"
        for _ in 0..<300 { sink.write(chunk) }
        try sink.flush()
        close(ends.write)
        #expect(reader.waitForAll().count == 300 * chunk.utf8.count)
    }

    @Test func brokenPipeThrowsWhileStreaming() throws {
        signal(SIGPIPE, SIG_IGN)   // as shopsh does, so that write(2) reports EPIPE
        let ends = makePipe()
        close(ends.read)
        let sink = OutputSink(fileDescriptor: ends.write)
        defer { close(ends.write) }
        let writer = try Renderer.list(columns: [Column("id")], options: RenderOptions(format: .ndjson), sink: sink)
        var thrown: (any Error)?
        var written = 0
        do {
            for index in 0..<1_000_000 {
                try writer.write([.integer(Int64(index))])
                written += 1
            }
        } catch {
            thrown = error
        }
        #expect(thrown as? OutputError == .brokenPipe)
        #expect(written < 10_000)   // it stopped at the first full buffer, not at the end
        #expect(throws: OutputError.brokenPipe) { _ = try writer.finish() }
    }

    @Test func otherWriteErrorsCarryTheSystemMessage() throws {
        let readOnly = open("/dev/null", O_RDONLY)
        defer { close(readOnly) }
        let sink = OutputSink(fileDescriptor: readOnly)
        sink.write("data")
        #expect(throws: OutputError.io("cannot write output: Bad file descriptor")) { try sink.flush() }
    }

    @Test func writesToAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shopoutput-\(UUID()).json").path
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(file >= 0)
        defer { unlink(path) }
        try Renderer.record(columns: [Column("id")], row: [.integer(7)], options: RenderOptions(format: .json),
                            sink: OutputSink(fileDescriptor: file))
        close(file)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"id\":7}\n")
    }
}
