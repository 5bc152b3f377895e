// ParsedLine: one command line split into words, plus its optional `| CMD` or `> FILE` tail.

/// A command line after shell-like splitting by ``LineParser``.
///
/// At most one of ``pipeCommand`` and ``redirect`` is set: a redirect written after a pipe
/// belongs to the pipe command (`cmd | jq . > out.json` hands `jq . > out.json` to `/bin/sh`).
public struct ParsedLine: Equatable, Sendable {
    /// The command's words with quotes and escapes removed; empty for a blank or comment line.
    public var words: [String]
    /// Everything after the first unquoted `|`, trimmed and otherwise untouched, for `/bin/sh -c`.
    public var pipeCommand: String?
    /// The `> FILE` or `>> FILE` that ends the line, if any.
    public var redirect: Redirect?

    /// Creates a parsed line.
    public init(words: [String], pipeCommand: String? = nil, redirect: Redirect? = nil) {
        self.words = words
        self.pipeCommand = pipeCommand
        self.redirect = redirect
    }

    /// Whether the line holds no command at all (blank, or only a comment).
    public var isEmpty: Bool { words.isEmpty && pipeCommand == nil && redirect == nil }
}
