// CommandParser: from a line or words to a parsed command — tokenizing, finding the plugin or
// built-in, argument-parser (with parse templates for repeated shapes). Free of side effects, so
// it runs on any thread: batches parse ahead (ParseAhead).

import ArgumentParser
import Foundation
import ShopCore

/// Finds and parses commands for the shell and its batches.
final class CommandParser: Sendable {
    let plugins: [ShellPlugin]
    let builtins: [any ShellCommand.Type] = BuiltinCommands.all
    /// Leaf commands parsed before, by shape (see ``CommandTemplates``); nil when
    /// `SHOPSH_QUICK_PARSE=off` asks for argument-parser alone (bench/ab measures both ways).
    private let templates: CommandTemplates? = getenv("SHOPSH_QUICK_PARSE").map { String(cString: $0) } == "off"
        ? nil : CommandTemplates()

    init(plugins: [ShellPlugin]) {
        self.plugins = plugins
    }

    /// A command line tokenized and parsed but not run yet (see ``ParseAhead``).
    struct PreparedLine: @unchecked Sendable {
        let line: Result<ParsedLine, any Error>
        /// The line's words before expansion, when it holds any: it is parsed again once they are
        /// resolved, at its turn (`command` is then nil).
        var template: LineTemplate? = nil
        let command: ParsedCommand?
    }

    /// A command's words read by argument-parser: the command, or why it cannot run.
    struct ParsedCommand: @unchecked Sendable {
        /// The plugin or built-in named by the first word; nil when there is none.
        let root: (any ParsableCommand.Type)?
        let result: Result<any ParsableCommand, any Error>
    }

    /// Tokenizes and parses a line without running anything (safe on any thread).
    func prepare(_ line: String) -> PreparedLine {
        do {
            let template = try LineParser.template(line)
            let parsed = template.literalLine
            if template.hasExpansions { return PreparedLine(line: .success(parsed), template: template, command: nil) }
            return PreparedLine(line: .success(parsed), command: parseCommand(parsed.words))
        } catch {
            return PreparedLine(line: .failure(error), command: nil)
        }
    }

    /// Parses a command given as words (nil for no words); safe on any thread.
    func parseCommand(_ words: [String]) -> ParsedCommand? {
        guard let name = words.first else { return nil }
        guard let root = commandType(named: name) else {
            return ParsedCommand(root: nil, result: .failure(ShopError.usage(
                "unknown command \"\(name)\"\(suggestion(for: name)); type help for the list")))
        }
        return ParsedCommand(root: root, result: Result { try parse(root: root, Array(words.dropFirst())) })
    }

    /// The plugin or built-in a first word names.
    func commandType(named name: String) -> (any ParsableCommand.Type)? {
        if let plugin = plugins.first(where: { $0.name == name }) { return plugin.command }
        if let builtin = builtins.first(where: { $0.shellName == name || $0.configuration.aliases.contains(name) }) {
            return builtin
        }
        return nil
    }

    /// All command names the operator can type first.
    var commandNames: [String] {
        plugins.map(\.name) + builtins.flatMap { [$0.shellName] + $0.configuration.aliases }
    }

    func suggestion(for name: String) -> String {
        let close = commandNames.filter { EditDistance.between($0, name) <= 2 || $0.hasPrefix(name) }
        return close.isEmpty ? "" : " (did you mean \(close.map { "\"\($0)\"" }.joined(separator: " or "))?)"
    }

    /// The command and the subcommands that the leading words name (`["list", "--x"]` → products, list).
    func commandPath(of root: any ParsableCommand.Type, _ arguments: [String]) -> [any ParsableCommand.Type] {
        var path: [any ParsableCommand.Type] = [root]
        for word in arguments {
            guard let sub = path.last?.configuration.subcommands.first(where: { $0.shellName == word }) else { break }
            path.append(sub)
        }
        return path
    }

    /// Parses a command line's arguments under `root`.
    ///
    /// When the leading words name a leaf command and nothing asks for help, only that leaf
    /// is parsed: argument-parser rebuilds the argument sets of every command on the path on
    /// each parse, and skipping the parents halves the cost of a command in a long batch.
    func parse(root: any ParsableCommand.Type, _ arguments: [String]) throws -> any ParsableCommand {
        let path = commandPath(of: root, arguments)
        guard let leaf = path.last, path.count > 1, leaf.configuration.subcommands.isEmpty,
              !arguments.contains(where: Self.asksForHelp) else {
            return try root.parseAsRoot(arguments)
        }
        guard let templates else { return try leaf.parseAsRoot(Array(arguments.dropFirst(path.count - 1))) }
        return try templates.parse(leaf, root: root, path: path.dropFirst().map { $0.shellName },
                                   Array(arguments.dropFirst(path.count - 1)))
    }

    /// Words that argument-parser answers with help or a version rather than a command.
    static func asksForHelp(_ word: String) -> Bool {
        word == "-h" || word == "--help" || word == "-help" || word == "help" || word == "--version"
            || word.hasPrefix("--generate-completion") || word.hasPrefix("--experimental-dump")
    }

    /// The deepest subcommand that the leading words name.
    func subcommand(of root: any ParsableCommand.Type, path arguments: [String]) -> any ParsableCommand.Type {
        commandPath(of: root, arguments).last ?? root
    }

    /// `products list` for `["list", "--x"]` under products: where to find help.
    func helpPath(root: any ParsableCommand.Type, arguments: [String]) -> String {
        commandPath(of: root, arguments).map { $0.shellName }.joined(separator: " ")
    }
}

/// Parsing without a shell, only to warm argument-parser's and the Swift runtime's caches (which
/// are process-wide): shopsh parses a batch's first command this way while a PostgreSQL store
/// connects, so the real parse later finds its work done.
public enum CommandWarmUp {
    /// Tokenizes and parses `line` against `plugins` and the built-ins, and drops the result:
    /// nothing runs, nothing is printed.
    public static func parse(_ line: String, plugins: [ShellPlugin]) {
        _ = CommandParser(plugins: plugins).prepare(line)
    }

    /// The same for a command given as words.
    public static func parse(words: [String], plugins: [ShellPlugin]) {
        _ = CommandParser(plugins: plugins).parseCommand(words)
    }
}
