// ReportChart: the chart a report's table carries — a bar beside each row, scaled so the largest
// value fills the room the table leaves on the terminal, and for periods of time a sparkline under
// it. Tables only: json, ndjson, csv and tsv never carry one; it is dropped (never squeezed) when
// the terminal is too narrow.

/// What a table's chart shows, and how much room the table and the chart may take together.
public struct ReportChart: Sendable {
    /// One value per row, in the rows' order (e.g. net sales in minor units).
    public let values: [Int64]
    /// The largest value (what a full bar means).
    let maximum: Int64
    /// The bars' header: what they measure (`net USD`).
    public let caption: String
    /// The periods' labels, one per row, when the rows are periods of time in order: then a
    /// sparkline of the values follows the table. nil for other groupings.
    public let periods: [String]?
    /// The terminal's width: the table and its bars never take more.
    public let width: Int

    /// Below this many columns there is no chart.
    public static let minimumWidth = 40
    /// Bars narrower than this are not drawn: the table is shown alone.
    public static let minimumBar = 10
    /// The room a table's optional columns make for the bars before they stay.
    public static let preferredBar = 30

    public init(values: [Int64], caption: String, periods: [String]? = nil, width: Int) {
        self.values = values
        self.maximum = values.max() ?? 0
        self.caption = caption
        self.periods = periods
        self.width = width
    }

    /// `net USD  2025-12 ▁▂▃▅▇█▆ 2026-11`, at most `width` columns: one character per period, or
    /// per run of adjacent periods added up when they are more than the room. nil without periods,
    /// with fewer than two, or when even eight characters would not fit.
    var sparklineLine: String? {
        guard let periods, periods.count >= 2, periods.count == values.count,
              let first = periods.first, let last = periods.last else { return nil }
        let head = TerminalEscaping.escape(caption) + "  " + TerminalEscaping.escape(first) + " "
        let tail = " " + TerminalEscaping.escape(last)
        let room = width - DisplayWidth.of(head) - DisplayWidth.of(tail)
        guard room >= 8 else { return nil }
        let perCharacter = (values.count + room - 1) / room
        var sums: [Int64] = []
        var index = 0
        while index < values.count {
            let run = values[index..<min(index + perCharacter, values.count)]
            sums.append(run.reduce(Int64(0)) { total, value in
                let (sum, overflow) = total.addingReportingOverflow(max(value, 0))
                return overflow ? .max : sum
            })
            index += perCharacter
        }
        return head + BarChart.sparkline(sums) + tail
    }
}
