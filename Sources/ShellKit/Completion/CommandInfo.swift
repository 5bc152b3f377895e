// CommandInfo: the part of argument-parser's tool info (`--experimental-dump-help`, ToolInfoV0
// JSON) that completion needs: each command's options, flags and positionals. Computed once per
// root command and cached.

import ArgumentParser
import Foundation
import Synchronization

/// The tool info document: `{"serializationVersion": 0, "command": {…}}`.
struct ToolInfo: Decodable {
    var command: CommandInfo
}

/// One command of the tree.
struct CommandInfo: Decodable, Sendable {
    var commandName: String
    var arguments: [ArgumentInfo]
    var subcommands: [CommandInfo]
    /// The commands above this one (`["products"]` for products list).
    var superCommands: [String]

    enum CodingKeys: String, CodingKey { case commandName, arguments, subcommands, superCommands }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commandName = try container.decode(String.self, forKey: .commandName)
        arguments = try container.decodeIfPresent([ArgumentInfo].self, forKey: .arguments) ?? []
        subcommands = try container.decodeIfPresent([CommandInfo].self, forKey: .subcommands) ?? []
        superCommands = try container.decodeIfPresent([String].self, forKey: .superCommands) ?? []
    }

    /// The command `path` (subcommand names) below this one.
    func descendant(_ path: [String]) -> CommandInfo? {
        var current = self
        for name in path {
            guard let sub = current.subcommands.first(where: { $0.commandName == name }) else { return nil }
            current = sub
        }
        return current
    }
}

/// One argument: `kind` is positional, option (takes a value) or flag.
struct ArgumentInfo: Decodable, Sendable {
    struct Name: Decodable, Sendable {
        var kind: String   // long, short, longWithSingleDash
        var name: String
    }

    struct Completion: Decodable, Sendable {
        struct File: Decodable, Sendable { var extensions: [String]? }
        struct List: Decodable, Sendable { var values: [String]? }
        struct Empty: Decodable, Sendable {}
        struct ShellCommand: Decodable, Sendable { var command: String? }
        var file: File?
        var list: List?
        var directory: Empty?
        var shellCommand: ShellCommand?

        /// The live kinds shopsh declared with `.shop(…)`, if it is one of those.
        var shopKinds: [CompletionKind]? {
            shellCommand?.command.flatMap(CompletionKind.kinds(inShellCommand:))
        }
    }

    var kind: String
    var names: [Name]?
    var preferredName: Name?
    var shouldDisplay: Bool?
    var isRepeating: Bool?
    var allValues: [String]?
    var completionKind: Completion?
}

/// Tool info per command (root type and subcommand path), decoded once.
enum CommandInfoCache {
    private struct Key: Hashable {
        var root: ObjectIdentifier
        var path: [String]
    }

    private static let cache = Mutex<[Key: CommandInfo]>([:])

    /// The info of `path` under `root`, or `nil` if argument-parser's dump is not available.
    static func info(root: any ParsableCommand.Type, path: [String]) -> CommandInfo? {
        let key = Key(root: ObjectIdentifier(root), path: path)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        guard let info = load(root, path: path) else { return nil }
        cache.withLock { $0[key] = info }
        return info
    }

    /// Asks argument-parser for the dump of the command `path` names (only that command, which
    /// is much smaller than the whole tree): parsing `--experimental-dump-help` throws, and the
    /// error's full message is the JSON.
    static func load(_ root: any ParsableCommand.Type, path: [String]) -> CommandInfo? {
        do {
            _ = try root.parseAsRoot(path + ["--experimental-dump-help"])
            return nil
        } catch {
            let json = root.fullMessage(for: error)
            guard let command = try? JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8)).command else { return nil }
            // The dump is of the command named, or (older argument-parser versions) of the root.
            return command.commandName == (path.last ?? root._commandName) && command.superCommands.count == path.count
                ? command : command.descendant(path)
        }
    }
}
