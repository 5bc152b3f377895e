// ShellWord: one word of a command line before expansion — literal text and the `$NAME`,
// `${NAME:-default}`, `$1`…`$9`, `$@` and `$(COMMAND)` it holds — and LineTemplate, a whole line
// of them. The shell resolves them just before the line runs (variables change as a run goes).

/// A `$…` expansion, as ``LineParser`` read it.
public enum Expansion: Equatable, Sendable {
    /// `$NAME`, `${NAME}`, `$1`…`$9` (the name is then the digit), with `${…:-fallback}`'s text
    /// used when it is not set.
    case variable(name: String, fallback: String?)
    /// `$@`: every argument of the alias being run, each one word.
    case allArguments
    /// `$(COMMAND)`: the command's output, its trailing newlines removed.
    case command(String)

    /// The positional argument (1…9) this expansion reads, if it is one.
    public var argumentNumber: Int? {
        guard case .variable(let name, _) = self, name.count == 1, let digit = Int(name), digit >= 1 else { return nil }
        return digit
    }
}

/// One word: literal text and expansions, in order. No word splitting ever happens: what an
/// expansion gives stays inside its word, whatever blanks or quotes it holds.
public struct ShellWord: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case text(String)
        /// An expansion and its text as written (for the literal form of the word).
        case expansion(Expansion, source: String)
    }

    public var parts: [Part]

    public init(parts: [Part]) {
        self.parts = parts
    }

    /// A word of literal text only.
    public init(_ text: String) {
        parts = [.text(text)]
    }

    /// Whether any part is an expansion.
    public var hasExpansions: Bool {
        parts.contains { if case .expansion = $0 { true } else { false } }
    }

    /// The word with each expansion as written (`users show $1` stays so): for completion and
    /// for lines that are shown, not run.
    public var literal: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .expansion(_, let source): source
            }
        }.joined()
    }

    /// The expansions the word holds.
    public var expansions: [Expansion] {
        parts.compactMap { if case .expansion(let expansion, _) = $0 { expansion } else { nil } }
    }
}

/// A command line before expansion (see ``ParsedLine`` for one after it).
public struct LineTemplate: Equatable, Sendable {
    public var words: [ShellWord]
    /// Everything after the first unquoted `|`, raw, for `/bin/sh` (its `$` are that shell's).
    public var pipeCommand: String?
    /// The `> FILE` or `>> FILE` that ends the line: the file name may hold expansions.
    public var redirectPath: ShellWord?
    public var redirectAppend = false

    public init(words: [ShellWord], pipeCommand: String? = nil, redirectPath: ShellWord? = nil, redirectAppend: Bool = false) {
        self.words = words
        self.pipeCommand = pipeCommand
        self.redirectPath = redirectPath
        self.redirectAppend = redirectAppend
    }

    /// Whether any word (or the redirect's file name) holds an expansion.
    public var hasExpansions: Bool {
        words.contains(where: \.hasExpansions) || redirectPath?.hasExpansions == true
    }

    /// Every expansion of the line, in order.
    public var expansions: [Expansion] {
        words.flatMap(\.expansions) + (redirectPath?.expansions ?? [])
    }

    /// The line with each expansion as written.
    public var literalLine: ParsedLine {
        ParsedLine(words: words.map(\.literal), pipeCommand: pipeCommand,
                   redirect: redirectPath.map { Redirect(path: $0.literal, append: redirectAppend) })
    }
}
