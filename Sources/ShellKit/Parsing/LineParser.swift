// LineParser: splits one command line into words the way a POSIX shell would, and finds
// its `| CMD` pipe or `> FILE` redirect.

import ShopCore

/// Splits a command line into words with shell-like quoting.
///
/// The rules, close to `sh`:
/// - Words are separated by unquoted blanks (space, tab; also CR and LF).
/// - `'…'` is literal: nothing inside is special, not even a backslash.
/// - `"…"` keeps everything except that `\"`, `\\`, `\$` and `` \` `` stand for the second
///   character; any other backslash stays as written (`"a\nb"` is `a\nb`).
/// - Outside quotes a backslash makes the next character literal (`a\ b` is one word).
/// - `''` and `""` make an empty word; quotes may sit inside a word (`--name="Ann Lee"`).
/// - An unquoted `#` at the start of a word starts a comment that runs to the end of the line
///   (`a#b` is one word).
/// - An unquoted `|` ends the command; everything after it, trimmed but otherwise raw, is
///   ``ParsedLine/pipeCommand`` for `/bin/sh` (so a `> FILE` after it belongs to that command).
/// - An unquoted `>` or `>>` followed by one word (which may be quoted) is
///   ``ParsedLine/redirect``; blanks around it are optional (`>out.csv`). Only a comment may
///   follow the file name.
/// - Quoted or escaped `|`, `>` and `#` are ordinary characters.
///
/// Every mistake throws ``ShopError/usage(_:)`` with a message fit for `error: …`.
public enum LineParser {
    /// Parses `line` into words, pipe command and redirect.
    ///
    /// A blank line or a comment gives a ``ParsedLine`` with no words.
    ///
    /// - Throws: ``ShopError/usage(_:)`` for an unterminated quote, a trailing lone backslash,
    ///   a `|` or `>` without a command or file, text after the redirect's file name, a
    ///   redirect followed by a pipe, or a file-descriptor redirect such as `2>`.
    public static func parse(_ line: String) throws(ShopError) -> ParsedLine {
        let parsed = try split(line)
        try refuseNUL(parsed)
        return parsed
    }

    /// No command takes a NUL: SQLite would cut the text at it and PostgreSQL refuses it, so a
    /// NUL anywhere but in a comment is refused here, once, the same on every store.
    private static func refuseNUL(_ parsed: ParsedLine) throws(ShopError) {
        let hasNUL = { (text: String) in text.utf8.contains(0) }
        if let index = parsed.words.firstIndex(where: hasNUL) {
            let what = index == 0 ? "the command name" : "word \(index + 1) of the line"
            throw .usage("\(what) holds a NUL byte (\\0), which no command takes")
        }
        if let path = parsed.redirect?.path, hasNUL(path) { throw .usage("the file name after > holds a NUL byte, which no file name may") }
        if let pipe = parsed.pipeCommand, hasNUL(pipe) { throw .usage("the command after | holds a NUL byte, which no command takes") }
    }

    /// The words, pipe and redirect of `line` (see `parse`).
    private static func split(_ line: String) throws(ShopError) -> ParsedLine {
        var scanner = Scanner(line)
        var words: [String] = []
        var redirect: Redirect?

        while true {
            scanner.skipBlanks()
            guard let next = scanner.peek() else { break }
            switch next {
            case "#":
                return ParsedLine(words: words, redirect: redirect)
            case "|":
                if redirect != nil {
                    throw .usage("cannot use both > FILE and | CMD on one line; "
                        + "to save a piped result write: … | CMD > FILE")
                }
                if words.isEmpty { throw .usage("missing command before |") }
                scanner.advance()
                if scanner.peek() == "|" {
                    throw .usage("|| is not supported: shopsh runs one command a line (a script stops at the first failure)")
                }
                let raw = scanner.remainder().trimmingBlanks()
                if raw.isEmpty { throw .usage("missing command after |") }
                return ParsedLine(words: words, pipeCommand: raw)
            case ">":
                if redirect != nil { throw .usage("only one > FILE is allowed on a line") }
                if words.isEmpty { throw .usage("missing command before >") }
                scanner.advance()
                let append = scanner.peek() == ">"
                if append { scanner.advance() }
                let symbol = append ? ">>" : ">"
                scanner.skipBlanks()
                switch scanner.peek() {
                case nil, "|", ">", "#":
                    throw .usage("missing file name after \(symbol)")
                case "&":
                    let target = String(scanner.remainder().prefix { !$0.isWhitespace }).escapingControls
                    throw .usage("redirecting to a file descriptor (\(symbol)\(target)) is not supported; "
                        + "errors already go to stderr; use > FILE or >> FILE, or quote the name")
                default:
                    break
                }
                let path = try scanner.readWord()
                if path.isEmpty { throw .usage("empty file name after \(symbol)") }
                redirect = Redirect(path: path, append: append)
            default:
                if let redirect {
                    let rest = scanner.remainder().trimmingBlanks()
                    let target = redirect.append ? ">>" : ">"
                    throw .usage("unexpected text after \(target) \(redirect.path.escapingControls): \(rest.escapingControls)")
                }
                words.append(try scanner.readWord())
            }
        }
        return ParsedLine(words: words, redirect: redirect)
    }
}

