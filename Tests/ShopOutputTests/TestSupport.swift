// TestSupport: helpers shared by the ShopOutput tests (render into memory, sample rows).

import ShopCore
@testable import ShopOutput

/// Renders a whole listing into a memory sink and returns the text.
func renderList(_ columns: [Column], _ rows: [[Cell]], _ options: RenderOptions) throws -> String {
    let sink = OutputSink.memory()
    let writer = try Renderer.list(columns: columns, options: options, sink: sink)
    for row in rows { try writer.write(row) }
    let count = try writer.finish()
    precondition(count == rows.count, "finish() returned \(count) for \(rows.count) rows")
    return sink.memoryText
}

/// Renders one record into a memory sink and returns the text.
func renderRecord(_ columns: [Column], _ row: [Cell], _ options: RenderOptions) throws -> String {
    let sink = OutputSink.memory()
    try Renderer.record(columns: columns, row: row, options: options, sink: sink)
    return sink.memoryText
}

/// `ExactDecimal` from text such as `"9.99"` or `"-12.50"`, keeping its number of decimals.
func decimal(_ text: String) -> ExactDecimal {
    let scale = text.split(separator: ".").dropFirst().first?.count ?? 0
    guard let value = ExactDecimal.parse(text, maxScale: scale, allowNegative: true) else {
        preconditionFailure("bad decimal literal \(text)")
    }
    return value
}

/// A small product listing used by several tests.
let productColumns = ["id", "sku", "title", "price", "tags", "active", "brand"].map(Column.init)

let productRows: [[Cell]] = [
    [.integer(1), .text("MAS-001"), .text("Mascara"), .decimal(decimal("9.99")), .list(["beauty", "eyes"]), .bool(true), .null],
    [.integer(12), .text("LIP-012"), .text("Lipstick \"Red\""), .decimal(decimal("12.50")), .list([]), .bool(false), .text("Acme")],
]

extension String {
    /// The lines of the text, without the final empty piece after the last newline.
    var lines: [String] {
        var pieces = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if pieces.last == "" { pieces.removeLast() }
        return pieces
    }
}
