// ManualRoff: roff escaping and the command-tree description read from argument-parser's
// tool-info dump (`--experimental-dump-help`), for the generated man page.

import ArgumentParser
import Foundation

/// Turns plain text into roff text that renders as itself.
enum Roff {
    /// Escapes one piece of inline text: backslashes, hyphens (so options copy and search as
    /// typed), non-ASCII characters as `\[uXXXX]` (any formatter, any locale), control characters.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\t", "\n", "\r": result += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    continue
                } else if scalar.value > 0x7E {
                    result += "\\[u" + hex(scalar.value) + "]"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A text line: escaped, and protected when it starts with a control character (`.` or `'`).
    static func line(_ text: String) -> String {
        protect(escape(text.trimmingCharacters(in: .whitespaces)))
    }

    /// Guards an already-escaped line against being read as a request.
    static func protect(_ escaped: String) -> String {
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { return "\\&" + escaped }
        return escaped
    }

    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// Paragraph text (possibly several lines) as roff lines; blank lines become paragraph breaks.
    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                if let last = lines.last, last != ".PP" { lines.append(".PP") }
            } else {
                lines.append(line(trimmed))
            }
        }
        while lines.last == ".PP" { lines.removeLast() }
        return lines
    }

    /// Unicode code points are written with at least four upper-case hex digits (`\[u2026]`).
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The parts of argument-parser's ToolInfoV0 the manual uses (see ArgumentParserToolInfo).
struct ManualToolInfo: Decodable {
    var command: ManualCommandInfo
}

struct ManualCommandInfo: Decodable {
    var commandName: String
    var superCommands: [String]?
    var shouldDisplay: Bool?
    var aliases: [String]?
    var abstract: String?
    var discussion: String?
    var subcommands: [ManualCommandInfo]?
    var arguments: [ManualArgumentInfo]?

    /// The subcommands an operator sees (no hidden ones, no generated `help`).
    var visibleSubcommands: [ManualCommandInfo] {
        (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
    }

    /// The arguments an operator sees (no hidden ones, no `--help`/`--version`).
    var visibleArguments: [ManualArgumentInfo] {
        (arguments ?? []).filter { argument in
            guard argument.shouldDisplay != false else { return false }
            let names = (argument.names ?? []).map(\.name)
            return !names.contains("help") && !names.contains("version") && !names.contains("experimental-dump-help")
        }
    }
}

struct ManualArgumentInfo: Decodable {
    struct Name: Decodable, Equatable {
        var kind: String
        var name: String

        /// How it is typed: `-o`, `--format`, `-long`.
        var typed: String {
            switch kind {
            case "short": return "-" + name
            case "longWithSingleDash": return "-" + name
            default: return "--" + name
            }
        }
    }

    var kind: String
    var shouldDisplay: Bool?
    var sectionTitle: String?
    var isOptional: Bool?
    var isRepeating: Bool?
    var names: [Name]?
    var preferredName: Name?
    var valueName: String?
    var defaultValue: String?
    var allValues: [String]?
    var abstract: String?
    var discussion: String?

    var isPositional: Bool { kind == "positional" }
    var isFlag: Bool { kind == "flag" }

    /// Short names first, then long ones, as `--help` shows them.
    var typedNames: [String] {
        let all = names ?? []
        return (all.filter { $0.kind == "short" } + all.filter { $0.kind != "short" }).map(\.typed)
    }

    /// A stable key that identifies the option whatever command it is on.
    var identity: String { typedNames.joined(separator: ",") + "|" + kind + "|" + (abstract ?? "") }
}

enum ManualToolInfoError: Error {
    case noDump(String)
}

extension ManualToolInfo {
    /// Asks argument-parser for the tool-info JSON of `command` (and its whole subtree).
    static func load(_ command: any ParsableCommand.Type) throws -> ManualCommandInfo {
        var text: String
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
            // A command that passes unknown words through (the binary's own) parses the flag
            // as one of them; ask argument-parser for the same dump directly.
            text = command._dumpHelp()
        } catch {
            text = command.fullMessage(for: error)
        }
        guard text.hasPrefix("{") else { throw ManualToolInfoError.noDump(command._commandName) }
        return try JSONDecoder().decode(ManualToolInfo.self, from: Data(text.utf8)).command
    }
}