extension LineParser {
    /// `'it'\''s'`: `word` in single quotes, so that `parse` reads it back as exactly one word.
    /// Works on scalars: a quote followed by a combining mark is one Character, but still a quote.
    public static func quoted(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("'")
        for scalar in word.unicodeScalars {
            if scalar == "'" { out.append(contentsOf: "'\\''".unicodeScalars) } else { out.append(scalar) }
        }
        out.append("'")
        return String(out)
    }

    /// `word` unchanged when it has only letters, digits and `-_.,:/=@%+` (and does not start
    /// with `#`), else ``quoted(_:)``: what `parse` reads back as exactly that word.
    public static func quotedIfNeeded(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.,:/=@%+".unicodeScalars.contains(scalar)
        }
        return plain ? word : quoted(word)
    }
}

// MARK: - Scanner

/// A cursor over the line's Unicode scalars (not Characters: `"\r\n"` or a quote followed by
/// a combining mark would otherwise merge into one Character and hide the syntax).
private struct Scanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    func peek() -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    mutating func advance() {
        index += 1
    }

    mutating func skipBlanks() {
        while let scalar = peek(), scalar.isBlank { index += 1 }
    }

    func remainder() -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[index...])
        return String(text)
    }

    /// Reads one word up to the next unquoted blank, `|` or `>` (a `#` inside a word is
    /// literal), removing quotes and escapes.
    mutating func readWord() throws(ShopError) -> String {
        var word = String.UnicodeScalarView()
        var onlyPlainDigits = true
        loop: while let scalar = peek() {
            switch scalar {
            case _ where scalar.isBlank, "|":
                break loop
            case ">":
                if onlyPlainDigits && !word.isEmpty {
                    throw .usage("redirecting a file descriptor (\(String(word))>) is not "
                        + "supported; use > FILE or >> FILE")
                }
                break loop
            case "'":
                onlyPlainDigits = false
                advance()
                try readSingleQuoted(into: &word)
            case "\"":
                onlyPlainDigits = false
                advance()
                try readDoubleQuoted(into: &word)
            case "\\":
                onlyPlainDigits = false
                advance()
                guard let escaped = peek() else {
                    throw .usage("the line ends with a lone backslash (nothing to escape)")
                }
                word.append(escaped)
                advance()
            default:
                if !("0"..."9").contains(scalar) { onlyPlainDigits = false }
                word.append(scalar)
                advance()
            }
        }
        return String(word)
    }

    private mutating func readSingleQuoted(into word: inout String.UnicodeScalarView) throws(ShopError) {
        while let scalar = peek() {
            advance()
            if scalar == "'" { return }
            word.append(scalar)
        }
        throw .usage("unterminated single quote")
    }

    private mutating func readDoubleQuoted(into word: inout String.UnicodeScalarView) throws(ShopError) {
        while let scalar = peek() {
            advance()
            switch scalar {
            case "\"":
                return
            case "\\":
                guard let escaped = peek() else { throw .usage("unterminated double quote") }
                switch escaped {
                case "\"", "\\", "$", "`":
                    word.append(escaped)
                    advance()
                default:
                    word.append(scalar)  // sh keeps other backslashes; `escaped` comes next round
                }
            default:
                word.append(scalar)
            }
        }
        throw .usage("unterminated double quote")
    }
}

// MARK: - Helpers

extension Unicode.Scalar {
    /// Space, tab, CR or LF: the characters that separate words.
    var isBlank: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\r"
    }
}

extension String {
    /// The text with control and format characters (LF, ESC, bidi overrides…) written as
    /// `\u{…}`, so a message quoting it stays one line and cannot drive the terminal; other
    /// text, backslashes included, is unchanged.
    var escapingControls: String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                out.append(contentsOf: ("\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}").unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The string without leading and trailing blanks (space, tab, CR, LF).
    func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isBlank }),
              let last = scalars.lastIndex(where: { !$0.isBlank }) else { return "" }
        return String(scalars[first...last])
    }
}
