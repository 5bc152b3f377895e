// ReadlineCompletion: the bridge between readline's Tab completion (C callbacks and globals)
// and the Swift completer of ReadlineLineReader, including quoting of inserted words.

@preconcurrency import CReadline
import ShopOutput
import Synchronization
@preconcurrency import Glibc

/// Tab completion glue. readline's callbacks are plain C functions, so the Swift completer
/// lives in a global `Mutex`; the last ``ReadlineLineReader`` created owns it.
///
/// Words end at blanks, quotes, `|` and `>`. Candidates are inserted quoted for
/// ``LineParser``: escaped with backslashes outside quotes (`my\ file.csv`), or escaped for the
/// quote the operator opened (`"my file.csv"`), whose closing quote readline adds when only one
/// candidate is left. One candidate also gets a space after it, unless it ends in `/` (a
/// directory, to be continued).
enum ReadlineCompletion {
    /// Word separators for completion (readline's `rl_completer_word_break_characters`).
    static let wordBreakCharacters = " \t\n\"'|>"
    /// Characters that open a quoted word (readline's `rl_completer_quote_characters`).
    static let quoteCharacters = "\"'"

    private static let completer = Mutex<(@Sendable (CompletionRequest) -> [CompletionCandidate])?>(nil)
    /// The descriptions of the last candidates, by the text readline lists (for the display hook).
    static let descriptions = Mutex<[String: String]>([:])

    /// Makes `completer` answer Tab from now on and points readline at the callbacks.
    static func install(_ completer: @escaping @Sendable (CompletionRequest) -> [CompletionCandidate]) {
        self.completer.withLock { $0 = completer }
        rl_attempted_completion_function = attemptCompletion
        rl_char_is_quoted_p = characterIsQuoted
        rl_completer_word_break_characters = permanentCString(wordBreakCharacters)
        rl_completer_quote_characters = permanentCString(quoteCharacters)
    }

    /// Asks the completer; `nil` when none is installed.
    static func candidates(for request: CompletionRequest) -> [CompletionCandidate]? {
        guard let complete = completer.withLock({ $0 }) else { return nil }  // call it unlocked
        return complete(request)
    }

    // MARK: - Pure helpers (tested directly)

