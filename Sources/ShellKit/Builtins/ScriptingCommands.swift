// ScriptingCommands: the built-ins that teach the shell — `let`/`unlet` (variables), `alias`/
// `unalias`, and `echo`. Their words arrive expanded; `$…` inside single quotes stays as typed,
// which is how an alias body keeps its `$1` for later.

import ArgumentParser
import ShopCore
import ShopOutput

/// `let [NAME = WORDS…]`: sets a variable, or lists them.
struct LetCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "let",
        abstract: "Set a variable (let NAME = WORDS; read it as $NAME), or list them.",
        discussion: """
            let DAY = 2026-11-28 · let ORDER = $(basket checkout emilys --fields id --no-header -o tsv) · \
            -v NAME=VALUE on the command line. A value is the words after = joined by one space \
            (at most 1 MiB); $(…) gives a command's output without its trailing newlines, one value a line for a list.
            """)

    @OptionGroup var output: OutputOptions

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("NAME = WORDS…", valueName: "assignment"))
    var words: [String] = []

    func run(in context: CommandContext) async throws {
        guard let name = words.first else {
            try await context.listNamed(context.session.variables, valueColumn: "value", options: output, emptyNote: "no variables")
            return
        }
        guard words.count >= 2, words[1] == "=" else {
            throw ShopError.usage("let takes NAME = WORDS (spaces around =), e.g. let ORDER = 42")
        }
        try context.session.setVariable(name, to: words.dropFirst(2).joined(separator: " "))
    }
}

/// `unlet NAME…`.
struct UnletCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "unlet", abstract: "Remove variables.")

    @Argument(help: ArgumentHelp("The variables to remove.", valueName: "name"))
    var names: [String]

    func run(in context: CommandContext) async throws {
        try Self.checkNames(names, in: context.session.variables, command: "unlet", what: "variable")
        for name in names { context.session.variables[name] = nil }
    }
}

/// `alias [NAME [BODY…]]`: defines an alias, shows one, or lists them.
struct AliasCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "alias",
        abstract: "Define an alias (alias NAME 'COMMAND; COMMAND'), show one, or list them.",
        discussion: """
            alias vip 'users show $1; basket show $1; orders list --user $1 --limit 5' · alias pl 'products list' \
            (pl --limit 3 adds the arguments) · ${1:-default}, $@ for every argument. Single quotes keep $1 for \
            the call. An alias never hides a command, and may not call itself.
            """)

    @OptionGroup var output: OutputOptions

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("NAME and its commands.", valueName: "definition"))
    var words: [String] = []

    func run(in context: CommandContext) async throws {
        let session = context.session
        guard let name = words.first else {
            try await context.listNamed(session.aliases, valueColumn: "body", options: output, emptyNote: "no aliases")
            return
        }
        guard words.count > 1 else {
            guard let body = session.aliases[name] else { throw ShopError.usage("alias \(name.escapingControls): no such alias") }
            try context.record(columns: [Column("name"), Column("body")], row: [.text(name), .text(body)], options: output)
            return
        }
        let body = words.dropFirst().joined(separator: " ")
        let host = context.host
        try AliasBody.check(name: name, body: body, aliases: session.aliases) { host.isTakenByCommand($0) }
        guard session.aliases[name] != nil || session.aliases.count < ScriptLimits.maxEntries else {
            throw ShopError.invalidInput("a session holds at most \(ScriptLimits.maxEntries) aliases")
        }
        session.aliases[name] = body
    }
}

/// `unalias NAME…`.
struct UnaliasCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "unalias", abstract: "Remove aliases.")

    @Argument(help: ArgumentHelp("The aliases to remove.", valueName: "name"))
    var names: [String]

    func run(in context: CommandContext) async throws {
        try UnletCommand.checkNames(names, in: context.session.aliases, command: "unalias", what: "alias")
        for name in names { context.session.aliases[name] = nil }
    }
}

/// `echo [-n] [--stderr] WORDS…`.
struct EchoCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo",
        abstract: "Print words (to stdout, or to stderr with --stderr; -n: no newline).",
        discussion: "echo order $ORDER placed · echo --stderr checking stock. Control characters are escaped on a terminal.")

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("[-n] [--stderr] WORDS…", valueName: "words"))
    var words: [String] = []

    func run(in context: CommandContext) async throws {
        var rest = words[...]
        var newline = true
        var toStderr = false
        while let flag = rest.first {
            if flag == "-n" { newline = false } else if flag == "--stderr" { toStderr = true } else if flag == "--" { rest.removeFirst(); break } else { break }
            rest.removeFirst()
        }
        let text = rest.joined(separator: " ") + (newline ? "\n" : "")
        if toStderr {
            context.host.writeToStderr(context.terminal.stderrIsTerminal ? Self.escapedLines(text) : text)
        } else {
            context.sink.write(context.sinkIsTerminal ? Self.escapedLines(text) : text)
        }
    }

    /// `text` escaped for a terminal line by line (its line breaks kept, every other control shown).
    static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalEscaping.escape(String($0)) }.joined(separator: "\n")
    }
}

extension UnletCommand {
    /// Refuses the whole removal when one of `names` is not in `entries` (nothing is removed then).
    static func checkNames(_ names: [String], in entries: [String: String], command: String, what: String) throws(ShopError) {
        if let missing = names.first(where: { entries[$0] == nil }) {
            throw .usage("\(command) \(missing.escapingControls): no such \(what)")
        }
    }
}

extension CommandContext {
    /// Lists `entries` (variables, aliases) sorted by name, as `name` and `valueColumn`.
    func listNamed(_ entries: [String: String], valueColumn: String, options: OutputOptions, emptyNote: String) async throws {
        let sorted = entries.sorted { $0.key < $1.key }
        try await list(columns: [Column("name"), Column(valueColumn)], options: options, page: Page(), emptyNote: emptyNote) { emit in
            for (name, value) in sorted { try emit([.text(name), .text(value)]) }
        }
    }
}

extension Session {
    /// Sets variable `name` (checked: its name, its size, how many there are).
    public func setVariable(_ name: String, to value: String) throws(ShopError) {
        guard ShellNames.isVariableName(name) else {
            throw .usage("\(name.escapingControls) is not a variable name (letters, digits and _, not starting with a digit; at most \(ShellNames.maxNameLength))")
        }
        try ScriptLimits.checkValue(value, what: "the value of \(name)")
        guard variables[name] != nil || variables.count < ScriptLimits.maxEntries else {
            throw .invalidInput("a session holds at most \(ScriptLimits.maxEntries) variables")
        }
        variables[name] = value
    }
}
