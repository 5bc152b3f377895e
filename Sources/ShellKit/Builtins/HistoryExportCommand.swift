// HistoryExportCommand: `history export FILE [--since N] [--force]` writes the commands typed at
// the prompt as a batch file that `shopsh -f FILE` (or `--dry-run -f`) replays.

import ArgumentParser
import Foundation
import ShopCore

/// `history export FILE [--since N] [--force]`.
///
/// The file (mode 0600: it holds customer data) starts with `#` comment lines saying what it
/// is, then has one command a line. Left out: `history` commands, `exit`/`quit`, commands
/// carrying a secret (``CommandSecrets``), commands that failed when typed in this session,
/// and any that cannot be written as one batch line (see ``HistoryScript``).
struct HistoryExport: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the history as a batch file to replay with shopsh --dry-run -f FILE.",
        discussion: """
            Leaves out history commands, exit and quit, commands carrying a password, secret or token, \
            and commands that failed when typed in this session. The file is created with mode 0600.
            """)

    @Argument(help: ArgumentHelp("The batch file to write.", valueName: "file"), completion: .file())
    var file: String

    @Option(help: ArgumentHelp("Only the commands numbered N and later (the numbers history shows).", valueName: "n"))
    var since: Int?

    @Flag(help: "Overwrite FILE if it exists.")
    var force = false

    func validate() throws {
        if let since, since < 1 { throw ValidationError("--since must be 1 or more") }
    }

    func run(in context: CommandContext) async throws {
        let history = context.host.history
        guard !history.isEmpty else {
            throw ShopError.invalidInput("no history to export (history is kept at the interactive prompt)")
        }
        let first = since ?? 1
        guard first <= history.count else {
            throw ShopError.invalidInput("--since \(first): the history has \(history.count) commands")
        }
        let entries = history.enumerated().dropFirst(first - 1).map { (number: $0.offset + 1, line: $0.element) }
        let host = context.host
        let script = HistoryScript(entries: entries) { host.promptOutcome(of: $0) }
        let text = script.text(storeName: context.session.storeName, time: Date(), file: file)
        try HistoryScript.write(text, to: file, force: force)
        let commands = script.commands.count == 1 ? "1 command" : "\(script.commands.count) commands"
        context.note("wrote \(commands) to \(file)" + (script.leftOut.isEmpty ? "" : "; left out \(script.leftOutSummary)"))
    }
}
