// ErrorLine: how a failed command's error reads on stderr in each output format.

/// The one line a failure writes to stderr: a JSON object when the command's format is json or
/// ndjson (`{"error":"…","location":"FILE:LINE"}`), else `FILE:LINE: error: …`. Data in the
/// message is escaped either way, so the line stays one line and cannot drive the terminal.
/// A `note` line (a change kept whose answer was lost) reads the same with `note` for `error`.
public enum ErrorLine {
    /// What the line reports: a failure, or something the operator should know after a success.
    public enum Kind: String, Sendable {
        case error, note
    }

    public static func text(_ message: String, location: String?, format: OutputFormat?, toTerminal: Bool,
                            kind: Kind = .error) -> String {
        switch format {
        case .json?, .ndjson?:
            var object = "{\"\(kind.rawValue)\":" + JSONText.quoted(message, toTerminal: toTerminal)
            if let location { object += ",\"location\":" + JSONText.quoted(location, toTerminal: toTerminal) }
            return object + "}\n"
        case .table?, .csv?, .tsv?, nil:
            let prefix = location.map { TerminalEscaping.escape($0) + ": " } ?? ""
            return prefix + kind.rawValue + ": " + TerminalEscaping.escape(message) + "\n"
        }
    }
}

extension Renderer {
    /// A yes/no answer people read as a word and programs as a record (`users check-password`):
    /// json and ndjson write the record; table, csv and tsv write the word on a line of its own.
    public static func answer(_ word: String, columns: [Column], record: [Cell], options: RenderOptions,
                              sink: OutputSink) throws {
        switch options.format {
        case .json, .ndjson:
            try Renderer.record(columns: columns, row: record, options: options, sink: sink)
        case .table, .csv, .tsv:
            sink.write(word + "\n")
        }
    }
}
