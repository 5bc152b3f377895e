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
/// - Outside single quotes, `$NAME`, `${NAME}`, `${NAME:-text}`, `$1`…`$9`, `$@` and
///   `$(COMMAND)` are expansions (``ShellWord``), kept in the word they appear in; a `$`
///   followed by anything else is an ordinary character, and so is `\$`.
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
        let parsed = try split(line, operatorsArePlain: false).literalLine
        try refuseNUL(parsed)
        return parsed
    }

    /// Parses `line` into words that may hold expansions, for the shell to resolve before it runs
    /// the line. With `operatorsArePlain`, `|` and `>` are ordinary characters (the comparison of
    /// an `if`: `if $N > 10`).
    public static func template(_ line: String, operatorsArePlain: Bool = false) throws(ShopError) -> LineTemplate {
        let template = try split(line, operatorsArePlain: operatorsArePlain)
        try refuseNUL(template.literalLine)
        return template
    }

    /// Refuses a NUL in a line after its expansions were resolved (see ``parse(_:)``).
    public static func checkResolved(_ line: ParsedLine) throws(ShopError) {
        try refuseNUL(line)
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
    private static func split(_ line: String, operatorsArePlain: Bool) throws(ShopError) -> LineTemplate {
        var scanner = Scanner(line, operatorsArePlain: operatorsArePlain)
        var words: [ShellWord] = []
        var redirect: (path: ShellWord, append: Bool)?

        while true {
            scanner.skipBlanks()
            guard let next = scanner.peek() else { break }
            switch next {
            case "#":
                return LineTemplate(words: words, redirectPath: redirect?.path, redirectAppend: redirect?.append ?? false)
            case "|" where !operatorsArePlain:
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
                return LineTemplate(words: words, pipeCommand: raw)
            case ">" where !operatorsArePlain:
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
                if path.parts == [.text("")] { throw .usage("empty file name after \(symbol)") }
                redirect = (path, append)
            default:
                if let redirect {
                    let rest = scanner.remainder().trimmingBlanks()
                    let target = redirect.append ? ">>" : ">"
                    throw .usage("unexpected text after \(target) \(redirect.path.literal.escapingControls): \(rest.escapingControls)")
                }
                words.append(try scanner.readWord())
            }
        }
        return LineTemplate(words: words, redirectPath: redirect?.path, redirectAppend: redirect?.append ?? false)
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
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy(isPlain)
        return plain ? word : quoted(word)
    }

    /// Whether `scalar` needs no quotes: a letter, a digit or one of `-_.,:/=@%+`. ASCII is
    /// answered without Unicode's property tables (a 10 MB word spent a quarter of its run there).
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return scalar.properties.isAlphabetic }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ",", ":", "/", "=", "@", "%", "+": return true
        default: return false
        }
    }
}

// MARK: - Scanner

