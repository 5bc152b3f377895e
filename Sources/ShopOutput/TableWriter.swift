// TableWriter: the human table — aligned columns sized by display width, fitted to the terminal,
// or one record per row when even the narrowest table would not fit (psql's `\x auto`).

/// Streams rows as an aligned table: a header row, a rule line, then one line per row.
///
/// The first `sampleSize` rows are held back to size the columns; after that rows stream with
/// those widths, and longer cells are cut with `…` (unless `wide`). Columns are separated by two
/// spaces, numeric columns are right-aligned, headers are the columns' short names
/// (`ColumnStyle`), timestamps show as dates, control characters are escaped, lines carry no
/// trailing spaces. When the columns cannot fit the terminal even cut down, every row is shown
/// as `field  value` lines under a `-[ RECORD n ]` line. An empty listing writes nothing.
final class TableWriter: RowWriter {
    /// Rows held back to size the columns.
    static let sampleSize = 1000

    private let projection: FieldProjection
    private let options: RenderOptions
    private let sink: OutputSink
    private let styles: [ColumnStyle]
    private var pending: [[String]] = []
    private var sawNumber: [Bool]
    private var sawOther: [Bool]
    private var layout: Layout?
    private var count = 0
    /// Bars beside the rows, when the report asked for them and they fit (see `ReportChart`).
    private let chart: ReportChart?
    /// The width of the bars once the table is sized; nil when the chart was dropped.
    private var barWidth: Int?

    /// How rows are written once the columns are sized.
    private enum Layout {
        case table(TableLayout)
        case records(keyWidth: Int, valueWidth: Int?)
    }

    init(projection: FieldProjection, options: RenderOptions, sink: OutputSink, chart: ReportChart? = nil) {
        self.projection = projection
        self.options = options
        self.sink = sink
        self.chart = chart
        self.styles = projection.columns.map { column in
            var style = ColumnStyle.of(column.key)
            if let header = options.headers[column.key] { style.header = header }
            return style
        }
        self.sawNumber = Array(repeating: false, count: projection.columns.count)
        self.sawOther = sawNumber
    }

    func write(_ row: [Cell]) throws {
        projection.checkShape(row)
        let cells = projection.project(row)
        let texts = cells.enumerated().map { Self.displayText($1, style: styles[$0]) }
        count += 1
        if let layout {
            try append(texts, layout: layout, number: count)
            return
        }
        for (column, cell) in cells.enumerated() {
            if cell.isNumeric { sawNumber[column] = true } else if cell != .null { sawOther[column] = true }
        }
        pending.append(texts)
        // A chart is scaled to its largest value: its rows are all held (a report's groups).
        if pending.count >= Self.sampleSize && chart == nil { try startStreaming() }
    }

    func finish() throws -> Int {
        if layout == nil && !pending.isEmpty { try startStreaming() }
        // The table and its bars fill the chart's width: the sparkline keeps to it too.
        if let chart, barWidth != nil, let line = chart.sparklineLine {
            sink.write((options.color ? ANSI.dim + line + ANSI.reset : line) + "\n")
        }
        try sink.flush()
        return count
    }

    // MARK: - Sizing

    /// Sizes the columns from the held-back rows, then writes the header, the rule and those rows.
    private func startStreaming() throws {
        let headers = styles.map { TerminalEscaping.escape($0.header) }
        let headerWidths = options.header ? headers.map(DisplayWidth.of) : headers.map { _ in 0 }
        var cellWidths = headers.map { _ in 0 }
        for texts in pending {
            for (column, text) in texts.enumerated() {
                cellWidths[column] = max(cellWidths[column], DisplayWidth.of(text))
            }
        }
        let numeric = zip(sawNumber, sawOther).map { $0 && !$1 }
        let optional = projection.columns.map { options.optionalFields.contains($0.key) }
        let fit = { (width: Int?) in
            TableLayout.fit(headerWidths: headerWidths, cellWidths: cellWidths, numeric: numeric, fits: self.styles.map(\.fit),
                            optional: optional, terminalWidth: width, wide: self.options.wide)
        }
        // With a chart the table first fits beside its narrowest bars (optional columns give way);
        // when it cannot, the chart goes and the table fits as any other.
        var fitted: TableLayout?
        if let chart, chart.width >= ReportChart.minimumWidth, chart.values.count == pending.count {
            for bar in [ReportChart.preferredBar, ReportChart.minimumBar] where fitted == nil {
                if let table = fit(min(options.terminalWidth ?? .max, chart.width - TableLayout.gap - bar)),
                   chart.width - table.totalWidth - TableLayout.gap >= ReportChart.minimumBar {
                    fitted = table
                    barWidth = chart.width - table.totalWidth - TableLayout.gap
                }
            }
        }
        if let table = fitted ?? fit(options.terminalWidth) {
            layout = .table(table)
            if options.header { try writeHeader(headers, table) }
        } else {
            let keyWidth = headers.map(DisplayWidth.of).max() ?? 0
            layout = .records(keyWidth: keyWidth, valueWidth: options.terminalWidth.map {
                max($0 - keyWidth - TableLayout.gap, TableLayout.hardMinimum)
            })
        }
        for (index, texts) in pending.enumerated() {
            try append(texts, layout: layout ?? .records(keyWidth: 0, valueWidth: nil), number: index + 1)
        }
        pending = []
    }

