// GlobalOptions: the flags of the `shopsh` binary itself (modes, store, output defaults).

import ArgumentParser
import ShellKit

/// `shopsh [OPTIONS] [COMMAND …]` as the shell's path reads it: the binary's options, then a
/// command's words, passed through to the shell.
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

    @OptionGroup var options: RootOptions

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A command to run, e.g. products list --all.", valueName: "command"))
    var words: [String] = []
}

/// The options of the binary itself: how to run (-c, -f, batch flags), which store, and the output
/// and listing defaults of every command. The root of the command tree (ShopshCommand) has them.
struct RootOptions: ParsableArguments {
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
            help: ArgumentHelp("On a PostgreSQL server: when the connection is lost (a failover, a restart), how long a command waits for a server the connection string allows — the new primary — before it fails; with several hosts, start-up waits so too; 0 fails at once (default: 30).",
                               valueName: "seconds"))
    var reconnectTimeout: Int?

    @Option(help: ArgumentHelp("Read this start-up file instead of $SHOPSH_RC or $XDG_CONFIG_HOME/shopsh/shopshrc.", valueName: "file"))
    var rc: String?

    @Flag(name: .customLong("no-rc"), help: "Read no start-up file.")
    var noRc = false

    @Option(name: [.customShort("v"), .customLong("variable")],
            help: ArgumentHelp("Set a variable for the run, read as $NAME (repeatable).", valueName: "name=value"))
    var variables: [String] = []

    /// The values `--reconnect-timeout` takes.
    static let reconnectTimeoutRange = 0...3600

    mutating func validate() throws {
        if let reconnectTimeout, !Self.reconnectTimeoutRange.contains(reconnectTimeout) {
            throw ValidationError("--reconnect-timeout takes 0 to 3600 seconds, not \(reconnectTimeout)")
        }
    }

    @OptionGroup(title: "Output defaults for every command") var output: OutputOptions
    @OptionGroup(title: "Listing defaults for every command") var paging: PagingOptions
}
