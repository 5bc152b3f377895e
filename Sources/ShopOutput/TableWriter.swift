// TableWriter: the human table — aligned columns sized by display width, cut to the terminal.

/// Streams rows as an aligned table: a header row, a rule line, then one line per row.
///
/// The first `sampleSize` rows are held back to size the columns; after that rows stream with
/// those widths, and longer cells are cut with `…` (unless `wide`). Columns are separated by two
/// spaces, numeric columns are right-aligned, control characters are escaped, lines carry no
/// trailing spaces. An empty listing writes nothing.
final class TableWriter: RowWriter {
    /// Rows held back to size the columns.
    static let sampleSize = 1000

    private let projection: FieldProjection
    private let options: RenderOptions
    private let sink: OutputSink
    private var pending: [[String]] = []
    private var sawNumber: [Bool]
    private var sawOther: [Bool]
    private var layout: TableLayout?
    private var count = 0

    init(projection: FieldProjection, options: RenderOptions, sink: OutputSink) {
        self.projection = projection
        self.options = options
        self.sink = sink
        self.sawNumber = Array(repeating: false, count: projection.columns.count)
        self.sawOther = sawNumber
    }

    func write(_ row: [Cell]) throws {
        projection.checkShape(row)
        let cells = projection.project(row)
        let texts = cells.map(Self.displayText)
        count += 1
        if let layout {
            try appendLine(texts, layout: layout)
            return
        }
        for (column, cell) in cells.enumerated() {
            if cell.isNumeric { sawNumber[column] = true } else if cell != .null { sawOther[column] = true }
        }
        pending.append(texts)
        if pending.count >= Self.sampleSize { try startStreaming() }
    }

    func finish() throws -> Int {
        if layout == nil && !pending.isEmpty { try startStreaming() }
        try sink.flush()
        return count
    }

    /// Sizes the columns from the held-back rows, then writes the header, the rule and those rows.
    private func startStreaming() throws {
        let headers = projection.columns.map { TerminalEscaping.escape($0.key) }
        let headerWidths = options.header ? headers.map(DisplayWidth.of) : headers.map { _ in 0 }
        var cellWidths = headers.map { _ in 0 }
        for texts in pending {
            for (column, text) in texts.enumerated() {
                cellWidths[column] = max(cellWidths[column], DisplayWidth.of(text))
            }
        }
        let numeric = zip(sawNumber, sawOther).map { $0 && !$1 }
        let layout = TableLayout(headerWidths: headerWidths, cellWidths: cellWidths, numeric: numeric,
                                 terminalWidth: options.terminalWidth, wide: options.wide)
        self.layout = layout
        if options.header {
            try appendLine(headers, layout: layout, bold: options.color)
            let gap = String(repeating: " ", count: TableLayout.gap)
            sink.write(layout.widths.map { String(repeating: "─", count: $0) }.joined(separator: gap) + "\n")
        }
        for texts in pending {
            try appendLine(texts, layout: layout)
        }
        pending = []
    }

    /// Appends one line: cells padded (or cut) to their column's width, two spaces apart,
    /// without trailing spaces; `bold` wraps it in the bold escape sequence.
    private func appendLine(_ texts: [String], layout: TableLayout, bold: Bool = false) throws {
        try sink.appendRow { out in
            if bold { out.append(text: ANSI.bold) }
            for (column, text) in texts.enumerated() {
                if column > 0 { out.append(spaces: TableLayout.gap) }
                var text = text
                var width = DisplayWidth.of(text)
                if width > layout.widths[column] && !options.wide {
                    text = DisplayWidth.truncate(text, to: layout.widths[column])
                    width = DisplayWidth.of(text)
                }
                let padding = layout.widths[column] - width
                if layout.rightAligned[column] { out.append(spaces: padding) }
                out.append(text: text)
                if !layout.rightAligned[column] { out.append(spaces: padding) }
            }
            out.removeTrailingSpaces()
            if bold { out.append(text: ANSI.reset) }
            out.append(0x0A)
        }
    }

    /// What a cell shows in a table: its plain text with control characters escaped.
    static func displayText(_ cell: Cell) -> String {
        TerminalEscaping.escape(cell.plainText)
    }
}
