// ScriptAccumulator: the batch-file line rules (comments, blank lines, `\` continuation),
// applied one line at a time so a stdin batch can run each command as soon as it is complete.

/// Turns physical lines into commands, one line at a time.
///
/// Rules:
/// - A trailing CR is removed, so CRLF files work.
/// - Outside a continuation, blank lines and lines whose first non-blank character is `#`
///   are skipped.
/// - A line that ends in a backslash which is neither quoted nor escaped (nor inside a
///   comment) continues on the next line: the backslash is dropped and the next line, without
///   its leading blanks, is joined with a single space (a blank already before the backslash
///   counts as that space).
/// - A continuation line is taken as it is, even if it is blank or a comment: `a \` followed
///   by `# note` gives `a # note`, which ``LineParser`` reads as `a` plus a comment; a blank
///   continuation line simply ends the command.
/// - A quote cannot span lines: each line's quotes must close on that line (or on a line
///   joined to it by `\`).
/// - Leading blanks of a command are dropped; the command's line number is that of its first line.
///
/// ```swift
/// var accumulator = ScriptAccumulator()
/// for (index, line) in lines.enumerated() {
///     if let command = accumulator.feed(line, lineNumber: index + 1) { run(command) }
/// }
/// if let command = accumulator.finish() { run(command) }
/// ```
public struct ScriptAccumulator: Sendable {
    private var pending: String?
    private var startLine = 0

    /// Creates an accumulator with no pending command.
    public init() {}

    /// Whether a continued command is waiting for its next line.
    public var isContinuing: Bool { pending != nil }

    /// Feeds one physical line (without its LF); returns a command when one is complete.
    public mutating func feed(_ line: String, lineNumber: Int) -> ScriptCommand? {
        var text = line
        if text.unicodeScalars.last == "\r" { text.unicodeScalars.removeLast() }

        let body: String
        let continues: Bool
        if let pending {
            let part = text.droppingLeadingBlanks()
            (body, continues) = Self.splitContinuation(part)
            let separator = pending.unicodeScalars.last?.isBlank == true || body.isEmpty ? "" : " "
            self.pending = pending + separator + body
        } else {
            let part = text.droppingLeadingBlanks()
            if part.isEmpty || part.unicodeScalars.first == "#" { return nil }
            startLine = lineNumber
            (body, continues) = Self.splitContinuation(part)
            self.pending = body
        }
        return continues ? nil : takePending()
    }

    /// Ends the input: returns a command left open by a backslash on the last line, if any (as
    /// `sh` runs it). A continuation with nothing before it keeps its backslash, so running it
    /// reports the lone backslash instead of silently doing nothing.
    public mutating func finish() -> ScriptCommand? {
        if let text = pending, text.trimmingBlanks().isEmpty { pending = text + "\\" }
        return takePending()
    }

    private mutating func takePending() -> ScriptCommand? {
        guard let text = pending else { return nil }
        pending = nil
        return ScriptCommand(line: startLine, text: text)
    }

    /// Splits off a continuation backslash: returns the line without it and whether it was there.
    ///
    /// Scans with the same quoting rules as ``LineParser``: a backslash inside quotes, one
    /// escaped by another backslash, or one inside a comment does not continue the line.
    static func splitContinuation(_ line: String) -> (body: String, continues: Bool) {
        enum Quote { case none, single, double }
        var quote = Quote.none
        var atWordStart = true
        var scalars = line.unicodeScalars.makeIterator()
        var count = 0
        var endsWithContinuation = false

        while let scalar = scalars.next() {
            count += 1
            switch quote {
            case .single:
                if scalar == "'" { quote = .none }
            case .double:
                if scalar == "\\" {
                    if scalars.next() != nil { count += 1 }
                } else if scalar == "\"" {
                    quote = .none
                }
            case .none:
                switch scalar {
                case "\\":
                    if scalars.next() != nil {
                        count += 1
                    } else {
                        endsWithContinuation = true
                    }
                    atWordStart = false
                case "'":
                    quote = .single
                    atWordStart = false
                case "\"":
                    quote = .double
                    atWordStart = false
                case "#" where atWordStart:
                    return (line, false)
                case "|", ">":
                    atWordStart = true
                default:
                    atWordStart = scalar.isBlank
                }
            }
        }
        guard endsWithContinuation else { return (line, false) }
        var body = line
        body.unicodeScalars.removeLast()
        return (body, true)
    }
}

extension String {
    /// The string without its leading blanks (space, tab, CR, LF).
    func droppingLeadingBlanks() -> String {
        guard let first = unicodeScalars.firstIndex(where: { !$0.isBlank }) else { return "" }
        return String(unicodeScalars[first...])
    }
}
