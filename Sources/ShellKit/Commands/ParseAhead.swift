// ParseAhead: prepares the next commands of a batch on a second thread while one runs.

import Foundation

/// The commands of a batch, tokenized and parsed by argument-parser on a background thread
/// ahead of the command being run.
///
/// Parsing is free of side effects (argument-parser's `validate()` checks values only), and
/// argument-parser spends about 0.15 ms building its argument tables on every parse: in a long
/// batch that is most of a basket command's time, so it runs on the second core. Results come
/// out in order; an error is reported when its command's turn comes, exactly as without the
/// thread. Short scripts (`-c`, a few lines) are prepared inline.
final class ParseAhead: @unchecked Sendable {
    /// Scripts shorter than this are prepared on the calling thread.
    static let threadThreshold = 16
    /// How many prepared commands may wait.
    static let capacity = 512

    private let commands: [ScriptCommand]
    private let prepare: @Sendable (String) -> Shell.PreparedLine
    private let condition = NSCondition()
    private var ready: [Shell.PreparedLine?]
    private var producedCount = 0
    private var consumedCount = 0
    private var stopped = false
    private let threaded: Bool

    init(_ commands: [ScriptCommand], prepare: @escaping @Sendable (String) -> Shell.PreparedLine) {
        self.commands = commands
        self.prepare = prepare
        self.ready = Array(repeating: nil, count: min(commands.count, Self.capacity))
        self.threaded = commands.count >= Self.threadThreshold
        if threaded {
            let thread = Thread { [self] in produce() }
            thread.name = "shopsh parse-ahead"
            thread.start()
        }
    }

    /// The next command and its prepared form, in script order; nil after the last one.
    func next() -> (ScriptCommand, Shell.PreparedLine)? {
        guard consumedCount < commands.count else { return nil }
        let command = commands[consumedCount]
        guard threaded else {
            consumedCount += 1
            return (command, prepare(command.text))
        }
        condition.lock()
        while producedCount <= consumedCount { condition.wait() }
        let slot = consumedCount % ready.count
        let prepared = ready[slot]
        ready[slot] = nil
        consumedCount += 1
        condition.broadcast()
        condition.unlock()
        guard let prepared else { return nil }
        return (command, prepared)
    }

    /// Stops the background thread (the batch ended early or finished).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce() {
        for index in commands.indices {
            let prepared = prepare(commands[index].text)
            condition.lock()
            while !stopped && index - consumedCount >= ready.count { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            ready[index % ready.count] = prepared
            producedCount = index + 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
