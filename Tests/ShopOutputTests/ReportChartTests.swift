// ReportChartTests: a report's table with its chart — the bars start in one column after the
// table, the largest value fills the room the terminal leaves, optional columns give way to the
// bars, colour only when it is on, and no chart at all when there is no room or in other formats.

import Testing
@testable import ShopOutput

@Suite struct ReportChartTests {
    let columns = ["month", "orders", "items", "net", "currency"].map(Column.init)
    let rows: [[Cell]] = [
        [.text("2026-01"), .integer(3), .integer(9), .decimal(decimal("120.00")), .text("USD")],
        [.text("2026-02"), .integer(1), .integer(2), .decimal(decimal("30.00")), .text("USD")],
        [.text("2026-03"), .integer(0), .integer(0), .decimal(decimal("0.00")), .text("USD")],
        [.text("2026-04"), .integer(6), .integer(20), .decimal(decimal("240.00")), .text("USD")],
    ]
    let values: [Int64] = [12_000, 3_000, 0, 24_000]

    func render(width: Int, color: Bool = false, format: OutputFormat = .table, optional: Set<String> = [],
                periods: Bool = true) throws -> String {
        var options = RenderOptions(format: format, color: color, terminalWidth: width, toTerminal: true)
        options.optionalFields = optional
        let chart = ReportChart(values: values, caption: "net USD", periods: periods ? rows.map { $0[0].plainText } : nil,
                                width: width)
        let sink = OutputSink.memory()
        let writer = try Renderer.report(columns: columns, options: options, chart: chart, sink: sink)
        for row in rows { try writer.write(row) }
        _ = try writer.finish()
        return sink.memoryText
    }

    static func barCells(_ line: Substring) -> Int { line.filter { "▏▎▍▌▋▊▉█".contains($0) }.count }

    @Test func theLargestValueFillsTheRoomAndBarsStartInOneColumn() throws {
        let text = try render(width: 80)
        let lines = text.split(separator: "\n")
        for line in lines { #expect(line.count <= 80, "\(line)") }
        let rowLines = lines.filter { $0.hasPrefix("2026-") }
        #expect(rowLines.count == 4)
        let april = try #require(rowLines.last)
        #expect(april.count == 80 && april.hasSuffix("█"), "the largest fills the line: \(april)")
        #expect(Self.barCells(rowLines[0]) == Self.barCells(april) / 2, "half the largest is half the bar")
        #expect(Self.barCells(rowLines[2]) == 0 && !rowLines[2].hasSuffix(" "), "zero has no bar and no trailing spaces")
        let start = try #require(april.firstIndex(of: "█"))
        let column = april.distance(from: april.startIndex, to: start)
        #expect(rowLines[0].distance(from: rowLines[0].startIndex, to: try #require(rowLines[0].firstIndex(of: "█"))) == column)
        #expect(lines[0].hasSuffix("net USD") && lines[1].hasSuffix("─"))
        #expect(lines.last == "net USD  2026-01 ▄▂▁█ 2026-04", "\(text)")
    }

    @Test func optionalColumnsGiveWayToTheBars() throws {
        let text = try render(width: 50, optional: ["items"])
        #expect(!text.contains("items") && text.contains("█"), "\(text)")
        let wide = try render(width: 120, optional: ["items"])
        #expect(wide.contains("items") && wide.contains("█"))
    }

    @Test func noChartWithoutRoomOrOutsideTables() throws {
        let narrow = try render(width: 39)
        #expect(!narrow.contains("█") && !narrow.contains("net USD"), "\(narrow)")
        // 45 columns: the table (40) leaves fewer than 10 cells.
        let tight = try render(width: 45)
        #expect(!tight.contains("█"), "\(tight)")
        for format in [OutputFormat.json, .ndjson, .csv, .tsv] {
            let text = try render(width: 120, format: format)
            #expect(!text.contains("█") && !text.contains("▁") && !text.contains("net USD"), "\(format)")
        }
        #expect(try render(width: 120, periods: false).split(separator: "\n").count == 6, "no sparkline without periods")
    }

    @Test func barsAreColouredOnlyWhenColourIsOn() throws {
        #expect(try render(width: 80, color: true).contains("\u{1B}[36m█"))
        #expect(!(try render(width: 80)).contains("\u{1B}"))
    }
}
