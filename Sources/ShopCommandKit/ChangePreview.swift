// ChangePreview: how a command that changes many things at once proceeds — it shows the changes,
// asks at a terminal (`--yes` skips the question), shows them only with `--dry-run`, and in a
// batch needs `--yes` when it changes more than one thing, so an old script never changes the
// shop in bulk by surprise.

import ArgumentParser
import ShopCore
import ShellKit

/// `--yes` and `--dry-run` of a command that shows its changes before it applies them.
public struct ChangePreviewOptions: ParsableArguments {
    @Flag(help: "Apply without asking.")
    public var yes = false

    @Flag(name: .customLong("dry-run"), help: "Show the changes; apply nothing.")
    public var dryRun = false

    public init() {}
}

extension CommandContext {
    /// Whether changes to `count` things (`summary`: "16 changes to 16 products"; `things`:
    /// "products") go ahead.
    /// `show` prints them: before the question at a terminal, alone with `--dry-run`. Returns
    /// false when nothing is to be applied (a dry run, or the operator said no); true when the
    /// caller applies them and then calls `show` unless `shown`.
    public func proceed(with summary: String, affecting count: Int, things: String, _ options: ChangePreviewOptions,
                        show: () async throws -> Void) async throws -> (apply: Bool, shown: Bool) {
        if options.dryRun {
            try await show()
            note("dry run: \(summary); nothing was applied")
            return (false, true)
        }
        guard !options.yes else { return (true, false) }
        if canAsk {
            try await show()
            guard try ask("apply \(summary)?") else {
                note("nothing was applied")
                return (false, true)
            }
            return (true, true)
        }
        if count > 1 {
            throw ShopError.usage("this changes \(count) \(things): add --yes to apply (or --dry-run to see the changes)")
        }
        return (true, false)
    }

    /// Whether the operator can be asked: stdin is a terminal (a script, a pipe or a job has none).
    public var canAsk: Bool { terminal.stdinIsTerminal }

    /// Asks `question` at the terminal after what the command printed so far, with ` [y/N] `
    /// after it: true for y or yes; false for anything else and at end of input. Ctrl-C stops
    /// the command.
    public func ask(_ question: String) throws(ShopError) -> Bool {
        host.showOutputSoFar()
        return try TerminalPrompt.confirm(question + " [y/N] ", context: self)
    }
}
