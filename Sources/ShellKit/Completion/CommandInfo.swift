// CommandInfo: argument-parser's tool info (`--experimental-dump-help`, ToolInfoV0 JSON) as
// shopsh reads it — the one decoder of that dump, for Tab completion (each command's options,
// flags, positionals and their completion kinds) and for the man page (abstracts, discussions,
// value names, defaults). Completion's per-command dumps are cached.

import ArgumentParser
import Foundation
import Synchronization

/// The tool info document: `{"serializationVersion": 0, "command": {…}}`.
struct ToolInfo: Decodable {
    var command: CommandInfo
}

/// One command of the tree.
public struct CommandInfo: Decodable, Sendable {
    public var commandName: String
    public var arguments: [ArgumentInfo]
    public var subcommands: [CommandInfo]
    /// The commands above this one (`["products"]` for products list).
    public var superCommands: [String]
    public var shouldDisplay: Bool
    public var aliases: [String]
    public var abstract: String?
    public var discussion: String?

    enum CodingKeys: String, CodingKey {
        case commandName, arguments, subcommands, superCommands, shouldDisplay, aliases, abstract, discussion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commandName = try container.decode(String.self, forKey: .commandName)
        arguments = try container.decodeIfPresent([ArgumentInfo].self, forKey: .arguments) ?? []
        subcommands = try container.decodeIfPresent([CommandInfo].self, forKey: .subcommands) ?? []
        superCommands = try container.decodeIfPresent([String].self, forKey: .superCommands) ?? []
        shouldDisplay = try container.decodeIfPresent(Bool.self, forKey: .shouldDisplay) ?? true
        aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
        abstract = try container.decodeIfPresent(String.self, forKey: .abstract)
        discussion = try container.decodeIfPresent(String.self, forKey: .discussion)
    }

    /// The command `path` (subcommand names) below this one.
    public func descendant(_ path: [String]) -> CommandInfo? {
        var current = self
        for name in path {
            guard let sub = current.subcommands.first(where: { $0.commandName == name }) else { return nil }
            current = sub
        }
        return current
    }

    /// The subcommands an operator sees (no hidden ones, no generated `help`).
    public var visibleSubcommands: [CommandInfo] {
        subcommands.filter { $0.shouldDisplay && $0.commandName != "help" }
    }

    /// The arguments an operator sees (no hidden ones, no `--help`, `--version` or the dump flag).
    public var visibleArguments: [ArgumentInfo] {
        arguments.filter { argument in
            guard argument.shouldDisplay != false else { return false }
            let names = (argument.names ?? []).map(\.name)
            return !names.contains("help") && !names.contains("version") && !names.contains("experimental-dump-help")
        }
    }

    /// The dump of `root`'s command `path` (its subcommand names; empty for the whole tree), or nil
    /// when argument-parser gives none. Parsing `--experimental-dump-help` throws, and the error's
    /// full message is the JSON; a command that passes unknown words through takes the flag as one
    /// of them, and is asked for the same dump directly.
    public static func load(_ root: any ParsableCommand.Type, path: [String] = []) -> CommandInfo? {
        var json: String
        do {
            _ = try root.parseAsRoot(path + ["--experimental-dump-help"])
            guard path.isEmpty else { return nil }
            json = root._dumpHelp()
        } catch {
            json = root.fullMessage(for: error)
        }
        guard let command = try? JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8)).command else { return nil }
        // The dump is of the command named, or (older argument-parser versions) of the root.
        return command.commandName == (path.last ?? root.shellName) && command.superCommands.count == path.count
            ? command : command.descendant(path)
    }
}

/// One argument: `kind` is positional, option (takes a value) or flag.
public struct ArgumentInfo: Decodable, Sendable {
    public struct Name: Decodable, Sendable, Equatable {
        public var kind: String   // long, short, longWithSingleDash
        public var name: String

        /// How it is typed: `-o`, `--format`, `-long`.
        public var typed: String {
            switch kind {
            case "short", "longWithSingleDash": return "-" + name
            default: return "--" + name
            }
        }
    }

    public struct Completion: Decodable, Sendable {
        public struct File: Decodable, Sendable { public var extensions: [String]? }
        public struct List: Decodable, Sendable { public var values: [String]? }
        public struct Empty: Decodable, Sendable {}
        public struct ShellCommand: Decodable, Sendable { public var command: String? }
        public var file: File?
        public var list: List?
        public var directory: Empty?
        public var shellCommand: ShellCommand?

        /// The live kinds shopsh declared with `.shop(…)`, if it is one of those.
        var shopKinds: [CompletionKind]? {
            shellCommand?.command.flatMap(CompletionKind.kinds(inShellCommand:))
        }
    }

    public var kind: String
    public var names: [Name]?
    public var preferredName: Name?
    public var shouldDisplay: Bool?
    public var sectionTitle: String?
    public var isOptional: Bool?
    public var isRepeating: Bool?
    public var valueName: String?
    public var defaultValue: String?
    public var allValues: [String]?
    public var completionKind: Completion?
    public var abstract: String?
    public var discussion: String?

    public var isPositional: Bool { kind == "positional" }
    public var isFlag: Bool { kind == "flag" }

    /// Short names first, then long ones, as `--help` shows them.
    public var typedNames: [String] {
        let all = names ?? []
        return (all.filter { $0.kind == "short" } + all.filter { $0.kind != "short" }).map(\.typed)
    }
}

/// Tool info per command (root type and subcommand path), decoded once.
enum CommandInfoCache {
    private struct Key: Hashable {
        var root: ObjectIdentifier
        var path: [String]
    }

    private static let cache = Mutex<[Key: CommandInfo]>([:])

    /// The info of `path` under `root` (only that command's dump, which is much smaller than the
    /// whole tree), or `nil` if argument-parser's dump is not available.
    static func info(root: any ParsableCommand.Type, path: [String]) -> CommandInfo? {
        let key = Key(root: ObjectIdentifier(root), path: path)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        guard let info = CommandInfo.load(root, path: path) else { return nil }
        cache.withLock { $0[key] = info }
        return info
    }
}
