// InteractiveLoop: the readline prompt: history, Tab completion, Ctrl-C, continuation lines.

import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import LineEditor

/// The interactive shell on a terminal. Runs on the main thread (readline needs it), and so
/// does each command (`Blocking.run` drives it on this thread).
struct InteractiveLoop {
    let shell: Shell
    /// Where the store is (its history file is named after it).
    let storeLocation: String
    let environment: [String: String]

    func run() -> Int32 {
        Interrupt.install()
        let engine = CompletionEngine(shell: shell)
        let reader = ReadlineLineReader(
            historyFile: StoreLocation.historyPath(forStore: storeLocation, environment: environment),
            completer: { _ in [] })
        reader.setDescribedCompleter { request in Blocking.run { await engine.complete(request) } }
        shell.historySource = { reader.history }
        shell.historyRecorder = { reader.addHistory($0) }
        let environment = environment
        reader.bindEditKey { text in
            do {
                return try ExternalEditor.edit(text, environment: environment)
            } catch {
                writeToStream("error: \(TerminalEscaping.escape((error as? ShopError)?.message ?? "\(error)"))\n", STDERR_FILENO)
                return nil
            }
        }
        reader.saveHistoryOnTermination()
        var accumulator = ScriptAccumulator()
        var blocks = ScriptBlockReader()
        var lineNumber = 0
        var startsWithSpace = false
        var lastOutcome = CommandOutcome.success
        while !shell.exitRequested {
            let session = shell.session
            let prompt = accumulator.isContinuing || blocks.isOpen ? "…> " : Self.prompt(for: session)
            guard case .line(let line) = reader.readLine(prompt: prompt) else {
                writeToStream("\n", STDERR_FILENO)
                break
            }
            lineNumber += 1
            // A command whose first line starts with a space is not recorded (as in bash).
            if !accumulator.isContinuing { startsWithSpace = line.first == " " }
            guard let command = accumulator.feed(line, lineNumber: lineNumber) else { continue }
            if !startsWithSpace { reader.addHistory(command.text) }
            // `if …` and `for …` typed at the prompt run when their `end` is typed.
            let step: ScriptStep?
            do {
                step = try blocks.feed(command)
            } catch {
                _ = shell.fail(.usage(error.message), location: nil)
                blocks = ScriptBlockReader()
                continue
            }
            guard let step else { continue }
            lastOutcome = Blocking.run { [shell] in await shell.run(step: step, label: "", continueOnError: true) }
        }
        reader.saveHistory()
        _ = lastOutcome
        return shell.exitStatus ?? 0
    }

    /// `shop> `, `shop (emilys)> `; on a standby `shop@h2:5433 (standby)> `, so nobody takes it
    /// for the primary.
    static func prompt(for session: Session) -> String {
        let standby = session.placement?.current.flatMap { $0.isStandby ? "@\($0.host) (standby)" : nil } ?? ""
        return session.storeName + TerminalEscaping.escape(standby) + ((session.currentUserName ?? session.currentUser).map { " (\($0))" } ?? "") + "> "
    }
}