/// A cursor over the line's Unicode scalars (not Characters: `"\r\n"` or a quote followed by
/// a combining mark would otherwise merge into one Character and hide the syntax).
private struct Scanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// Whether `|` and `>` are ordinary characters (see ``LineParser/template(_:operatorsArePlain:)``).
    private let operatorsArePlain: Bool

    init(_ text: String, operatorsArePlain: Bool = false) {
        scalars = Array(text.unicodeScalars)
        self.operatorsArePlain = operatorsArePlain
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
    /// literal), removing quotes and escapes and reading its expansions.
    mutating func readWord() throws(ShopError) -> ShellWord {
        var word = WordBuilder()
        var onlyPlainDigits = true
        loop: while let scalar = peek() {
            switch scalar {
            case _ where scalar.isBlank:
                break loop
            case "|" where !operatorsArePlain:
                break loop
            case "$":
                onlyPlainDigits = false
                try readDollar(into: &word)
            case ">" where !operatorsArePlain:
                if onlyPlainDigits && !word.text.isEmpty {
                    throw .usage("redirecting a file descriptor (\(String(word.text))>) is not "
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
        return word.finish()
    }

    /// At a `$`: reads the expansion it starts, or keeps it as an ordinary character.
    private mutating func readDollar(into word: inout WordBuilder) throws(ShopError) {
        let start = index
        advance()
        guard let next = peek() else { word.append("$"); return }
        let expansion: Expansion
        switch next {
        case "{":
            advance()
            var inside = String.UnicodeScalarView()
            while let scalar = peek(), scalar != "}" {
                inside.append(scalar)
                advance()
            }
            guard peek() == "}" else { throw .usage("unterminated ${ (a } is missing)") }
            advance()
            let text = String(inside)
            let name: String
            var fallback: String?
            if let range = text.range(of: ":-") {
                name = String(text[..<range.lowerBound])
                fallback = String(text[range.upperBound...])
            } else {
                name = text
            }
            guard ShellNames.isVariableName(name) || ShellNames.isArgumentName(name) else {
                throw .usage("${\(text.escapingControls)}: not a variable name (letters, digits and _, not starting with a digit; or 1 to 9)")
            }
            expansion = .variable(name: name, fallback: fallback)
        case "(":
            advance()
            expansion = .command(try readCommandSubstitution())
        case "@":
            advance()
            expansion = .allArguments
        case "1"..."9":
            advance()
            expansion = .variable(name: String(next), fallback: nil)
        case _ where ShellNames.startsName(next):
            var name = String.UnicodeScalarView()
            while let scalar = peek(), ShellNames.continuesName(scalar) {
                name.append(scalar)
                advance()
            }
            expansion = .variable(name: String(name), fallback: nil)
        default:
            word.append("$")
            return
        }
        var source = String.UnicodeScalarView()
        source.append(contentsOf: scalars[start..<index])
        word.append(expansion, source: String(source))
    }

    /// After `$(`: the command up to its matching `)`, quotes and nested parentheses respected.
    private mutating func readCommandSubstitution() throws(ShopError) -> String {
        var text = String.UnicodeScalarView()
        var depth = 0
        var quote: Unicode.Scalar?
        while let scalar = peek() {
            advance()
            if let open = quote {
                if scalar == open { quote = nil }
                if scalar == "\\" && open == "\"", let escaped = peek() { text.append(scalar); text.append(escaped); advance(); continue }
                text.append(scalar)
                continue
            }
            switch scalar {
            case "'", "\"":
                quote = scalar
            case "\\":
                text.append(scalar)
                if let escaped = peek() { text.append(escaped); advance() }
                continue
            case "(":
                depth += 1
            case ")":
                if depth == 0 { return String(text).trimmingBlanks() }
                depth -= 1
            default:
                break
            }
            text.append(scalar)
        }
        throw .usage("unterminated $( (a ) is missing)")
    }

    private mutating func readSingleQuoted(into word: inout WordBuilder) throws(ShopError) {
        while let scalar = peek() {
            advance()
            if scalar == "'" { return }
            word.append(scalar)
        }
        throw .usage("unterminated single quote")
    }

    private mutating func readDoubleQuoted(into word: inout WordBuilder) throws(ShopError) {
        while let scalar = peek() {
            if scalar == "$" {
                try readDollar(into: &word)
                continue
            }
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

/// Collects a word's literal text and expansions as the scanner reads them.
private struct WordBuilder {
    /// The literal text read since the last expansion.
    var text = String.UnicodeScalarView()
    private var parts: [ShellWord.Part] = []

    mutating func append(_ scalar: Unicode.Scalar) {
        text.append(scalar)
    }

    mutating func append(_ expansion: Expansion, source: String) {
        if !text.isEmpty { parts.append(.text(String(text))) }
        text = String.UnicodeScalarView()
        parts.append(.expansion(expansion, source: source))
    }

    func finish() -> ShellWord {
        guard !parts.isEmpty else { return ShellWord(String(text)) }
        return ShellWord(parts: text.isEmpty ? parts : parts + [.text(String(text))])
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
