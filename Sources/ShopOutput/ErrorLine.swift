// ErrorLine: how a failed command's error reads on stderr in each output format.

/// The one line a failure writes to stderr: a JSON object when the command's format is json or
/// ndjson (`{"error":"…","location":"FILE:LINE"}`), else `FILE:LINE: error: …`. Data in the
/// message is escaped either way, so the line stays one line and cannot drive the terminal.
public enum ErrorLine {
    public static func text(_ message: String, location: String?, format: OutputFormat?, toTerminal: Bool) -> String {
        switch format {
        case .json?, .ndjson?:
            var object = "{\"error\":" + JSONText.quoted(message, toTerminal: toTerminal)
            if let location { object += ",\"location\":" + JSONText.quoted(location, toTerminal: toTerminal) }
            return object + "}\n"
        case .table?, .csv?, .tsv?, nil:
            let prefix = location.map { TerminalEscaping.escape($0) + ": " } ?? ""
            return prefix + "error: " + TerminalEscaping.escape(message) + "\n"
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
