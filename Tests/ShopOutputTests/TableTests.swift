// TableTests: the human table — alignment, display widths, escaping, fitting the terminal.

import Testing
import ShopCore
@testable import ShopOutput

@Suite struct TableTests {
    let table = RenderOptions(format: .table)

    @Test func headerRuleAndRowsAlignedTwoSpacesApart() throws {
        let text = try renderList(productColumns, productRows, table)
        #expect(text == """
            id  sku      title           price  tags          active  brand
            ──  ───────  ──────────────  ─────  ────────────  ──────  ─────
             1  MAS-001  Mascara          9.99  beauty, eyes  true
            12  LIP-012  Lipstick "Red"  12.50                false   Acme

            """)
    }

    @Test func noLineEndsInASpace() throws {
        let rows: [[Cell]] = [[.text("a"), .null, .text("trailing  ")], [.text("b"), .text("x"), .null]]
        let text = try renderList(["one", "two", "three"].map(Column.init), rows, table)
        for line in text.lines {
            #expect(!line.hasSuffix(" "), "\(line)")
        }
    }

    @Test func numbersAndTheirHeaderAreRightAligned() throws {
        let rows: [[Cell]] = [[.integer(100), .decimal(decimal("1234.50")), .text("a")],
                              [.integer(5), .decimal(decimal("0.99")), .text("bbbb")]]
        let text = try renderList(["quantity_ok", "n", "t"].map(Column.init), rows, table)
        #expect(text.lines == [
            "quantity ok        n  t",
            "───────────  ───────  ────",
            "        100  1234.50  a",
            "          5     0.99  bbbb",
        ])
    }

    @Test func columnsAreSizedByDisplayWidth() throws {
        let cities = ["東京", "Paris", "👨‍👩‍👧‍👦 family", "🇯🇵", "Zu\u{308}rich", "서울"]
        let rows = cities.map { [Cell.text($0), .integer(1)] }
        let text = try renderList([Column("city"), Column("n")], rows, table)
        let lines = text.lines
        // Every line is equally wide on screen, so the second column starts at one column everywhere.
        let widths = Set(lines.map(DisplayWidth.of))
        #expect(widths.count == 1, "\(lines)")
        // The widest city is "👨‍👩‍👧‍👦 family" at 9 columns: 東京 (4) gets 5 spaces of padding, then the gap.
        #expect(lines.contains("東京       1"))
        #expect(lines.contains("Zu\u{308}rich     1"))
        #expect(lines.contains("🇯🇵         1"))
    }

    @Test func controlCharactersAreEscapedNoRawEscapeByte() throws {
        let hostile = "Evil\u{1B}[2J\u{1B}]0;owned\u{7} title\nnext\u{202E}"
        let text = try renderList([Column("id"), Column("title")], [[.integer(1), .text(hostile)]], table)
        #expect(!text.utf8.contains(0x1B))
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E })
        #expect(text.contains(#"Evil\x1B[2J\x1B]0;owned\x07 title\nnext\u{202E}"#))
        #expect(text.lines.count == 3)
    }

    @Test func emptyListingWritesNothing() throws {
        #expect(try renderList(productColumns, [], table) == "")
    }

    @Test func noHeaderDropsHeaderAndRule() throws {
        var options = table
        options.header = false
        let text = try renderList(productColumns, productRows, options)
        #expect(text.lines.count == 2)
        #expect(text.lines[0].hasPrefix(" 1  MAS-001  Mascara"))
        #expect(!text.contains("─"))
    }

    @Test func colourMakesTheHeaderBoldAndNothingElse() throws {
        var options = table
        options.color = true
        let coloured = try renderList(productColumns, productRows, options)
        let lines = coloured.lines
        #expect(lines[0].hasPrefix("\u{1B}[1mid  sku"))
        #expect(lines[0].hasSuffix("brand\u{1B}[0m"))
        #expect(lines.dropFirst().allSatisfy { !$0.contains("\u{1B}") })
        options.color = false
        #expect(!(try renderList(productColumns, productRows, options)).contains("\u{1B}"))
    }

    // MARK: - Fitting the terminal

    static let longColumns = ["id", "title", "description", "price"].map(Column.init)
    static let longRows: [[Cell]] = (1...5).map { index in
        [.integer(Int64(index)), .text("Product number \(index) with a long name"),
         .text(String(repeating: "Lorem ipsum dolor sit amet. ", count: index)),
         .decimal(decimal("19.99"))]
    }

    @Test(arguments: [30, 40, 60, 80])
    func everyLineFitsTheTerminal(width: Int) throws {
        var options = table
        options.terminalWidth = width
        let text = try renderList(Self.longColumns, Self.longRows, options)
        for line in text.lines {
            #expect(DisplayWidth.of(line) <= width, "\(line)")
        }
        #expect(text.contains("…"))
        #expect(text.lines.dropFirst(2).allSatisfy { $0.hasSuffix("19.99") })   // numbers are never cut
    }

    @Test func shrinksTheWidestTextColumnsFirstAndKeepsHeaders() throws {
        var options = table
        options.terminalWidth = 80
        let text = try renderList(Self.longColumns, Self.longRows, options)
        let lines = text.lines
        // 2 + 33 + 140 + 5 + 3 gaps = 186 columns; only description (the widest) shrinks, to 34.
        #expect(lines[0] == "id  title" + String(repeating: " ", count: 30) + "description" + String(repeating: " ", count: 25) + "price")
        #expect(lines[2] == " 1  Product number 1 with a long name  Lorem ipsum dolor sit amet.         19.99")
        #expect(lines[3] == " 2  Product number 2 with a long name  Lorem ipsum dolor sit amet. Lorem…  19.99")
    }

    @Test func wideNeverCuts() throws {
        var options = table
        options.terminalWidth = 40
        options.wide = true
        let text = try renderList(Self.longColumns, Self.longRows, options)
        #expect(!text.contains("…"))
        #expect(text.contains(String(repeating: "Lorem ipsum dolor sit amet. ", count: 5).trimmingASCIISpaces))
    }

    @Test func wideCellsAreCutByDisplayWidth() throws {
        var options = table
        options.terminalWidth = 20
        let rows: [[Cell]] = [[.integer(1), .text("東京都渋谷区神宮前一丁目")]]
        let text = try renderList([Column("id"), Column("address")], rows, options)
        #expect(text.lines[2] == " 1  東京都渋谷区神…")
        #expect(text.lines.allSatisfy { DisplayWidth.of($0) <= 20 })
    }

    @Test func rowsAfterTheSampleStreamWithTheSampleWidths() throws {
        var rows: [[Cell]] = (0..<TableWriter.sampleSize).map { [.integer(Int64($0)), .text("short")] }
        rows.append([.integer(1_000_000), .text("a much longer title")])
        let text = try renderList([Column("id"), Column("title")], rows, table)
        let lines = text.lines
        #expect(lines.count == rows.count + 2)
        #expect(lines[0] == " id  title")
        #expect(lines[2] == "  0  short")
        #expect(lines.last == "10…  a mu…")   // cut to the sample's widths: 3 and 5
    }

    @Test func streamsOnceTheSampleIsFull() throws {
        let sink = OutputSink.memory()
        let writer = try Renderer.list(columns: [Column("id")], options: table, sink: sink)
        for index in 0..<(TableWriter.sampleSize - 1) { try writer.write([.integer(Int64(index))]) }
        #expect(sink.memoryText.isEmpty)
        try writer.write([.integer(999)])
        #expect(sink.memoryText.hasPrefix(" id\n───\n  0\n"))
        #expect(try writer.finish() == TableWriter.sampleSize)
    }

    // MARK: - Records

    @Test func recordIsKeyValueLinesWithAlignedKeys() throws {
        let text = try renderRecord(productColumns, productRows[0], table)
        #expect(text == """
            id      1
            sku     MAS-001
            title   Mascara
            price   9.99
            tags    beauty, eyes
            active  true
            brand

            """)
    }

    @Test func recordValuesAreEscapedAndCutToTheTerminal() throws {
        var options = table
        options.terminalWidth = 21
        let row: [Cell] = [.integer(7), .text("Bad\u{1B}[31m\nname that goes on and on")]
        let text = try renderRecord([Column("id"), Column("title")], row, options)
        #expect(!text.utf8.contains(0x1B))
        #expect(text.lines == ["id     7", #"title  Bad\x1B[31m\n…"#])
        options.wide = true
        #expect(try renderRecord([Column("id"), Column("title")], row, options).lines[1]
                == #"title  Bad\x1B[31m\nname that goes on and on"#)
    }
}
