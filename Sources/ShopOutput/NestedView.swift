// NestedView: a record with rows nested under one key (a basket with its lines, an order with its
// lines), and how each format lays it out. Commands build the value; only this file decides.

import ShopCore

/// A record and, under `key`, its rows: one value that every format can show.
///
/// - json: one object, the record's fields then `"key": [rows…]` (one row per line);
///   ndjson: the same object on one line.
/// - table: the record as key/value lines and a blank line (when `tableShowsRecord`), then the rows as a table.
/// - csv, tsv: the rows only, flat: `flatColumns`/`flatRows` when given (each row with the record's
///   id, say), else the rows themselves.
///
/// `--fields` picks the rows' fields in every format; the record is always shown whole.
public struct NestedView {
    public var columns: [Column]
    public var record: [Cell]
    public var key: String
    public var rowColumns: [Column]
    public var rows: [[Cell]]
    public var tableShowsRecord: Bool
    public var flatColumns: [Column]?
    public var flatRows: [[Cell]]?

    public init(columns: [Column], record: [Cell], key: String, rowColumns: [Column], rows: [[Cell]],
                tableShowsRecord: Bool = true, flatColumns: [Column]? = nil, flatRows: [[Cell]]? = nil) {
        self.columns = columns
        self.record = record
        self.key = key
        self.rowColumns = rowColumns
        self.rows = rows
        self.tableShowsRecord = tableShowsRecord
        self.flatColumns = flatColumns
        self.flatRows = flatRows
    }
}

/// How a nested view came out: nested in one document, or as flat rows, with or without the
/// record before them (without it, the caller may say on stderr what the rows leave out, such
/// as the totals).
public enum NestedLayout: Equatable, Sendable {
    case nested
    case flat(rows: Int, withRecord: Bool)
}

extension Renderer {
    /// Writes `view` in `options.format`. `options` (with its `TableView` fields, for a table)
    /// applies to the rows; the record in a table is shown with every field.
    @discardableResult
    public static func nested(_ view: NestedView, options: RenderOptions, sink: OutputSink) throws -> NestedLayout {
        switch options.format {
        case .json, .ndjson:
            try writeDocument(view, options: options, sink: sink)
            return .nested
        case .table:
            if view.tableShowsRecord {
                var head = RenderOptions(format: .table, header: options.header, wide: options.wide, color: options.color,
                                         terminalWidth: options.terminalWidth, toTerminal: options.toTerminal)
                head.fields = nil
                try record(columns: view.columns, row: view.record, options: head, sink: sink)
                sink.write("\n")
            }
            return .flat(rows: try writeRows(view.rowColumns, view.rows, options: options, sink: sink),
                         withRecord: view.tableShowsRecord)
        case .csv, .tsv:
            return .flat(rows: try writeRows(view.flatColumns ?? view.rowColumns, view.flatRows ?? view.rows,
                                             options: options, sink: sink), withRecord: false)
        }
    }

    private static func writeRows(_ columns: [Column], _ rows: [[Cell]], options: RenderOptions, sink: OutputSink) throws -> Int {
        let writer = try list(columns: columns, options: options, sink: sink)
        for row in rows { try writer.write(row) }
        return try writer.finish()
    }

    /// `{"id":12,…,"lines":[{…},{…}]}`: the record's object with the rows' array spliced in
    /// before its closing brace, both written by the JSON writer.
    private static func writeDocument(_ view: NestedView, options: RenderOptions, sink: OutputSink) throws {
        let head = OutputSink.memory()
        try record(columns: view.columns, row: view.record, options: RenderOptions(format: .json, toTerminal: options.toTerminal),
                   sink: head)
        var object = head.memoryText
        while object.last == "\n" { object.removeLast() }
        guard object.count > 2, object.last == "}" else {
            throw ShopError.storage("cannot nest \(view.key) in an empty record")
        }
        object.removeLast()

        let body = OutputSink.memory()
        _ = try writeRows(view.rowColumns, view.rows,
                          options: RenderOptions(format: .ndjson, fields: options.fields, toTerminal: options.toTerminal), sink: body)
        // ndjson escapes newlines inside strings, so each line is exactly one row object.
        let items = body.memoryText.split(separator: "\n")
        let array = items.isEmpty ? "[]" : options.format == .ndjson ? "[" + items.joined(separator: ",") + "]"
            : "[\n" + items.joined(separator: ",\n") + "\n]"
        sink.write(object + "," + JSONText.quoted(view.key) + ":" + array + "}\n")
        try sink.flush()
    }
}
