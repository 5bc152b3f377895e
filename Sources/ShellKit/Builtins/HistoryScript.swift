// HistoryScript: turns history entries into the text of a batch file — which entries to leave
// out and why, and how to write each one so that ScriptReader reads back exactly that command.

import Foundation
import ShopCore

/// The batch file that `history export` writes, before it is written.
struct HistoryScript {
    /// Why an entry is not in the file.
    enum Reason: Int, CaseIterable {
        case history, exit, secret, failed, needsATerminal, notOneLine

        var label: String {
            switch self {
            case .history: return "history"
            case .exit: return "exit/quit"
            case .secret: return "with a secret"
            case .failed: return "failed"
            case .needsATerminal: return "that need a terminal"
            case .notOneLine: return "not writable as one line"
            }
        }
    }

    /// The file's command lines, in history order.
    private(set) var commands: [String] = []
    /// The entries left out: their history numbers and why.
    private(set) var leftOut: [(number: Int, reason: Reason)] = []

    /// Sorts `entries` (history numbers and lines) into commands and left-out entries.
    /// `outcome` says how a line ended when typed in this session (nil: not typed in it).
    init(entries: [(number: Int, line: String)], outcome: (String) -> CommandOutcome?) {
        for (number, line) in entries {
            guard let parsed = try? LineParser.parse(line), !parsed.isEmpty else {
                leftOut.append((number, .notOneLine))
                continue
            }
            let reason: Reason?
            switch parsed.words.first {
            case "history": reason = .history
            case "exit", "quit": reason = .exit
            default:
                if CommandSecrets.containsSecret(line) {
                    reason = .secret
                } else if let ended = outcome(line), ended != .success {
                    reason = .failed
                } else if Self.needsATerminal(parsed.words) {
                    reason = .needsATerminal
                } else {
                    reason = nil
                }
            }
            if let reason {
                leftOut.append((number, reason))
            } else if let written = Self.scriptLine(for: line, parsed: parsed) {
                commands.append(written)
            } else {
                leftOut.append((number, .notOneLine))
            }
        }
    }

    /// Whether `words` work only at a terminal, so a batch replaying them would fail: `watch`
    /// without `--count`, and a password asked for without `--password-file`.
    static func needsATerminal(_ words: [String]) -> Bool {
        func has(_ option: String) -> Bool { words.contains { $0 == option || $0.hasPrefix(option + "=") } }
        if words.first == "watch" { return !has("--count") }
        if words.count >= 2, words[0] == "users", ["passwd", "check-password"].contains(words[1]) { return !has("--password-file") }
        return false
    }

    /// `4 (2 history, 1 exit/quit, 1 with a secret)`.
    var leftOutSummary: String {
        let counts = Reason.allCases.compactMap { reason -> String? in
            let count = leftOut.filter { $0.reason == reason }.count
            return count == 0 ? nil : "\(count) \(reason.label)"
        }
        return "\(leftOut.count) (\(counts.joined(separator: ", ")))"
    }

    /// The whole file: the comment header, then one command a line.
    func text(storeName: String, time: Date, file: String) -> String {
        var header = [
            "shopsh history export: commands typed at the prompt, as a batch file",
            "store: \(storeName)",
            "exported: \(WatchScreen.timestamp(time))",
            "commands: \(commands.count)" + (leftOut.isEmpty ? "" : "; left out: \(leftOutSummary)"),
            "replay with: shopsh --dry-run -f \(LineParser.quotedIfNeeded(file))",
        ]
        header = header.map { "# " + $0.escapingControls }
        return (header + commands).map { $0 + "\n" }.joined()
    }

    /// The line that reads back as exactly the command `line` (its words, pipe and redirect):
    /// the line as typed when that works, else its words quoted again; nil when neither does
    /// (a word holding a line break, a trailing continuation backslash).
    static func scriptLine(for line: String, parsed: ParsedLine) -> String? {
        [line.droppingLeadingBlanks(), rebuilt(parsed)].first { candidate in
            guard !candidate.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { return false }
            // Followed by another line, as in the file: a continuation would swallow it.
            let read = ScriptReader.commands(in: candidate + "\nnext")
            return read.count == 2 && read[1].text == "next" && (try? LineParser.parse(read[0].text)) == parsed
        }
    }

    /// `parsed` written again: each word quoted when needed, the pipe command as it was.
    static func rebuilt(_ parsed: ParsedLine) -> String {
        var text = parsed.words.map(LineParser.quotedIfNeeded).joined(separator: " ")
        if let pipe = parsed.pipeCommand { text += " | " + pipe }
        if let redirect = parsed.redirect {
            text += (redirect.append ? " >> " : " > ") + LineParser.quotedIfNeeded(redirect.path)
        }
        return text
    }

    // MARK: - Writing

    /// Writes `text` to a new file of mode 0600 at `path`; an existing file only with `force`
    /// (it is made 0600 too).
    static func write(_ text: String, to path: String, force: Bool) throws(ShopError) {
        let shown = path.escapingControls
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? 0 : O_EXCL), 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .conflict("\(shown) exists; add --force to overwrite it") }
            throw .invalidInput("cannot write \(shown): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0, ftruncate(descriptor, 0) == 0 else {
            throw .system("cannot write \(shown): \(String(cString: strerror(errno)))")
        }
        let failed = Array(text.utf8).withUnsafeBytes { writeAll($0, to: descriptor) }
        if let failed { throw .system("cannot write \(shown): \(String(cString: strerror(failed)))") }
    }
}
