// TableLayout: column widths and alignment of a table, shrunk to fit the terminal.

/// The widths (in terminal columns) and alignment of a table's columns.
struct TableLayout {
    /// Display width of each column.
    var widths: [Int]
    /// Whether each column is numeric, hence right-aligned.
    var rightAligned: [Bool]

    /// Columns are separated by this many spaces.
    static let gap = 2
    /// Shrinking stops at this width (or the header's, if wider) while that is enough to fit.
    static let preferredMinimum = 8
    /// The last resort when even that does not fit: a column as narrow as `ab…`.
    static let hardMinimum = 3

    /// The total width of a line.
    var totalWidth: Int {
        widths.reduce(0, +) + Self.gap * max(widths.count - 1, 0)
    }

    /// Sizes the columns to their widest cell (and header, if shown), then, unless `wide`,
    /// shrinks the widest text columns until every line fits `terminalWidth`: first not below
    /// `preferredMinimum` or the header's width, then down to `hardMinimum` (cutting headers).
    /// Numeric columns are never shrunk; if they alone overflow, lines overflow.
    init(headerWidths: [Int], cellWidths: [Int], numeric: [Bool], terminalWidth: Int?, wide: Bool) {
        self.widths = zip(headerWidths, cellWidths).map { max($0, $1) }
        self.rightAligned = numeric
        guard !wide, let terminalWidth else { return }
        let natural = widths
        shrink(toFit: terminalWidth) { column in
            min(natural[column], max(Self.preferredMinimum, headerWidths[column]))
        }
        shrink(toFit: terminalWidth) { column in
            min(natural[column], Self.hardMinimum)
        }
    }

    /// Narrows the widest text column still above its floor (down to the runner-up at once)
    /// until the line fits or no column can give more.
    private mutating func shrink(toFit available: Int, floor: (Int) -> Int) {
        var excess = totalWidth - available
        while excess > 0 {
            let candidates = widths.indices.filter { !rightAligned[$0] && widths[$0] > floor($0) }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            let runnerUp = candidates.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
            // Cut the widest down to the runner-up (or its floor) at once, at least one column.
            let step = max(1, min(excess, widths[widest] - max(floor(widest), runnerUp)))
            widths[widest] -= step
            excess -= step
        }
    }
}
