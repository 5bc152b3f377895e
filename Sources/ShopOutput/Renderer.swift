// Renderer: the entry point commands use to render a listing or a single record.

/// Renders rows in the format the options ask for. Commands hand rows here and never print.
public enum Renderer {
    /// Starts a listing of rows with `columns`; feed it rows, then call `finish()`.
    ///
    /// Data never reaches a terminal raw, in any format (see `RenderOptions.toTerminal`).
    /// json, ndjson, csv and tsv stream with flat memory. The table holds back the first 1000
    /// rows to size its columns, then streams with those widths (longer later cells are cut
    /// with `…` unless `wide`). `options.fields` picks and orders the columns.
    ///
    /// - Throws: `ShopError.invalidInput` for an unknown or repeated field in `options.fields`.
    public static func list(columns: [Column], options: RenderOptions, sink: OutputSink) throws -> any RowWriter {
        let projection = try FieldProjection(columns: columns, fields: options.fields)
        switch options.format {
        case .table: return TableWriter(projection: projection, options: options, sink: sink)
        case .json: return JSONWriter(style: .array, projection: projection, toTerminal: options.toTerminal, sink: sink)
        case .ndjson: return JSONWriter(style: .lines, projection: projection, toTerminal: options.toTerminal, sink: sink)
        case .csv:
            return DelimitedWriter(dialect: .csv, projection: projection, header: options.header,
                                   toTerminal: options.toTerminal, sink: sink)
        case .tsv: return DelimitedWriter(dialect: .tsv, projection: projection, header: options.header, sink: sink)
        }
    }

    /// Starts a report's listing: as `list`, and in a table the `chart` beside the rows when it
    /// fits (it never appears in other formats). Feed it every row, one per chart value.
    public static func report(columns: [Column], options: RenderOptions, chart: ReportChart?, sink: OutputSink) throws -> any RowWriter {
        guard options.format == .table, let chart else { return try list(columns: columns, options: options, sink: sink) }
        return TableWriter(projection: try FieldProjection(columns: columns, fields: options.fields), options: options,
                           sink: sink, chart: chart)
    }

    /// Renders one record (a `show`) and flushes the sink.
    ///
    /// table → aligned `key  value` lines; json → one object and a newline; ndjson → the same
    /// single line; csv/tsv → header (unless `--no-header`) and one row.
    ///
    /// - Throws: `ShopError.invalidInput` for a bad `options.fields`; `OutputError` when writing fails.
    public static func record(columns: [Column], row: [Cell], options: RenderOptions, sink: OutputSink) throws {
        let projection = try FieldProjection(columns: columns, fields: options.fields)
        switch options.format {
        case .table:
            try KeyValueWriter.write(row, projection: projection, options: options, sink: sink)
        case .json, .ndjson:
            try JSONWriter.writeRecord(row, projection: projection, toTerminal: options.toTerminal, sink: sink)
        case .csv, .tsv:
            let writer = try list(columns: columns, options: options, sink: sink)
            try writer.write(row)
            _ = try writer.finish()
        }
    }
}
