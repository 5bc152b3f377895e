// BlockingTests: `Blocking.run` runs async work to completion on the calling thread — awaits,
// child tasks and work that resumes from another thread included — and returns its result.

import Foundation
import Testing
@testable import ShellKit

@Suite struct BlockingTests {
    /// The thread that runs this.
    private static func threadID() -> pthread_t { pthread_self() }

    @Test func returnsTheBodysResult() {
        #expect(Blocking.run { 6 * 7 } == 42)
    }

    @Test func runsTheBodyOnTheCallingThread() {
        let caller = Self.threadID()
        let (before, after) = Blocking.run { () async -> (pthread_t, pthread_t) in
            let before = Self.threadID()
            await Task.yield()
            return (before, Self.threadID())
        }
        #expect(before == caller)
        #expect(after == caller)
    }

    @Test func childTasksRunOnTheCallingThreadToo() {
        let caller = Self.threadID()
        let threads = Blocking.run { () async -> [pthread_t] in
            await withTaskGroup(of: pthread_t.self) { group in
                for _ in 0..<4 { group.addTask { Self.threadID() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(threads == Array(repeating: caller, count: 4))
    }

    @Test func workResumedFromAnotherThreadComesBack() {
        let caller = Self.threadID()
        let (value, resumedOn) = Blocking.run { () async -> (Int, pthread_t) in
            let value = await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: 7) }
            }
            return (value, Self.threadID())
        }
        #expect(value == 7)
        #expect(resumedOn == caller)
    }

    @Test func sleepingTaskFinishes() {
        let started = Date()
        let done = Blocking.run { () async -> Bool in
            try? await Task.sleep(nanoseconds: 20_000_000)
            return true
        }
        #expect(done)
        #expect(Date().timeIntervalSince(started) >= 0.02)
    }

    @Test func consecutiveRunsDoNotShareState() {
        let results = (0..<50).map { index in Blocking.run { index * 2 } }
        #expect(results == (0..<50).map { $0 * 2 })
    }
}
