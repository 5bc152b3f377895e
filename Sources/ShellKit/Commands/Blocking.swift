// Blocking: runs async work from the synchronous main thread (readline must own the main thread).

import Dispatch

/// Bridges the synchronous main loop to async commands.
public enum Blocking {
    /// Runs `body` on the concurrency pool and waits for it on the calling thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await body()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { preconditionFailure("task finished without a result") }
        return value
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}
