// PostgresServerWait: a command waiting for a server (PostgresFailover) is not silent and not stuck.
// After a second one line says how long at most, for what and why (`waiting up to 30 s for a
// primary: 127.0.0.1:5432 refused the connection; Ctrl-C stops`), and Ctrl-C ends the wait at once,
// also in the middle of an attempt that would take its connect timeout to fail (the attempt is
// cancelled and left to end by itself; its outcome is dropped).

import Synchronization
import ShopCore

/// One wait for a server: the reconnecting raced against the operator's Ctrl-C and a clock.
final class PostgresServerWait: Sendable {
    /// How long a wait goes unsaid (a quick failover shows only `reconnected to …`).
    static let quietFor: Duration = .seconds(1)
    /// How often the wait looks at Ctrl-C and the clock.
    static let poll: Duration = .milliseconds(50)

    private let timeout: Duration
    private let wanted: String
    private let interrupted: @Sendable () -> Bool
    private let notify: @Sendable (String) -> Void
    /// Why the newest attempt failed, host by host.
    private let reason: Mutex<String>
    /// Whether `line` was said (once a command, however many times its connection is lost).
    private let said = Mutex(false)

    /// `timeout`: the whole wait, as the line says it; `wanted`: `a primary`, `a server`…;
    /// `reason`: why the connection was lost or the first attempt failed.
    init(timeout: Duration, wanted: String, reason: String, interrupted: @escaping @Sendable () -> Bool,
         notify: @escaping @Sendable (String) -> Void) {
        self.timeout = timeout
        self.wanted = wanted
        self.reason = Mutex(reason)
        self.interrupted = interrupted
        self.notify = notify
    }

    /// The newest attempt failed for `why`.
    func failed(_ why: String) { reason.withLock { $0 = why } }

    /// The line said once the wait has lasted `quietFor`.
    var line: String {
        "waiting up to \(timeout.components.seconds) s for \(wanted): \(reason.withLock { $0 }); Ctrl-C stops"
    }

    /// Runs `wait` until it returns or throws, or the operator presses Ctrl-C: then `.interrupted`
    /// at once, and `wait` is cancelled. Says `line` once if the wait lasts `quietFor` and
    /// `deadline` is not about to end it anyway.
    func run(until deadline: ContinuousClock.Instant, _ wait: @escaping @Sendable () async throws -> Void) async throws {
        let outcome = Outcome()
        let attempt = Task {
            do { try await wait(); outcome.finish(.success(())) } catch { outcome.finish(.failure(error)) }
        }
        let sayAt = ContinuousClock.now + Self.quietFor
        while outcome.result == nil {
            try? await Task.sleep(for: Self.poll)
            if interrupted() {
                attempt.cancel()
                outcome.finish(.failure(ShopError.interrupted))
                break
            }
            let now = ContinuousClock.now
            if now >= sayAt, deadline - now > Self.quietFor, !said.withLock({ was in defer { was = true }; return was }) {
                notify(line)
            }
        }
        try outcome.result?.get()
    }

    /// The first outcome of the race: the wait's own, or an interruption.
    private final class Outcome: Sendable {
        private let state = Mutex<Result<Void, any Error>?>(nil)
        var result: Result<Void, any Error>? { state.withLock { $0 } }
        func finish(_ result: Result<Void, any Error>) { state.withLock { if $0 == nil { $0 = result } } }
    }
}
