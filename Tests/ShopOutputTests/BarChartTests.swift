// BarChartTests: the bar scaling of reports — eighths, zero, a single huge value, never a
// negative bar, never wider than asked — and the sparkline's levels.

import Testing
@testable import ShopOutput

@Suite struct BarChartTests {
    /// Cells a bar takes: every character is one cell.
    func cells(_ bar: String) -> Int { bar.count }

    @Test func eachEighthOfACellIsItsOwnBlock() {
        // With a maximum of 8 and one cell, 1…8 are the eight blocks.
        #expect((1...8).map { BarChart.bar(Int64($0), maximum: 8, width: 1) } == ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"])
        // Ten cells: 80 eighths; 45 of 80 is five full cells and five eighths.
        #expect(BarChart.bar(45, maximum: 80, width: 10) == "█████▋")
        #expect(BarChart.bar(80, maximum: 80, width: 10) == String(repeating: "█", count: 10))
    }

    @Test func roundsHalfAwayFromZeroToAnEighth() {
        // 1 of 16 in one cell is half an eighth: it rounds up to one.
        #expect(BarChart.bar(1, maximum: 16, width: 1) == "▏")
        // 3 of 16 is one and a half eighths: two.
        #expect(BarChart.bar(3, maximum: 16, width: 1) == "▎")
        // A positive value far below an eighth still shows one.
        #expect(BarChart.bar(1, maximum: 1_000_000, width: 10) == "▏")
    }

    @Test func zeroAndNegativeValuesHaveNoBar() {
        #expect(BarChart.bar(0, maximum: 100, width: 40) == "")
        #expect(BarChart.bar(-5, maximum: 100, width: 40) == "")
        #expect(BarChart.bar(Int64.min, maximum: 100, width: 40) == "")
        #expect(BarChart.bar(5, maximum: 0, width: 40) == "")
        #expect(BarChart.bar(5, maximum: -10, width: 40) == "")
        #expect(BarChart.bar(5, maximum: 10, width: 0) == "")
    }

    @Test func aSingleHugeValueFillsTheWidthWithoutOverflow() {
        #expect(BarChart.bar(.max, maximum: .max, width: 60) == String(repeating: "█", count: 60))
        #expect(cells(BarChart.bar(.max / 2, maximum: .max, width: 60)) == 30)
        #expect(BarChart.bar(1, maximum: .max, width: 60) == "▏")
        // Beside a huge value a small one is the smallest bar, not nothing and not more.
        #expect(BarChart.bar(1_000, maximum: .max, width: 200) == "▏")
    }

    @Test func neverWiderThanAskedAndLongerForMore() {
        for width in [1, 7, 40, 117] {
            var previous = 0
            for value in stride(from: Int64(0), through: 1_000, by: 7) {
                let bar = BarChart.bar(value, maximum: 1_000, width: width)
                #expect(cells(bar) <= width)
                let eighthsShown = bar.reduce(0) { $0 + (BarChart.eighths.firstIndex(of: $1).map { $0 + 1 } ?? 0) }
                #expect(eighthsShown >= previous, "width \(width), value \(value)")
                previous = eighthsShown
            }
            // Above the maximum: the full width, no more.
            #expect(cells(BarChart.bar(5_000, maximum: 1_000, width: width)) == width)
        }
    }

    @Test func sparklineLevels() {
        #expect(BarChart.sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        #expect(BarChart.sparkline([0, 0, 0]) == "▁▁▁")
        #expect(BarChart.sparkline([-3, 10]) == "▁█")
        #expect(BarChart.sparkline([]) == "")
        #expect(BarChart.sparkline([.max, 1]) == "█▂", "a positive value stands above zero")
        #expect(BarChart.sparkline([0, 1, 1_000]) == "▁▂█")
    }
}
