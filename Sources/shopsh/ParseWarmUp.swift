// ParseWarmUp: a batch's first command parsed on a second thread while a PostgreSQL store
// connects. Connecting waits on the network (a server process starting, the session's first
// query: about 8 ms on this machine) while argument-parser's first parse — the Swift runtime's
// conformance scans, cached for the process — is most of shopsh's own start-up; done meanwhile,
// the real parse finds the caches warm. Not for a SQLite store: opening one is work on this
// thread, and two threads starting the runtime at once were slower (bench/README).

import Foundation
import ShellKit

enum ParseWarmUp {
    /// Starts parsing the batch's first command (a `-c` text's first command, or the command given
    /// as words) when the store is a PostgreSQL server; the returned semaphore is signalled when
    /// done. nil: nothing started.
    static func start(_ global: GlobalArguments, store: String?) -> DispatchSemaphore? {
        guard let store, case .postgres = StoreFactory.target(store) else { return nil }
        let parse: @Sendable () -> Void
        if case .command(let text, _)? = global.steps.first, let first = ScriptReader.commands(in: text).first {
            let line = first.text
            parse = { CommandWarmUp.parse(line, plugins: allPlugins) }
        } else if global.steps.isEmpty, !global.words.isEmpty {
            let words = global.words
            parse = { CommandWarmUp.parse(words: words, plugins: allPlugins) }
        } else {
            return nil
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            parse()
            done.signal()
        }
        return done
    }
}
