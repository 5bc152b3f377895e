// TableLayout: which columns a table shows and how wide, fitted to the terminal: optional columns
// drop out first, then free text is cut, then labels; ids, SKUs, quantities and money never are.

/// The widths (in terminal columns), visibility and alignment of a table's columns.
struct TableLayout: Equatable {
    /// Display width of each column (meaningless for hidden ones).
    var widths: [Int]
    /// Whether each column is numeric, hence right-aligned.
    var rightAligned: [Bool]
    /// Whether each column is shown (optional columns that do not fit are not).
    var visible: [Bool]

    /// Columns are separated by this many spaces.
    static let gap = 2
    /// Free text is first cut down to this (or its header, if wider).
    static let textFloor = 12
    /// Labels are then cut down to this (or their header, if wider).
    static let labelFloor = 8
    /// The last resort before records: text and labels as narrow as `abcd…`, headers cut too.
    static let hardMinimum = 5

    /// The total width of a line.
    var totalWidth: Int {
        let shown = widths.indices.filter { visible[$0] }
        return shown.reduce(0) { $0 + widths[$1] } + Self.gap * max(shown.count - 1, 0)
    }

    /// Sizes the columns to their widest cell (and header, if shown). Unless `wide` or there is no
    /// `terminalWidth`, fits the line into it: hides optional columns from the last, adjacent ones
    /// together (while the line would not fit even with free text at `textFloor`), then cuts the
    /// widest free-text column (down to `textFloor`), then labels (down to `labelFloor`), then both
    /// down to `hardMinimum`. Returns nil when even that does not fit: the caller shows records.
    static func fit(headerWidths: [Int], cellWidths: [Int], numeric: [Bool], fits: [ColumnStyle.Fit],
                    optional: [Bool], terminalWidth: Int?, wide: Bool) -> TableLayout? {
        let natural = zip(headerWidths, cellWidths).map { max($0, $1) }
        var layout = TableLayout(widths: natural, rightAligned: numeric, visible: natural.map { _ in true })
        guard !wide, let available = terminalWidth else { return layout }
        // Optional columns stay while the table fits with its free text cut to `textFloor`.
        let textSavings = { (layout: TableLayout) in
            layout.widths.indices.filter { layout.visible[$0] && fits[$0] == .text && !numeric[$0] }
                .reduce(0) { $0 + layout.widths[$1] - min(natural[$1], max(Self.textFloor, headerWidths[$1])) }
        }
        // Adjacent optional columns (first and last name) come and go together.
        var column = optional.count - 1
        while column >= 0 {
            guard optional[column] else { column -= 1; continue }
            var start = column
            while start > 0 && optional[start - 1] { start -= 1 }
            if layout.totalWidth - textSavings(layout) > available {
                for hidden in start...column { layout.visible[hidden] = false }
            }
            column = start - 1
        }
        let shrinkable: (ColumnStyle.Fit) -> ((Int) -> Bool) = { kind in { fits[$0] <= kind && !numeric[$0] } }
        layout.shrink(toFit: available, columns: shrinkable(.text)) { min(natural[$0], max(Self.textFloor, headerWidths[$0])) }
        layout.shrink(toFit: available, columns: shrinkable(.label)) {
            min(natural[$0], max(fits[$0] == .text ? Self.textFloor : Self.labelFloor, headerWidths[$0]))
        }
        layout.shrink(toFit: available, columns: shrinkable(.label)) { min(natural[$0], Self.hardMinimum) }
        return layout.totalWidth <= available ? layout : nil
    }

    /// Narrows the widest visible column of `columns` still above its floor (down to the
    /// runner-up at once) until the line fits or none can give more.
    private mutating func shrink(toFit available: Int, columns: (Int) -> Bool, floor: (Int) -> Int) {
        var excess = totalWidth - available
        while excess > 0 {
            let candidates = widths.indices.filter { visible[$0] && columns($0) && widths[$0] > floor($0) }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            let runnerUp = candidates.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
            let step = max(1, min(excess, widths[widest] - max(floor(widest), runnerUp)))
            widths[widest] -= step
            excess -= step
        }
    }
}
