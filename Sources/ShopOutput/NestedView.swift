// NestedView: a record with rows nested under one key (a basket with its lines, an order with its
// lines), and how each format lays it out. Commands build the value; only this file decides.

import ShopCore

/// A record and, under `key`, its rows: one value that every format can show.
///
/// - json: one object, the record's fields then `"key": [rows…]` (one row per line);
///   ndjson: the same object on one line.
/// - table: the record as key/value lines and a blank line (when `tableShowsRecord`), then the rows as a table.
/// - csv, tsv: the rows only, flat: `flatRows` when set (each row with the record's id, say),
///   else the rows themselves.
///
/// `--fields` picks the rows' fields in every format; the record is always shown whole.
public struct NestedView {
    public var record: (columns: [Column], cells: [Cell])
    public var key: String
    public var rows: (columns: [Column], cells: [[Cell]])
    public var tableShowsRecord = true
    public var flatRows: (columns: [Column], cells: [[Cell]])?
    /// More rows under keys of their own after `key` (an order's refunds after its lines): in json
    /// and ndjson each is an array beside `key`'s, in a table a titled table of its own after the
    /// rows (left out when it has none); csv and tsv carry `rows` alone. `--fields` picks only `key`'s.
    /// `tableFields`: the fields a table shows of them (all when nil).
    public var sections: [(key: String, columns: [Column], cells: [[Cell]], tableFields: [String]?)] = []

    public init(record: (columns: [Column], cells: [Cell]), key: String, rows: (columns: [Column], cells: [[Cell]])) {
        self.record = record
        self.key = key
        self.rows = rows
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
                try record(columns: view.record.columns, row: view.record.cells, options: head, sink: sink)
                sink.write("\n")
            }
            let count = try writeRows(view.rows, options: options, sink: sink)
            for section in view.sections where !section.cells.isEmpty {
                var plain = RenderOptions(format: .table, header: options.header, wide: options.wide, color: options.color,
                                          terminalWidth: options.terminalWidth, toTerminal: options.toTerminal)
                plain.fields = section.tableFields
                sink.write("\n\(section.key):\n")
                _ = try writeRows((section.columns, section.cells), options: plain, sink: sink)
            }
            return .flat(rows: count, withRecord: view.tableShowsRecord)
        case .csv, .tsv:
            return .flat(rows: try writeRows(view.flatRows ?? view.rows, options: options, sink: sink), withRecord: false)
        }
    }

    private static func writeRows(_ rows: (columns: [Column], cells: [[Cell]]), options: RenderOptions,
                                  sink: OutputSink) throws -> Int {
        let writer = try list(columns: rows.columns, options: options, sink: sink)
        for row in rows.cells { try writer.write(row) }
        return try writer.finish()
    }

    /// `{"id":12,…,"lines":[{…},{…}]}`: the record's object with the rows' array spliced in
    /// before its closing brace, both written by the JSON writer.
    private static func writeDocument(_ view: NestedView, options: RenderOptions, sink: OutputSink) throws {
        let head = OutputSink.memory()
        try record(columns: view.record.columns, row: view.record.cells,
                   options: RenderOptions(format: .json, toTerminal: options.toTerminal), sink: head)
        var object = head.memoryText
        while object.last == "\n" { object.removeLast() }
        guard object.count > 2, object.last == "}" else {
            throw ShopError.storage("cannot nest \(view.key) in an empty record")
        }
        object.removeLast()

        var arrays = [(view.key, try jsonArray(view.rows, fields: options.fields, options: options))]
        for section in view.sections {
            arrays.append((section.key, try jsonArray((section.columns, section.cells), fields: nil, options: options)))
        }
        sink.write(object + arrays.map { "," + JSONText.quoted($0.0) + ":" + $0.1 }.joined() + "}\n")
        try sink.flush()
    }

    /// `[{…},{…}]`: rows as a JSON array (on one line for ndjson).
    private static func jsonArray(_ rows: (columns: [Column], cells: [[Cell]]), fields: [String]?,
                                  options: RenderOptions) throws -> String {
        let body = OutputSink.memory()
        _ = try writeRows(rows, options: RenderOptions(format: .ndjson, fields: fields, toTerminal: options.toTerminal), sink: body)
        // ndjson escapes newlines inside strings, so each line is exactly one row object.
        let items = body.memoryText.split(separator: "\n")
        return items.isEmpty ? "[]" : options.format == .ndjson ? "[" + items.joined(separator: ",") + "]"
            : "[\n" + items.joined(separator: ",\n") + "\n]"
    }
}
