// KeyValueWriter: one record (`show`) as aligned `key  value` lines, for the table format.

/// Renders a single record as one line per column: the key padded to the widest key, two
/// spaces, then the value with control characters escaped. Unless `wide`, values are cut with
/// `…` to fit `terminalWidth` (never narrower than `TableLayout.labelFloor`).
enum KeyValueWriter {
    static func write(_ row: [Cell], projection: FieldProjection, options: RenderOptions, sink: OutputSink) throws {
        projection.checkShape(row)
        let keys = projection.columns.map { TerminalEscaping.escape($0.key) }
        let keyWidth = keys.map(DisplayWidth.of).max() ?? 0
        let valueWidth = options.terminalWidth.map {
            max($0 - keyWidth - TableLayout.gap, TableLayout.labelFloor)
        }
        for (position, key) in keys.enumerated() {
            var value = TableWriter.displayText(projection.cell(position, of: row))
            if let valueWidth, !options.wide {
                value = DisplayWidth.truncate(value, to: valueWidth)
            }
            let padding = keyWidth - DisplayWidth.of(key) + TableLayout.gap
            try sink.appendRow { out in
                out.append(text: options.color ? ANSI.bold + key + ANSI.reset : key)
                out.append(spaces: padding)
                out.append(text: value)
                out.removeTrailingSpaces()
                out.append(0x0A)
            }
        }
        try sink.flush()
    }
}
