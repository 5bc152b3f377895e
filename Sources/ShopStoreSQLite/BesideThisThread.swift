// BesideThisThread: work started on a thread of its own and waited for later, so that pure
// computation (a bulk change's audit rows) runs on the second core while this thread waits on
// SQLite.

import Foundation
import Synchronization

/// `work`, run on a new thread from the moment this is made; `value()` waits for its result.
final class BesideThisThread<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let work: @Sendable () -> Value

    init(_ work: @escaping @Sendable () -> Value) {
        self.work = work
        Thread.detachNewThread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    /// The work's result, once it is done.
    func value() -> Value {
        done.wait()
        done.signal()   // for the next call
        return result.withLock { $0 } ?? work()
    }
}
