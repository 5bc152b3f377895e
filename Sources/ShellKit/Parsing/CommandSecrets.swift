// CommandSecrets: the one rule for what in a command line is a secret (an option's password or
// token, a URL's password), to mask it (`***`) or to keep such a line out of files.

/// Finds secrets in a command line as typed: the history export leaves such lines out, and
/// logs show them with ``masked(_:)``.
///
/// A secret is
/// - the value of an option whose name contains `password`, `passwd`, `secret` or `token`
///   (any case): `--password x`, `--password=x`, `--api-token='a b'`, `-secret x`; but not of
///   one whose name ends in `-file` or `-path` (`--password-file FILE` names a file);
/// - the password of a URL: `scheme://user:PASSWORD@host` (a URL without one has none).
///
/// The line is split into words with the quoting of ``LineParser`` (an unterminated quote runs
/// to the end of the line; `|` and `>` end a word, and an option's value is not looked for past
/// them). Text after `|` and comments are scanned too: masking too much is safe, too little is not.
public enum CommandSecrets {
    /// The parts of option names that mark their value as a secret.
    static let secretNameParts = ["password", "passwd", "secret", "token"]
    /// Endings of option names that take a path, not a secret.
    static let pathNameEndings = ["-file", "_file", "-path", "_path"]

    /// `line` with each secret (its whole word as written, quotes included) replaced by `***`;
    /// everything else byte for byte.
    ///
    /// `users add ann --password 'p w'` → `users add ann --password ***`;
    /// `--store=postgres://ann:pw@db/shop` → `--store=postgres://ann:***@db/shop`.
    public static func masked(_ line: String) -> String {
        let spans = secretSpans(in: line)
        guard !spans.isEmpty else { return line }
        let scalars = Array(line.unicodeScalars)
        var out = String.UnicodeScalarView()
        var position = 0
        for span in spans {
            out.append(contentsOf: scalars[position..<span.lowerBound])
            out.append(contentsOf: "***".unicodeScalars)
            position = span.upperBound
        }
        out.append(contentsOf: scalars[position...])
        return String(out)
    }

    /// Whether `line` holds a secret that ``masked(_:)`` would hide.
    public static func containsSecret(_ line: String) -> Bool {
        !secretSpans(in: line).isEmpty
    }

    /// Whether an option of this name (without its dashes) takes a secret.
    public static func isSecretOption(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretNameParts.contains { lowered.contains($0) }
            && !pathNameEndings.contains { lowered.hasSuffix($0) }
    }

    // MARK: - Finding secrets

    /// The secrets' places in `line`, as ranges of Unicode scalar offsets, sorted and disjoint.
    static func secretSpans(in line: String) -> [Range<Int>] {
        let tokens = SecretScanner.tokens(of: line)
        var spans: [Range<Int>] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            guard case .word(let word) = tokens[index] else { continue }
            if let name = optionName(word.text) {
                if let equals = name.unicodeScalars.firstIndex(of: "=") {
                    let valueStart = word.text.unicodeScalars.distance(from: word.text.startIndex, to: equals) + 1
                    if isSecretOption(String(name.unicodeScalars[..<equals])), valueStart < word.origins.count {
                        spans.append((word.origins[valueStart - 1] + 1)..<word.raw.upperBound)   // after the `=` as written
                        continue
                    }
                } else if isSecretOption(String(name)) {
                    if index + 1 < tokens.count, case .word(let value) = tokens[index + 1] {
                        spans.append(value.raw)
                        index += 1
                    }
                    continue
                }
            }
            if let password = urlPassword(in: word) { spans.append(password) }
        }
        return merged(spans)
    }

    /// `password=x` for `--password=x`, `token` for `-token`; nil for a word that is no option.
    private static func optionName(_ text: String) -> Substring? {
        let scalars = text.unicodeScalars
        guard scalars.first == "-" else { return nil }
        let dashes = scalars.dropFirst().first == "-" ? 2 : 1
        let name = scalars.dropFirst(dashes)
        guard let first = name.first, first != "-", first != "=" else { return nil }
        return Substring(name)
    }

    /// The raw place of the password in a word holding `scheme://user:PASSWORD@host…`.
    private static func urlPassword(in word: SecretScanner.Word) -> Range<Int>? {
        let text = Array(word.text.unicodeScalars)
        var searchFrom = 0
        while let scheme = find("://", in: text, from: searchFrom) {
            let authorityStart = scheme + 3
            var authorityEnd = authorityStart
            while authorityEnd < text.count, !"/?#".unicodeScalars.contains(text[authorityEnd]) { authorityEnd += 1 }
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@"),
               let colon = text[authorityStart..<at].firstIndex(of: ":"), colon + 1 < at {
                return word.origins[colon + 1]..<word.origins[at]
            }
            searchFrom = authorityEnd
        }
        return nil
    }

    private static func find(_ needle: String, in text: [Unicode.Scalar], from start: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        guard text.count >= pattern.count, start <= text.count - pattern.count else { return nil }
        return (start...(text.count - pattern.count)).first { Array(text[$0..<($0 + pattern.count)]) == pattern }
    }

    private static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}

// MARK: - Scanner

/// Splits a line into words as ``LineParser`` does, remembering where each character of a word
/// came from in the line, so that a secret can be cut out of the text as written.
enum SecretScanner {
    struct Word {
        /// The word with quotes and escapes removed.
        var text: String
        /// The word as written: scalar offsets in the line.
        var raw: Range<Int>
        /// For each scalar of `text`, its offset in the line.
        var origins: [Int]
    }

    enum Token {
        case word(Word)
        /// An unquoted `|` or `>`: an option's value is not looked for past it.
        case boundary
    }

    static func tokens(of line: String) -> [Token] {
        let scalars = Array(line.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.isBlank {
                index += 1
            } else if scalar == "|" || scalar == ">" {
                tokens.append(.boundary)
                index += 1
            } else {
                let (word, end) = readWord(scalars, from: index)
                tokens.append(.word(word))
                index = end
            }
        }
        return tokens
    }

    /// Reads the word starting at `start`; returns it and the offset after it.
    private static func readWord(_ scalars: [Unicode.Scalar], from start: Int) -> (Word, Int) {
        var text = String.UnicodeScalarView()
        var origins: [Int] = []
        var index = start
        func take(_ at: Int) {
            text.append(scalars[at])
            origins.append(at)
        }
        loop: while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case _ where scalar.isBlank, "|", ">":
                break loop
            case "'":
                index += 1
                while index < scalars.count, scalars[index] != "'" {
                    take(index)
                    index += 1
                }
                index += 1
            case "\"":
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count, "\"\\$`".unicodeScalars.contains(scalars[index + 1]) {
                        index += 1
                    }
                    take(index)
                    index += 1
                }
                index += 1
            case "\\":
                index += 1
                if index < scalars.count {
                    take(index)
                    index += 1
                }
            default:
                take(index)
                index += 1
            }
        }
        let end = min(index, scalars.count)
        return (Word(text: String(text), raw: start..<end, origins: origins), end)
    }
}
