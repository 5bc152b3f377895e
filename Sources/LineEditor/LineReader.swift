// LineReader: the seam between the command loop and whatever reads its lines
// (GNU readline on a terminal, plain buffered reads otherwise, a script in tests).

/// Reads command lines one at a time and keeps their history.
///
/// The command loop holds `any LineReader`; ``ReadlineLineReader`` serves a terminal and
/// ``PlainLineReader`` serves piped or redirected input. Tests can supply their own.
public protocol LineReader: AnyObject {
    /// Shows `prompt` (if the reader shows prompts) and returns the next line.
    func readLine(prompt: String) -> LineInput

    /// Remembers `line` for recall with the arrow keys (if the reader keeps history).
    ///
    /// The command loop decides what to remember: it should not pass commands that carry
    /// secrets.
    func addHistory(_ line: String)

    /// Writes the history to its file, if the reader has one. Failures are not reported.
    func saveHistory()

    /// The remembered lines, oldest first (for the `history` built-in).
    var history: [String] { get }
}

extension LineReader {
    /// Readers without history remember nothing.
    public var history: [String] { [] }
}