    /// What readline puts in the line for `candidates`: the first entry replaces the word
    /// (the candidates' longest common prefix when it extends `word`, else `word`: a product
    /// found by a title word is inserted as its id), the others are
    /// listed; quoted for `quote` (the opening quote character, or `nil`).
    static func replacements(for candidates: [String], word: String, quote: Character?) -> [String] {
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0).inserted }
        guard let first = unique.first else { return [] }
        if unique.count == 1 { return [escape(first, quote: quote)] }
        var common = Substring(first)
        for candidate in unique.dropFirst() {
            common = common.commonPrefix(with: candidate)
        }
        let prefix = common.count >= word.count && common.hasPrefix(word) ? String(common) : word
        return [escape(prefix, quote: quote)] + unique.map { escape($0, quote: quote) }
    }

    /// `text` written so that ``LineParser`` reads it back as one word, given the quote that is
    /// already open in front of it.
    static func escape(_ text: String, quote: Character?) -> String {
        var result = ""
        switch quote {
        case "'":
            for scalar in text.unicodeScalars {
                if scalar == "'" { result += "'\\''" } else { result.unicodeScalars.append(scalar) }
            }
        case "\"":
            for scalar in text.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { result += "\\" }
                result.unicodeScalars.append(scalar)
            }
        default:
            for (offset, scalar) in text.unicodeScalars.enumerated() {
                switch scalar {
                case " ", "\t", "\n", "\r", "'", "\"", "\\", "|", ">":
                    result += "\\"
                case "#" where offset == 0:
                    result += "\\"
                default:
                    break
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The word as ``LineParser`` would read it: backslash escapes removed (inside double
    /// quotes only before `"`, `\`, `$` and `` ` ``; inside single quotes none).
    static func unescape(_ word: String, quote: Character?) -> String {
        if quote == "'" { return word }
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in word.unicodeScalars {
            if escaping {
                if quote == "\"" && !["\"", "\\", "$", "`"].contains(scalar) {
                    result.append("\\")
                }
                result.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        if escaping { result.append("\\") }
        return String(result)
    }

    /// Whether the byte at `index` of `line` is inside quotes or escaped by a backslash.
    static func isQuoted(_ line: [UInt8], at index: Int) -> Bool {
        var quote: UInt8 = 0
        var position = 0
        while position < index && position < line.count {
            let byte = line[position]
            if quote == UInt8(ascii: "'") {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\\") {
                position += 1
                if position == index { return true }
            } else if quote == UInt8(ascii: "\"") {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            }
            position += 1
        }
        return quote != 0
    }

    /// Lists described candidates (`12  Lipstick`) in columns that fit `width`; ids (all digits)
    /// in numeric order, others as given.
    static func describedLayout(_ entries: [(value: String, description: String?)], width: Int) -> [String] {
        var entries = entries
        if entries.allSatisfy({ $0.value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) {
            entries.sort { ($0.value.count, $0.value) < ($1.value.count, $1.value) }
        }
        let cells = entries.map { entry in entry.description.map { entry.value + "  " + $0 } ?? entry.value }
        let widest = cells.map { DisplayWidth.of($0) }.max() ?? 0
        let cellWidth = min(widest, 40)
        let columns = max(1, (max(width, 1) + 2) / (cellWidth + 2))
        var lines: [String] = []
        var line = ""
        for (index, cell) in cells.enumerated() {
            let text = DisplayWidth.truncate(cell, to: cellWidth)
            let isLast = (index + 1) % columns == 0 || index == cells.count - 1
            line += isLast ? text : text + String(repeating: " ", count: max(0, cellWidth - DisplayWidth.of(text)) + 2)
            if isLast {
                lines.append(line)
                line = ""
            }
        }
        return lines
    }

    /// A C string that lives as long as the process (for readline globals that keep the pointer).
    static func permanentCString(_ text: String) -> UnsafePointer<CChar>? {
        strdup(text).map { UnsafePointer($0) }
    }
}

// MARK: - C callbacks

/// readline's `rl_attempted_completion_function`.
private func attemptCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    rl_attempted_completion_over = 1  // never fall back to file names
    guard let buffer = rl_line_buffer, start >= 0, end >= start, end <= rl_end else { return nil }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                    count: Int(end))
    let line = String(decoding: bytes, as: UTF8.self)
    let wordStart = String(decoding: bytes[..<Int(start)], as: UTF8.self).count
    let quote: Character? = rl_completion_quote_character == 0
        ? nil : Character(Unicode.Scalar(UInt8(truncatingIfNeeded: rl_completion_quote_character)))
    let typed = text.map { String(cString: $0) } ?? ""
    let word = ReadlineCompletion.unescape(typed, quote: quote)

    guard let candidates = ReadlineCompletion.candidates(
        for: CompletionRequest(line: line, wordStart: wordStart, word: word)) else { return nil }
    let entries = ReadlineCompletion.replacements(for: candidates.map(\.value), word: word, quote: quote)
    guard !entries.isEmpty else { return nil }
    var descriptions: [String: String] = [:]
    for candidate in candidates {
        if let description = candidate.description {
            descriptions[ReadlineCompletion.escape(candidate.value, quote: quote)] = description
        }
    }
    ReadlineCompletion.descriptions.withLock { $0 = descriptions }
    rl_completion_display_matches_hook = descriptions.isEmpty ? nil : displayDescribedMatches
    if entries.count == 1, entries[0].hasSuffix("/") {
        rl_completion_suppress_append = 1  // a directory: keep typing the path
        rl_completion_suppress_quote = 1
    }
    return makeCStringArray(entries)
}

/// readline's `rl_completion_display_matches_hook` when candidates have descriptions: lists
/// each with its description (a product id with its title), then redraws the prompt and line.
private func displayDescribedMatches(_ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                     _ count: Int32, _ maxLength: Int32) {
    guard let matches, count > 0 else { return }
    let descriptions = ReadlineCompletion.descriptions.withLock { $0 }
    var entries: [(value: String, description: String?)] = []
    for index in 1...Int(count) {
        guard let match = matches[index] else { continue }
        let value = String(cString: match)
        entries.append((value, descriptions[value]))
    }
    var rows: Int32 = 0
    var columns: Int32 = 0
    rl_get_screen_size(&rows, &columns)
    let lines = ReadlineCompletion.describedLayout(entries, width: Int(columns) - 1)
    if let stream = rl_outstream {
        fputs("\n" + lines.joined(separator: "\n") + "\n", stream)
        fflush(stream)
    }
    rl_forced_update_display()
}

/// readline's `rl_char_is_quoted_p`: is the word-break character at `index` quoted?
private func characterIsQuoted(_ line: UnsafeMutablePointer<CChar>?, _ index: Int32) -> Int32 {
    guard let line else { return 0 }
    let length = strlen(line)
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self),
                                    count: length)
    return ReadlineCompletion.isQuoted(Array(bytes), at: Int(index)) ? 1 : 0
}

/// A `malloc`ed, NULL-terminated array of `strdup`ed strings; readline frees both.
private func makeCStringArray(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    let size = MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (strings.count + 1)
    guard let raw = malloc(size) else { return nil }
    let array = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1)
    for (index, string) in strings.enumerated() {
        guard let copy = strdup(string) else {
            for earlier in 0..<index { free(array[earlier]) }
            free(raw)
            return nil
        }
        array[index] = copy
    }
    array[strings.count] = nil
    return array
}

extension Substring {
    /// The longest common prefix, Character by Character.
    func commonPrefix(with other: String) -> Substring {
        var end = startIndex
        var otherIndex = other.startIndex
        while end < endIndex, otherIndex < other.endIndex, self[end] == other[otherIndex] {
            formIndex(after: &end)
            other.formIndex(after: &otherIndex)
        }
        return self[..<end]
    }
}
