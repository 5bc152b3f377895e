// HistoryCommand: `history [N]` lists the last N commands of this store's history;
// `history export FILE` writes them as a batch file (HistoryExportCommand.swift).

import ArgumentParser
import ShopCore
import ShopOutput

/// `history [list] [N]` and `history export FILE`.
///
/// `list` is the default subcommand, so `history` and `history 20` work as they always did.
struct HistoryCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the command history of this store (the last N commands), or export it as a batch file.",
        subcommands: [HistoryList.self, HistoryExport.self],
        defaultSubcommand: HistoryList.self)

    /// Not reached: argument-parser hands the default subcommand the words.
    func run(in context: CommandContext) async throws {
        try await HistoryList.parse([]).run(in: context)
    }
}

/// `history [list] [N]`.
struct HistoryList: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the command history of this store (the last N commands), numbered from 1.")

    @Argument(help: "How many of the latest commands to show (default: all).")
    var count: Int?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let count, count < 0 { throw ValidationError("N must be 0 or more") }
    }

    func run(in context: CommandContext) async throws {
        let history = context.host.history
        let first = max(0, history.count - (count ?? history.count))
        let columns = [Column("number"), Column("command")]
        try await context.list(columns: columns, options: output, page: Page(),
                               emptyNote: "no history (it is kept at the interactive prompt)") { emit in
            for (index, line) in history.enumerated().dropFirst(first) {
                try emit([.integer(Int64(index + 1)), .text(line)])
            }
        }
    }
}
