// PostgresReadyWatch: counts the ReadyForQuery messages a connection receives, so that a change
// made by one statement knows its implicit transaction is over. In the extended protocol the
// server answers a statement (rows, CommandComplete) before it commits, at Sync, and only its
// ReadyForQuery says the commit happened; postgres-nio hands the answer over at CommandComplete
// and drops what follows. A server that stops between the two (a failover's shutdown: "canceling
// the wait for synchronous replication … committed locally, but might not have been replicated")
// never sends ReadyForQuery, and the change must not be reported as made. The watch sits in the
// connection's pipeline right before postgres-nio's handler (after TLS), reads the message frames
// as they pass (type byte, 4-byte length) and lets every byte through unchanged.

import NIOConcurrencyHelpers
import NIOCore

/// Watches one connection's incoming messages for ReadyForQuery.
package final class PostgresReadyWatch: ChannelInboundHandler, Sendable {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    /// The connection ended before the ReadyForQuery a change waited for.
    package struct Ended: Error {}

    package init() {}

    private struct State {
        /// ReadyForQuery messages seen.
        package var readyCount = 0
        /// The bytes of the current message's header seen so far (at most 5).
        package var header: [UInt8] = []
        /// The bytes of the current message's body still to pass.
        package var remaining = 0
        /// The channel went inactive.
        package var ended = false
        /// The frames stopped making sense: the watch can tell nothing any more.
        package var lost = false
        package var waiters: [(after: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// The number of ReadyForQuery messages seen so far.
    package var readyCount: Int { state.withLockedValue { $0.readyCount } }

    /// Returns once a ReadyForQuery beyond the first `count` has come; throws `Ended` when the
    /// connection ends first. Returns at once when the watch lost track of the frames.
    package func waitForReady(after count: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = state.withLockedValue { state in
                if state.readyCount > count || state.lost { return .success(()) }
                if state.ended { return .failure(Ended()) }
                state.waiters.append((count, continuation))
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let ready = observe(unwrapInboundIn(data))
        context.fireChannelRead(data)
        for continuation in ready { continuation.resume() }
    }

    /// Reads the frames in `buffer` (the next bytes the server sent) and returns the waiters
    /// whose ReadyForQuery has come.
    package func observe(_ buffer: ByteBuffer) -> [CheckedContinuation<Void, any Error>] {
        state.withLockedValue { state in
            Self.scan(buffer, &state)
            let due = state.waiters.filter { state.readyCount > $0.after || state.lost }
            state.waiters.removeAll { state.readyCount > $0.after || state.lost }
            return due.map(\.continuation)
        }
    }

    /// Whether the frames stopped making sense (then the watch no longer holds anything back).
    package var isLost: Bool { state.withLockedValue { $0.lost } }

    package func channelInactive(context: ChannelHandlerContext) {
        let waiting = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: Ended()) }
        context.fireChannelInactive()
    }

    /// Advances the frame reader over `buffer`, counting ReadyForQuery ('Z', length 5).
    private static func scan(_ buffer: ByteBuffer, _ state: inout State) {
        guard !state.lost else { return }
        var bytes = buffer.readableBytesView[...]
        while !bytes.isEmpty {
            if state.remaining > 0 {
                let skipped = min(state.remaining, bytes.count)
                bytes = bytes.dropFirst(skipped)
                state.remaining -= skipped
                continue
            }
            let needed = 5 - state.header.count
            state.header.append(contentsOf: bytes.prefix(needed))
            bytes = bytes.dropFirst(needed)
            guard state.header.count == 5 else { return }
            let length = state.header[1...4].reduce(0) { $0 << 8 | Int($1) }
            let type = state.header[0]
            state.header = []
            // Every backend message's length counts itself (4); a type outside A–Z, a–z and 1–3
            // (ParseComplete, BindComplete, CloseComplete) or a length no message has means the
            // watch joined mid-message: it stops judging.
            guard length >= 4, length < 1 << 30,
                  (0x41...0x5A).contains(type) || (0x61...0x7A).contains(type) || (0x31...0x33).contains(type) else {
                state.lost = true
                return
            }
            state.remaining = length - 4
            if type == UInt8(ascii: "Z") { state.readyCount += 1 }
        }
    }
}
