// EditCommand: `edit` opens the last command in $VISUAL/$EDITOR (psql's \e) and runs what is
// saved; readline's C-x C-e does the same for the line being typed (InteractiveLoop binds it).

import ArgumentParser
import ShopCore

/// `edit`.
struct EditCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit the last command in $VISUAL or $EDITOR, then run what is saved (C-x C-e: the line being typed).",
        discussion: "Saving an empty file runs nothing; an editor that exits with a failure runs nothing. Several lines, blocks included, run as a command file would.")

    func run(in context: CommandContext) async throws {
        let host = context.host
        guard host.isInteractive else {
            throw ShopError.usage("edit works at the interactive prompt; in a command file write the command itself")
        }
        // The prompt recorded this `edit` already: the command to edit is the one before it.
        var history = host.history
        if let last = history.last, last.trimmingBlanks() == "edit" { history.removeLast() }
        let last = history.last ?? ""
        guard let text = try ExternalEditor.edit(last, environment: context.environment) else {
            context.note("nothing to run (the saved file is empty)")
            return
        }
        host.recordHistory(text)
        let outcome = await host.run(text: text, label: "edit")
        if outcome != .success { throw AlreadyReported(usage: outcome == .usageError) }
    }
}