    private func writeHeader(_ headers: [String], _ table: TableLayout) throws {
        try appendLine(headers, layout: table, bold: options.color, dim: [],
                       after: barWidth.map { DisplayWidth.truncate(TerminalEscaping.escape(chart?.caption ?? ""), to: $0) })
        var rules = table.widths.indices.filter { table.visible[$0] }.map { String(repeating: "─", count: table.widths[$0]) }
        if let barWidth { rules.append(String(repeating: "─", count: barWidth)) }
        sink.write(rules.joined(separator: String(repeating: " ", count: TableLayout.gap)) + "\n")
    }

    // MARK: - Writing

    private func append(_ texts: [String], layout: Layout, number: Int) throws {
        switch layout {
        case .table(let table):
            var bar: String?
            if let chart, let barWidth, number >= 1, number <= chart.values.count {
                bar = BarChart.bar(chart.values[number - 1], maximum: chart.maximum, width: barWidth)
                if options.color, let shown = bar, !shown.isEmpty { bar = ANSI.cyan + shown + ANSI.reset }
            }
            try appendLine(texts, layout: table, bold: false, dim: options.color ? styles.map(\.isUnit) : [], after: bar)
        case .records(let keyWidth, let valueWidth):
            try appendRecord(texts, number: number, keyWidth: keyWidth, valueWidth: valueWidth)
        }
    }

    /// Appends one line: visible cells padded (or cut) to their column's width, two spaces apart,
    /// without trailing spaces; `bold` wraps the line in the bold sequence, `dim` marks columns to dim.
    private func appendLine(_ texts: [String], layout: TableLayout, bold: Bool, dim: [Bool], after: String? = nil) throws {
        try sink.appendRow { out in
            if bold { out.append(text: ANSI.bold) }
            var first = true
            for (column, text) in texts.enumerated() where layout.visible[column] {
                if !first { out.append(spaces: TableLayout.gap) }
                first = false
                var text = text
                var width = DisplayWidth.of(text)
                if width > layout.widths[column] && !options.wide {
                    text = DisplayWidth.truncate(text, to: layout.widths[column])
                    width = DisplayWidth.of(text)
                }
                let padding = layout.widths[column] - width
                if layout.rightAligned[column] { out.append(spaces: padding) }
                let dimmed = column < dim.count && dim[column] && !text.isEmpty
                out.append(text: dimmed ? ANSI.dim + text + ANSI.reset : text)
                if !layout.rightAligned[column] { out.append(spaces: padding) }
            }
            if let after, !after.isEmpty {
                // The chart's column starts where the table ends, whatever this row's last cell.
                out.append(spaces: TableLayout.gap)
                out.append(text: after)
            }
            out.removeTrailingSpaces()
            if bold { out.append(text: ANSI.reset) }
            out.append(0x0A)
        }
    }

    /// Appends one row as a record: `-[ RECORD n ]`, then one `field  value` line per column.
    private func appendRecord(_ texts: [String], number: Int, keyWidth: Int, valueWidth: Int?) throws {
        let heading = "-[ RECORD \(number) ]"
        sink.write((options.color ? ANSI.bold + heading + ANSI.reset : heading) + "\n")
        for (column, text) in texts.enumerated() {
            let key = TerminalEscaping.escape(styles[column].header)
            let value = valueWidth.map { options.wide ? text : DisplayWidth.truncate(text, to: $0) } ?? text
            try sink.appendRow { out in
                out.append(text: key)
                out.append(spaces: keyWidth - DisplayWidth.of(key) + TableLayout.gap)
                out.append(text: value)
                out.removeTrailingSpaces()
                out.append(0x0A)
            }
        }
    }

    /// What a cell shows in a table: its plain text with control characters escaped; a
    /// timestamp as its date, or its date and minute (`2026-11-26 21:54`, UTC as stored).
    static func displayText(_ cell: Cell, style: ColumnStyle? = nil) -> String {
        let text = TerminalEscaping.escape(cell.plainText)
        if let style, style.isTimestamp, text.utf8.count > 10, text.utf8.dropFirst(10).first == UInt8(ascii: "T") {
            guard style.showsMinutes, text.utf8.count >= 16 else { return String(text.prefix(10)) }
            return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
        }
        return text
    }
}
