// ParseAhead: prepares the next commands of a batch on another thread while one runs.

import Foundation

/// The commands of a batch, tokenized and parsed on a background thread
/// ahead of the command being run.
///
/// Parsing is free of side effects (argument-parser's `validate()` checks values only), so it
/// can run beside the command being run: a 100,000-line batch takes a fifth less time. Results
/// come out in order; an error is reported when its command's turn comes, exactly as without
/// the thread. Short scripts (`-c`, a few lines) are prepared inline.
final class ParseAhead: @unchecked Sendable {
    /// Scripts shorter than this are prepared on the calling thread.
    static let threadThreshold = 16
    /// How many prepared commands may wait.
    static let capacity = 512

    private let commands: [ScriptCommand]
    private let prepare: @Sendable (String) -> CommandParser.PreparedLine
    private let condition = NSCondition()
    /// Prepared commands by index, waiting for their turn.
    private var ready: [Int: CommandParser.PreparedLine] = [:]
    /// The next index the parsing thread takes.
    private var nextToPrepare = 0
    private var consumedCount = 0
    private var stopped = false
    /// Threads asleep on the condition: a wake-up is only sent when someone waits (each futex
    /// call costs as much as parsing a line).
    private var consumerWaiting = false
    private var producerWaiting = false
    private let threaded: Bool

    /// Starts one parsing thread for scripts of ``threadThreshold`` lines or more: with parse
    /// templates (``CommandTemplates``) a line parses in microseconds, and a second thread only
    /// added contention (100k lines: 11.3 s with one, 11.7 s with two, 14.0 s parsing inline).
    init(_ commands: [ScriptCommand], prepare: @escaping @Sendable (String) -> CommandParser.PreparedLine) {
        self.commands = commands
        self.prepare = prepare
        self.threaded = commands.count >= Self.threadThreshold
        guard threaded else { return }
        let thread = Thread { [self] in produce() }
        thread.name = "shopsh parse-ahead"
        thread.start()
    }

    /// The next command and its prepared form, in script order; nil after the last one.
    func next() -> (ScriptCommand, CommandParser.PreparedLine)? {
        guard consumedCount < commands.count else { return nil }
        let index = consumedCount
        let command = commands[index]
        guard threaded else {
            consumedCount += 1
            return (command, prepare(command.text))
        }
        condition.lock()
        defer { condition.unlock() }
        while ready[index] == nil {
            consumerWaiting = true
            condition.wait()
            consumerWaiting = false
        }
        let prepared = ready.removeValue(forKey: index)
        consumedCount += 1
        // A full buffer refills from half: waking the parser for every line would cost a futex
        // round trip per command.
        if producerWaiting && nextToPrepare - consumedCount <= Self.capacity / 2 { condition.broadcast() }
        return prepared.map { (command, $0) }
    }

    /// Stops the parsing thread (the batch ended early or finished).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce() {
        while true {
            condition.lock()
            while !stopped && nextToPrepare < commands.count && nextToPrepare - consumedCount >= Self.capacity {
                producerWaiting = true
                condition.wait()
                producerWaiting = false
            }
            guard !stopped, nextToPrepare < commands.count else {
                condition.unlock()
                return
            }
            let index = nextToPrepare
            nextToPrepare += 1
            condition.unlock()

            let prepared = prepare(commands[index].text)

            condition.lock()
            ready[index] = prepared
            if consumerWaiting { condition.broadcast() }
            condition.unlock()
        }
    }
}
