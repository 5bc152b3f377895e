// OutputSink: the buffered byte writer every format writes into; one write(2) per 64 KiB.

import Glibc

/// A buffered writer of bytes to a file descriptor (or to memory, for tests).
///
/// Bytes collect in one 64 KiB buffer that is written with `write(2)` when it fills and on
/// `flush()`. `write` never throws: a failure is remembered, later bytes are dropped, and the
/// next `flush()` (which every renderer calls) throws it. The sink never closes its file
/// descriptor. Not thread-safe: one sink is used by one thread at a time.
public final class OutputSink: @unchecked Sendable {
    /// Bytes not yet written. Renderers append to it through `appendRow(_:)`.
    private var buffer: [UInt8] = []
    private let fileDescriptor: Int32?
    private var collected: [UInt8] = []
    private var failure: OutputError?

    static let capacity = 64 * 1024
    /// Flushing a little before the capacity keeps one more row from reallocating the buffer.
    static let flushThreshold = capacity - 4 * 1024

    /// A sink writing to `fileDescriptor`, e.g. `STDOUT_FILENO` or a file opened for `> FILE`.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(Self.capacity)
    }

    private init(memory: Void) {
        self.fileDescriptor = nil
        buffer.reserveCapacity(Self.capacity)
    }

    /// A sink that keeps everything in memory; read it back with `memoryText`.
    public static func memory() -> OutputSink {
        OutputSink(memory: ())
    }

    deinit {
        try? flush()
    }

    /// Everything a memory sink has collected so far, flushed or not (empty for a file sink).
    public var memoryText: String {
        String(decoding: collected + buffer, as: UTF8.self)
    }

    /// Everything a memory sink has collected so far, which it then forgets (the shell shows a
    /// command's output held for the pager before the command asks a question).
    public func takeMemoryText() -> String {
        let text = memoryText
        collected = []
        buffer.removeAll(keepingCapacity: true)
        return text
    }

    /// Appends the UTF-8 bytes of `text`.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        drainIfFull()
    }

    /// Appends raw bytes.
    public func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        drainIfFull()
    }

    /// Writes out everything buffered; throws the first failure seen by this sink.
    public func flush() throws {
        drain()
        if let failure { throw failure }
    }

    /// Lets `body` append one row's bytes to the buffer, then flushes if the buffer is nearly full.
    ///
    /// Renderers append a whole row in one call: each access to the buffer through the class
    /// costs a dynamic exclusivity check, which per cell would be a quarter of an export's time.
    func appendRow(_ body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        try flushIfFull()
    }

    /// Flushes when the buffer is nearly full.
    func flushIfFull() throws {
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    // MARK: - Writing out

    private func drainIfFull() {
        if buffer.count >= Self.flushThreshold { drain() }
    }

    /// Moves the buffer to its destination, remembering (not throwing) a failure.
    private func drain() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        guard let fileDescriptor else {
            collected.append(contentsOf: buffer)
            return
        }
        failure = buffer.withUnsafeBytes { Self.writeAll($0, to: fileDescriptor) }
    }

    /// Writes every byte, looping on partial writes, EINTR and EAGAIN.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fileDescriptor: Int32) -> OutputError? {
        guard var next = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(fileDescriptor, next, remaining)
            if written >= 0 {
                next += written
                remaining -= written
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A non-blocking descriptor (shared with a parent): wait until it takes more.
                var waiting = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            case EPIPE:
                return .brokenPipe
            default:
                return .io("cannot write output: " + String(cString: strerror(code)))
            }
        }
        return nil
    }
}

/// `write(2)`, under a name the sink's own `write` methods do not shadow.
private func systemWrite(_ fileDescriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fileDescriptor, bytes, count)
}
