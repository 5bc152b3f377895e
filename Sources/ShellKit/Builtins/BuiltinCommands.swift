// BuiltinCommands: the shell's own commands: help, exit/quit, source, set, plugins (and the list
// of all built-ins, with use, history and watch from their own files).

import ArgumentParser
import ShopCore
import ShopOutput

/// The built-in commands, in the order `help` lists them.
public enum BuiltinCommands {
    public static let all: [any ShellCommand.Type] = [
        HelpCommand.self, UseCommand.self, SetCommand.self, WhoamiCommand.self, HistoryCommand.self, WatchCommand.self,
        SourceCommand.self, LetCommand.self, UnletCommand.self, AliasCommand.self, UnaliasCommand.self, EchoCommand.self,
        EditCommand.self, PluginsCommand.self, ExitCommand.self,
    ]
}

/// `help [COMMAND [SUBCOMMAND]]`.
struct HelpCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "help", abstract: "Show the commands, or help for one command.")

    @Argument(help: "A command (and subcommand) to explain.")
    var words: [String] = []

    func run(in context: CommandContext) async throws {
        let host = context.host
        guard let name = words.first else {
            var text = "Commands:\n"
            let rows = host.plugins.map { ($0.name, $0.summary) }
                + host.builtins.map { ($0.shellName, $0.configuration.abstract) }
            let width = rows.map(\.0.count).max() ?? 0
            for (name, summary) in rows {
                text += "  " + name + String(repeating: " ", count: width - name.count + 2) + summary + "\n"
            }
            let external = host.externalPlugins().compactMap { plugin in plugin.description.map { (plugin.name, $0.summary) } }
            if !external.isEmpty {
                text += "\nExternal plugins:\n"
                let width = external.map(\.0.count).max() ?? 0
                for (name, summary) in external {
                    text += "  " + TerminalEscaping.escape(name) + String(repeating: " ", count: width - name.count + 2)
                        + TerminalEscaping.escape(summary) + "\n"
                }
            }
            let aliases = context.session.aliases.sorted { $0.key < $1.key }
            if !aliases.isEmpty {
                text += "\nAliases:\n"
                let width = aliases.map(\.key.count).max() ?? 0
                for (name, body) in aliases {
                    text += "  " + name + String(repeating: " ", count: width - name.count + 2) + TerminalEscaping.escape(body) + "\n"
                }
            }
            text += "\nIn command files: if COMMAND (or if VALUE OP VALUE) … [else …] end, for NAME in WORDS … end, exit N.\n"
            text += "\nType help COMMAND or COMMAND --help for details. Output: -o table|json|ndjson|csv|tsv.\n"
            context.sink.write(text)
            return
        }
        if let body = context.session.aliases[name], words.count == 1 {
            context.sink.write("\(name) is an alias: \(TerminalEscaping.escape(body))\n")
            return
        }
        guard let root = host.plugins.first(where: { $0.name == name })?.command
                ?? host.builtins.first(where: { $0.shellName == name || $0.configuration.aliases.contains(name) }) else {
            guard let plugin = host.externalPlugin(named: name) else {
                throw ShopError.usage("no help for \"\(name)\": unknown command; type help for the list")
            }
            guard let description = plugin.description else { throw ShopError.system(plugin.warning ?? plugin.statusText) }
            let command = try words.dropFirst().first.map { (word: String) throws(ShopError) in
                guard let command = description.command(word) else { throw ShopError.usage("\"\(name)\" has no command \"\(word)\"") }
                return command
            }
            context.sink.write(ExternalHelp.text(plugin, description: description, command: command))
            return
        }
        var target: any ParsableCommand.Type = root
        for word in words.dropFirst() {
            guard let sub = target.configuration.subcommands.first(where: { $0.shellName == word }) else {
                throw ShopError.usage("\"\(name)\" has no subcommand \"\(word)\"")
            }
            target = sub
        }
        let columns = context.sinkIsTerminal ? Terminal.width(environment: context.environment) : 80
        context.sink.write(root.helpMessage(for: target, columns: columns) + "\n")
    }
}

/// `exit [N]` / `quit [N]`.
struct ExitCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "exit",
                                                    abstract: "Leave the shell, or end a command file, with status N (also quit, Ctrl-D).",
                                                    aliases: ["quit"])

    @Argument(help: ArgumentHelp("The exit status, 0 to 255 (default: how the run went).", valueName: "n"))
    var status: Int?

    func validate() throws {
        if let status, !(0...255).contains(status) { throw ValidationError("exit takes a status from 0 to 255, not \(status)") }
    }

    func run(in context: CommandContext) async throws {
        context.host.requestExit(status: status.map { Int32(clamping: $0) })
    }
}

