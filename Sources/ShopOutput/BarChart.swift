// BarChart: the one place a figure becomes a bar or a sparkline in the terminal — Unicode eighth
// blocks scaled so the largest value fills the width, exactly (integer arithmetic, no floating
// point), never a bar for zero or a negative value, and never wider than asked.

/// Bars and sparklines for reports.
public enum BarChart {
    /// A cell filled to 1/8 … 8/8.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
    /// A sparkline's eight heights.
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The bar of `value` when `maximum` fills `width` cells: whole blocks, then one partial block.
    /// Rounded half away from zero to an eighth of a cell; a positive value too small to round to
    /// one eighth still shows one. Empty for zero, for a negative value, when `maximum` is not
    /// positive or `width` is not. Never more than `width` cells (a value above `maximum` fills them).
    public static func bar(_ value: Int64, maximum: Int64, width: Int) -> String {
        guard value > 0, maximum > 0, width > 0 else { return "" }
        let capped = min(value, maximum)
        let total = Int128(width) * 8
        let exact = Int128(capped) * total
        var units = exact / Int128(maximum)
        if (exact % Int128(maximum)) * 2 >= Int128(maximum) { units += 1 }
        units = min(max(units, 1), total)
        let whole = Int(units / 8), part = Int(units % 8)
        return String(repeating: eighths[7], count: whole) + (part > 0 ? String(eighths[part - 1]) : "")
    }

    /// One character per value, its height scaled between zero and the largest value (all zero,
    /// or nothing positive: the lowest level throughout). Negative values count as zero; a
    /// positive value is never as low as zero (an empty period stands out).
    public static func sparkline(_ values: [Int64]) -> String {
        let maximum = values.max() ?? 0
        return String(values.map { value -> Character in
            guard maximum > 0, value > 0 else { return levels[0] }
            let level = Int(Int128(value) * 7 / Int128(maximum))
            return levels[min(max(level, 1), 7)]
        })
    }
}
