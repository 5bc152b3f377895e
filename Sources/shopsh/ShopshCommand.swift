// ShopshCommand: the binary's whole command tree as argument-parser sees it — its own options,
// its modes (`init`, `roles setup`, and the hidden `dev` and `__manual`), and every
// plugin's and built-in's commands. Main runs the modes through it; argument-parser walks it
// for the completion scripts it generates (`shopsh --generate-completion-script bash`) and for
// its tool-info dump, which the man page is made from. Commands at the prompt, in -c/-f and
// as words run through the shell (its parse is the same declaration, with a faster path).

import ArgumentParser
import ShellKit

/// A mode of the binary itself: parsed from the tree, run with the process's environment.
protocol ShopshMode: ParsableCommand {
    func run(environment: [String: String]) -> Int32
}

/// `shopsh [OPTIONS] [COMMAND …]` and its modes.
struct ShopshCommand: ParsableCommand {
    /// The binary's own modes, by the first word that names them.
    static let modes: [any ParsableCommand.Type] = [InitMode.self, RolesMode.self, DevMode.self, ManualMode.self]

    static let configuration = CommandConfiguration(
        commandName: "shopsh",
        abstract: GlobalOptions.configuration.abstract,
        discussion: GlobalOptions.configuration.discussion,
        version: GlobalOptions.configuration.version,
        subcommands: modes + allPlugins.map(\.command) + BuiltinCommands.all)

    @OptionGroup var options: RootOptions

    /// Flags that argument-parser answers from the tree itself.
    static let generatorFlags = ["--generate-completion-script", "--experimental-dump-help"]

    /// Runs the mode the first argument names (or a generator flag), parsed from the whole tree;
    /// nil when the arguments name none: they are options and commands for the shell.
    /// `--store` may come before the mode's name too (`shopsh --store FILE init`, as psql takes its
    /// connection options first).
    static func runMode(_ arguments: [String], environment: [String: String]) -> Int32? {
        guard let first = modeWord(arguments),
              modes.contains(where: { $0.shellName == first }) || generatorFlags.contains(where: first.hasPrefix) else {
            return nil
        }
        do {
            var parsed = try parseAsRoot(arguments)
            if let mode = parsed as? any ShopshMode { return mode.run(environment: environment) }
            // `--help`, or a mode that needs a subcommand named alone: argument-parser shows the help.
            try parsed.run()
            return 0
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                return 0
            }
            Main.printError(ParserMessage.oneLine(message(for: error)) + " (see 'shopsh --help')")
            return 2
        }
    }

    /// The first argument after any `--store VALUE` or `--store=VALUE`.
    static func modeWord(_ arguments: [String]) -> String? {
        var rest = arguments[...]
        while let word = rest.first {
            if word == "--store" { rest = rest.dropFirst(2) } else if word.hasPrefix("--store=") { rest = rest.dropFirst() } else { return word }
        }
        return nil
    }
}

/// `shopsh __manual` (hidden): the man page's source.
struct ManualMode: ShopshMode {
    static let configuration = CommandConfiguration(commandName: "__manual", shouldDisplay: false)

    func run(environment: [String: String]) -> Int32 {
        ManualCommand.run(environment: environment)
    }
}
