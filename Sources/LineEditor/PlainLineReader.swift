// PlainLineReader: reads command lines from a pipe or file (stdin that is not a terminal),
// with large buffered reads and no prompt, echo or history.

@preconcurrency import Glibc

/// Reads lines from a file descriptor for batch input (`shopsh < cmds.shop`, `… | shopsh`).
///
/// Lines end in LF; a CR before it is dropped (CRLF files), and a last line without LF is still
/// returned. A UTF-8 byte-order mark at the very start is skipped; invalid UTF-8 becomes U+FFFD.
/// Reads 64 KiB at a time. No prompt is printed and the history methods do nothing.
public final class PlainLineReader: LineReader {
    private static let chunkSize = 64 * 1024

    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// Where the search for the next LF resumes (everything from `start` to here has none).
    private var scanned = 0
    private var reachedEnd = false
    private var isAtStartOfInput = true

    /// Reads from `fileDescriptor` (standard input by default); does not close it.
    public init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.fileDescriptor = fileDescriptor
    }

    /// Returns the next line; `prompt` is ignored.
    public func readLine(prompt: String) -> LineInput {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = takeLine(upTo: newline)
                start = newline + 1
                scanned = start
                return .line(line)
            }
            scanned = buffer.count
            if reachedEnd {
                guard start < buffer.count else { return .endOfInput }
                let line = takeLine(upTo: buffer.count)
                start = buffer.count
                scanned = start
                return .line(line)
            }
            fill()
        }
    }

    /// Does nothing: piped input keeps no history.
    public func addHistory(_ line: String) {}

    /// Does nothing: piped input keeps no history.
    public func saveHistory() {}

    /// Whether the last line read was valid UTF-8 (invalid bytes are read as U+FFFD).
    public private(set) var lastLineIsUTF8 = true

    // MARK: - Helpers

    private func takeLine(upTo end: Int) -> String {
        var lineStart = start
        if isAtStartOfInput {
            isAtStartOfInput = false
            if buffer[lineStart..<end].starts(with: [0xEF, 0xBB, 0xBF]) { lineStart += 3 }
        }
        var lineEnd = end
        if lineEnd > lineStart && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let bytes = buffer[lineStart..<lineEnd]
        lastLineIsUTF8 = String(validating: bytes, as: UTF8.self) != nil
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends up to 64 KiB to the buffer, first dropping the lines already returned.
    private func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        var count = 0
        while true {
            count = buffer.withUnsafeMutableBytes { bytes in
                read(fileDescriptor, bytes.baseAddress.map { $0 + oldCount }, Self.chunkSize)
            }
            if count >= 0 { break }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var poller = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, -1)
                continue
            }
            count = 0  // an unreadable input ends like end of file
            break
        }
        buffer.removeLast(Self.chunkSize - count)
        if count == 0 { reachedEnd = true }
    }
}
