// ParserMessage: argument-parser's refusal of a command line as one line. It lists the values of
// an option with more than a few of them one a line ("Please provide one of the following:\n  -
// day\n  - week…"); an error of shopsh is one line, so the list is folded into the sentence form
// it uses for short lists ("Please provide one of 'day', 'week' or 'month'.").

import ArgumentParser
import Foundation

public enum ParserMessage {
    /// `type`'s message for `error`, on one line.
    public static func oneLine(_ type: any ParsableCommand.Type, _ error: any Error) -> String {
        oneLine(type.message(for: error))
    }

    /// `message` on one line: a list of `  - value` lines becomes `'a', 'b' or 'c'.`, other line
    /// breaks become spaces.
    public static func oneLine(_ message: String) -> String {
        var sentences: [String] = []
        var values: [String] = []
        func flushValues() {
            guard !values.isEmpty else { return }
            let quoted = values.map { "'\($0)'" }
            let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
            if var last = sentences.popLast() {
                if last.hasSuffix(" of the following:") { last.removeLast(" of the following:".count); last += " of" }
                else if last.hasSuffix(":") { last.removeLast() }
                sentences.append(last + " " + list + ".")
            } else {
                sentences.append(list + ".")
            }
            values = []
        }
        for line in message.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("- "), trimmed.count > 2, line.hasPrefix(" ") {
                values.append(String(trimmed.dropFirst(2)))
            } else {
                flushValues()
                sentences.append(String(line).trimmingCharacters(in: .whitespaces))
            }
        }
        flushValues()
        return sentences.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
