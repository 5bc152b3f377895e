// LineInput: what one prompt produced — a line, or the end of input.

/// The result of asking a ``LineReader`` for one line.
///
/// Ctrl-C on a half-typed line is not a result: the interactive reader discards the line
/// and prompts again, so only a finished line or the end of input comes back.
public enum LineInput: Equatable, Sendable {
    /// A line the operator finished with Enter (or the next line of piped input), without
    /// its line terminator.
    case line(String)
    /// Ctrl-D on an empty line, end of file, or an unreadable input.
    case endOfInput
}
