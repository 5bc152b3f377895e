// Renderer+JSONDocument: one JSON object holding a record and a nested list of rows
// (a basket with its lines, an order with its lines), built from the flat renderers.

import ShopCore

/// One JSON object that holds a record and, under one key, a list of rows, both rendered by
/// ShopOutput (whose renderers print flat rows only): `{"id":12,…,"lines":[{…},{…}]}`.
extension Renderer {
    /// Writes the object and a newline to `sink`. `options.fields` (`--fields`) picks the rows'
    /// columns; the ndjson format keeps everything on one line; `options.toTerminal` as for any listing.
    public static func jsonDocument(columns: [Column], record: [Cell], key: String, rowColumns: [Column], rows: [[Cell]],
                                    options: RenderOptions, to sink: OutputSink) throws {
        let compact = options.format == .ndjson
        let head = OutputSink.memory()
        try Renderer.record(columns: columns, row: record, options: RenderOptions(format: .json, toTerminal: options.toTerminal),
                            sink: head)
        var object = head.memoryText
        while object.last == "\n" { object.removeLast() }
        guard object.count > 2, object.last == "}" else {
            throw ShopError.storage("cannot nest \(key) in an empty record")
        }
        object.removeLast()

        let body = OutputSink.memory()
        let writer = try Renderer.list(columns: rowColumns,
                                       options: RenderOptions(format: .ndjson, fields: options.fields, toTerminal: options.toTerminal),
                                       sink: body)
        for row in rows { try writer.write(row) }
        _ = try writer.finish()
        // ndjson escapes newlines inside strings, so each line is exactly one row object.
        let items = body.memoryText.split(separator: "\n")
        let array = items.isEmpty ? "[]" : compact ? "[" + items.joined(separator: ",") + "]"
            : "[\n" + items.joined(separator: ",\n") + "\n]"
        sink.write(object + "," + JSONText.quoted(key) + ":" + array + "}\n")
        try sink.flush()
    }
}
