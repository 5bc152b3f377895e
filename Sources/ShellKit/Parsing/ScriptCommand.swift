// ScriptCommand: one command of a batch file together with the line it starts on.

/// One command read from a batch file, stdin or `-c`, ready for ``LineParser``.
public struct ScriptCommand: Equatable, Sendable {
    /// The 1-based line where the command starts (for `FILE:LINE: error: …`).
    public var line: Int
    /// The command's text, continuation lines already joined.
    public var text: String

    /// Creates a command that starts on `line`.
    public init(line: Int, text: String) {
        self.line = line
        self.text = text
    }
}
