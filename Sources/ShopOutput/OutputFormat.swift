// OutputFormat: the formats a listing or record can be rendered in.

/// How rows are rendered: for people (`table`) or for programs (the others).
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, ndjson, csv, tsv

    /// The format used when none is asked for: `table` on a terminal, `tsv` otherwise.
    public static func defaultFormat(outputIsTerminal: Bool) -> OutputFormat {
        outputIsTerminal ? .table : .tsv
    }
}
