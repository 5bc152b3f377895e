// Blocking: runs async work from the synchronous main thread (readline must own the main thread),
// on that same thread: no thread pool is started for a command.

import Dispatch
import Synchronization

/// Bridges the synchronous main loop to async commands.
public enum Blocking {
    /// Runs `body` to completion on the calling thread and returns its result.
    ///
    /// The task prefers a ``CallingThreadExecutor``, so its jobs (and those of any child task)
    /// are queued to it and run here, one after another, while this thread waits for them. Before,
    /// the task ran on the global concurrency pool: a one-shot `shopsh -c …` then started three
    /// threads (a pool worker and dispatch's manager and monitor threads) and every command paid
    /// two thread switches. Work that an `await` sends elsewhere (a timer, an actor) still runs
    /// there and comes back through the queue.
    ///
    /// After ``use(_:)`` gave it another executor (the store's: see `ShopStore.preferredExecutor`),
    /// the task runs there instead, and this thread waits for its result.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let preferred = preferred.withLock { $0 }
        let callingThread = preferred == nil ? CallingThreadExecutor() : nil
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Task(executorPreference: preferred ?? callingThread) {
            let value = await body()
            result.withLock { $0 = value }
            if let callingThread { callingThread.finish() } else { done.signal() }
        }
        if let callingThread { callingThread.runUntilFinished() } else { done.wait() }
        guard let value = result.withLock({ $0.take() }) else { preconditionFailure("task finished without a result") }
        return value
    }
}

extension Blocking {
    /// The executor ``run(_:)`` runs its tasks on from now on (nil: the calling thread).
    public static func use(_ executor: (any TaskExecutor)?) {
        preferred.withLock { $0 = executor }
    }

    private static let preferred = Mutex<(any TaskExecutor)?>(nil)
}

/// A task executor whose jobs run on the thread that calls ``runUntilFinished()``.
final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var finished = false
    }

    private let state = Mutex(State())
    /// Counts queued jobs plus the final ``finish()``; the running thread sleeps on it.
    private let ready = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        state.withLock { $0.jobs.append(unowned) }
        ready.signal()
    }

    /// Marks the work done: ``runUntilFinished()`` returns once the jobs queued before it ran.
    func finish() {
        state.withLock { $0.finished = true }
        ready.signal()
    }

    /// Runs queued jobs on this thread, in order, until ``finish()`` has been called.
    func runUntilFinished() {
        while true {
            ready.wait()
            let next: UnownedJob?? = state.withLock { state in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                return state.finished ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let job)): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
