// ManualRoff: roff escaping, and what the man page adds to ShellKit's reading of argument-parser's
// tool-info dump (`--experimental-dump-help`), for the generated man page.

import ArgumentParser
import Foundation
import ShellKit

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

extension ArgumentInfo {
    /// A stable key that identifies the option whatever command it is on.
    var identity: String { typedNames.joined(separator: ",") + "|" + kind + "|" + (abstract ?? "") }
}

enum ManualToolInfoError: Error {
    case noDump(String)
}

extension CommandInfo {
    /// The dump of `command` and its whole subtree, for the manual.
    static func manual(_ command: any ParsableCommand.Type) throws -> CommandInfo {
        guard let info = CommandInfo.load(command) else { throw ManualToolInfoError.noDump(command.shellName) }
        return info
    }
}
