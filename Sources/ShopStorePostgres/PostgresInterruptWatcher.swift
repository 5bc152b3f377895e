// PostgresInterruptWatcher: Ctrl-C during a query cancels it on the server. One watcher per store
// looks at the operator's interrupt flag every `PostgresDatabase.interruptPoll` while any query
// runs, and asks the server to cancel each running one (over a connection of its own, as
// `pg_cancel_backend`); it stops looking once nothing runs. A query costs a lock and a set insert,
// not a task and a timer of its own (which were a fifth of a batch's time in thread switches).

import Synchronization

/// Watches the interrupt flag for the queries of one store.
final class PostgresInterruptWatcher: Sendable {
    private struct State {
        /// The server processes running a query now (a process may be counted more than once).
        var running: [Int32: Int] = [:]
        /// Those asked to cancel already, in this interruption.
        var cancelled: Set<Int32> = []
        var watching = false
    }

    private let state = Mutex(State())
    private let interrupted: @Sendable () -> Bool
    private let cancel: @Sendable (Int32) async -> Void

    /// `interrupted`: whether the operator asked to stop; `cancel`: asks the server to cancel what
    /// a server process runs.
    init(interrupted: @escaping @Sendable () -> Bool, cancel: @escaping @Sendable (Int32) async -> Void) {
        self.interrupted = interrupted
        self.cancel = cancel
    }

    /// Runs `body`, a query on server process `pid`; should the operator press Ctrl-C meanwhile,
    /// the server is asked to cancel it (it then fails with SQLSTATE 57014: "interrupted").
    func watching<T>(_ pid: Int32, _ body: () async throws -> T) async throws -> T {
        let start = state.withLock { state -> Bool in
            state.running[pid, default: 0] += 1
            defer { state.watching = true }
            return !state.watching
        }
        if start { startWatching() }
        defer {
            state.withLock { state in
                if let count = state.running[pid], count > 1 { state.running[pid] = count - 1 } else {
                    state.running[pid] = nil
                    state.cancelled.remove(pid)
                }
            }
        }
        return try await body()
    }

    /// The loop, detached: it must not inherit the caller's executor (the shell's calling-thread
    /// executor stops running jobs once the command is done). It ends when nothing runs.
    private func startWatching() {
        Task.detached { [self] in
            while true {
                try? await Task.sleep(for: PostgresDatabase.interruptPoll)
                let (stop, toCancel) = state.withLock { state -> (Bool, [Int32]) in
                    if state.running.isEmpty {
                        state.watching = false
                        return (true, [])
                    }
                    guard interrupted() else { return (false, []) }
                    let pids = state.running.keys.filter { !state.cancelled.contains($0) }
                    state.cancelled.formUnion(pids)
                    return (false, pids)
                }
                if stop { return }
                for pid in toCancel { await cancel(pid) }
            }
        }
    }
}
