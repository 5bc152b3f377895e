// GlobalOptions: the flags of the `shopsh` binary itself (modes, store, output defaults).

import ArgumentParser
import ShellKit

/// `shopsh [OPTIONS] [COMMAND …]`.
struct GlobalOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shopsh",
        abstract: "A shell for running an online shop from the terminal.",
        discussion: """
            Without a command, shopsh opens an interactive prompt (or, when standard input is not a \
            terminal, runs the commands it reads there). `shopsh init` creates a store. Type `help` \
            at the prompt for the commands.
            """,
        version: "0.1.0")

    @Option(name: [.customShort("c"), .customLong("command")], help: ArgumentHelp("Run this command (repeatable).", valueName: "command"))
    var commands: [String] = []

    @Option(name: [.customShort("f"), .customLong("file")], help: ArgumentHelp("Run the commands in this file (repeatable).", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("The store: a file, or postgres://USER@HOST:PORT/DB (default: $SHOPSH_STORE or $XDG_DATA_HOME/shopsh/shop.sqlite).", valueName: "store"))
    var store: String?

    @Flag(name: .customLong("continue-on-error"), help: "In batch mode, run every command even after a failure (exit 1 if any failed).")
    var continueOnError = false

    @Flag(help: "In batch mode, keep all the changes of the run or, if any command fails, none (one transaction).")
    var atomic = false

    @Flag(name: .customLong("dry-run"), help: "In batch mode, run everything and show its output, then undo every change.")
    var dryRun = false

    @Flag(name: .customLong("read-only"),
          help: "Open the store for reading only: every command that would change the shop is refused (the file is opened read-only; on PostgreSQL every transaction is read only).")
    var readOnly = false

    @Option(name: .customLong("reconnect-timeout"),
            help: ArgumentHelp("On a PostgreSQL server: when the connection is lost (a failover, a restart), how long a command waits for a server the connection string allows — the new primary — before it fails; 0 fails at once (default: 30).",
                               valueName: "seconds"))
    var reconnectTimeout: Int?

    /// The values `--reconnect-timeout` takes.
    static let reconnectTimeoutRange = 0...3600

    mutating func validate() throws {
        if let reconnectTimeout, !Self.reconnectTimeoutRange.contains(reconnectTimeout) {
            throw ValidationError("--reconnect-timeout takes 0 to 3600 seconds, not \(reconnectTimeout)")
        }
    }

    @OptionGroup(title: "Output defaults for every command") var output: OutputOptions
    @OptionGroup(title: "Listing defaults for every command") var paging: PagingOptions

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A command to run, e.g. products list --all.", valueName: "command"))
    var words: [String] = []
}

/// `shopsh init [--empty] [--store PATH]`.
struct InitOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shopsh init",
        abstract: "Create a store: the demo shop, or an empty one with --empty.")

    @Flag(help: "Create the store without the demo shop.")
    var empty = false

    @Option(help: ArgumentHelp("Where to create it: a file, or postgres://USER@HOST:PORT/DB (default: $SHOPSH_STORE or $XDG_DATA_HOME/shopsh/shop.sqlite).", valueName: "store"))
    var store: String?
}

/// `shopsh roles setup [--store URL]`.
struct RolesOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shopsh roles",
        abstract: "Create the PostgreSQL roles shopsh_viewer, shopsh_support and shopsh_admin and (re)apply their grants.")

    @Argument(help: ArgumentHelp("What to do: setup.", valueName: "action"))
    var action: String

    @Option(help: ArgumentHelp("The store: postgres://USER@HOST:PORT/DB (default: $SHOPSH_STORE).", valueName: "store"))
    var store: String?

    func validate() throws {
        guard action == "setup" else { throw ValidationError("unknown action '\(action)': the one action is setup") }
    }
}