/// `source FILE`.
struct SourceCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "source", abstract: "Run the commands in a file.")

    @Argument(help: "A file of shopsh commands.", completion: .file())
    var file: String

    func run(in context: CommandContext) async throws {
        try await context.host.source(path: file, context: context)
    }
}

/// `plugins`: the built-in plugins, then the external ones with their path and status, and
/// which of their commands are declared read-only (the only ones a read-only session, an
/// `--atomic` or a `--dry-run` run starts).
struct PluginsCommand: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "plugins", abstract: "List the command plugins.")

    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let columns = ["name", "kind", "version", "summary", "subcommands", "read_only", "path", "status"].map(Column.init)
        let external = context.host.externalPlugins()
        try await context.list(columns: columns, defaultFields: nil,
                               tableView: TableView(["name", "kind", "version", "status", "read_only", "summary", "path"],
                                                    optional: ["read_only", "summary", "path"]),
                               options: output, page: Page(), emptyNote: "no plugins") { emit in
            for plugin in context.host.plugins {
                try emit([.text(plugin.name), .text("built-in"), .null, .text(plugin.summary),
                          .list(plugin.command.configuration.subcommands.map { $0.shellName }), .null, .null, .text("ok")])
            }
            for plugin in external {
                let description = plugin.description
                try emit([.text(plugin.name), .text("external"), description.map { .text($0.version) } ?? .null,
                          description.map { .text($0.summary) } ?? .null, .list(description?.commands.map(\.name) ?? []),
                          description.map { .list($0.commands.filter { !$0.writes }.map(\.name)) } ?? .null,
                          .text(plugin.path), .text(plugin.statusText)])
            }
        }
        for plugin in external {
            if let warning = plugin.warning { context.note("warning: " + warning) }
        }
    }
}

/// `set [NAME [VALUE]]`: session settings.
struct SetCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Show or change a session setting (format, currency, color, header, wide, pager, timing, limit).",
        discussion: "set format json · set currency EUR · set color never · set header off · set wide on · set timing on · set limit 20 · set NAME default")

    @Argument(help: "The setting's name.")
    var name: String?

    @Argument(help: "Its new value, or 'default'.")
    var value: String?

    func run(in context: CommandContext) async throws {
        let session = context.session
        guard let name else {
            let rows: [(String, String)] = [
                ("format", session.output.format?.rawValue ?? "default (table on a terminal, tsv otherwise)"),
                ("currency", session.currency ?? "default (as stored, USD)"),
                ("color", session.output.color?.rawValue ?? "auto"),
                ("header", session.output.noHeader ? "off" : "on"),
                ("wide", session.output.wide ? "on" : "off"),
                ("pager", session.pager ? "on" : "off"),
                ("timing", session.timing ? "on" : "off"),
                ("limit", session.paging.limit.map(String.init) ?? "default (\(PagingOptions.defaultLimit))"),
                ("operator", session.identity.name),
                ("role", session.identity.role.rawValue),
                ("read-only", session.identity.readOnlyReason.map { "yes (\($0))" } ?? "no"),
            ] + (session.placement?.current.map { [("server", "\($0.host) (\($0.kind))")] } ?? [])
            for (key, text) in rows { context.sink.write("\(key)\t\(TerminalEscaping.escape(text))\n") }
            return
        }
        guard let value else { throw ShopError.usage("set \(name) needs a value (or 'default')") }
        let reset = value == "default"
        switch name {
        case "format":
            guard reset || OutputFormat(rawValue: value) != nil else {
                throw ShopError.usage("unknown format \"\(value)\"; formats: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            session.output.format = reset ? nil : OutputFormat(rawValue: value)
        case "currency":
            if reset {
                session.currency = nil
            } else {
                session.currency = try await context.services.currencies.currency(value).code
            }
        case "color", "colour":
            guard reset || ColorMode(rawValue: value) != nil else { throw ShopError.usage("color must be auto, always or never") }
            session.output.color = reset ? nil : ColorMode(rawValue: value)
        case "header":
            session.output.noHeader = reset ? false : !(try Self.onOff(value, name))
        case "wide":
            session.output.wide = reset ? false : try Self.onOff(value, name)
        case "pager":
            session.pager = reset ? true : try Self.onOff(value, name)
        case "timing":
            session.timing = reset ? false : try Self.onOff(value, name)
        case "limit":
            guard reset || (Int(value).map { $0 >= 0 } ?? false) else { throw ShopError.usage("limit must be a whole number ≥ 0") }
            session.paging.limit = reset ? nil : Int(value)
        default:
            throw ShopError.usage("unknown setting \"\(name.escapingControls)\"; settings: format, currency, color, header, wide, pager, timing, limit")
        }
    }

    static func onOff(_ value: String, _ name: String) throws -> Bool {
        switch value {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw ShopError.usage("\(name) must be on or off")
        }
    }
}
