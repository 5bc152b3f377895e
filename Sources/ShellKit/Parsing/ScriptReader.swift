// ScriptReader: splits a whole batch file (or `-c` text) into numbered commands.

/// Splits batch text into commands using the rules of ``ScriptAccumulator``.
public enum ScriptReader {
    /// The commands in `text`, each with the 1-based line it starts on.
    ///
    /// Lines end in LF or CRLF; the last line needs no newline; a leading UTF-8 byte-order
    /// mark is ignored.
    public static func commands(in text: String) -> [ScriptCommand] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return commands(fromLines: lines.lazy.map { String(decoding: $0, as: UTF8.self) })
    }

    /// The commands in a sequence of lines (without their LF), numbered from 1.
    ///
    /// A byte-order mark at the start of the first line is ignored.
    public static func commands(fromLines lines: some Sequence<String>) -> [ScriptCommand] {
        var accumulator = ScriptAccumulator()
        var commands: [ScriptCommand] = []
        var lineNumber = 0
        for var line in lines {
            lineNumber += 1
            if lineNumber == 1, line.unicodeScalars.first == "\u{FEFF}" {
                line.unicodeScalars.removeFirst()
            }
            if let command = accumulator.feed(line, lineNumber: lineNumber) {
                commands.append(command)
            }
        }
        if let command = accumulator.finish() { commands.append(command) }
        return commands
    }
}
