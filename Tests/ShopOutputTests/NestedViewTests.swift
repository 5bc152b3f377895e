// NestedViewTests: a record with nested rows in every format, and the error line's formats.

import Foundation
import Testing
import ShopCore
@testable import ShopOutput

@Suite struct NestedViewTests {
    var view: NestedView {
        var view = NestedView(record: ([Column("id"), Column("user")], [.integer(7), .text("emilys")]), key: "lines",
                              rows: ([Column("sku"), Column("quantity")], [[.text("A-1"), .integer(2)], [.text("B\n2"), .integer(1)]]))
        view.flatRows = ([Column("order_id"), Column("sku"), Column("quantity")],
                         [[.integer(7), .text("A-1"), .integer(2)], [.integer(7), .text("B\n2"), .integer(1)]])
        return view
    }

    private func render(_ view: NestedView, _ options: RenderOptions) throws -> (String, NestedLayout) {
        let sink = OutputSink.memory()
        let layout = try Renderer.nested(view, options: options, sink: sink)
        return (sink.memoryText, layout)
    }

    @Test func jsonNestsTheRowsUnderTheKey() throws {
        let (text, layout) = try render(view, RenderOptions(format: .json))
        #expect(layout == .nested)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["id"] as? Int == 7 && object["user"] as? String == "emilys")
        let lines = try #require(object["lines"] as? [[String: Any]])
        #expect(lines.map { $0["sku"] as? String } == ["A-1", "B\n2"])
        #expect(lines.map { $0["quantity"] as? Int } == [2, 1])
        #expect(text.split(separator: "\n").count == 4)   // the object's head, a line per row, the close
    }

    @Test func ndjsonIsTheSameObjectOnOneLine() throws {
        let (text, _) = try render(view, RenderOptions(format: .ndjson))
        #expect(text.filter { $0 == "\n" }.count == 1 && text.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["lines"] as? [Any])?.count == 2)
    }

    @Test func fieldsPickTheRowsFieldsAndTheRecordStaysWhole() throws {
        let (text, _) = try render(view, RenderOptions(format: .json, fields: ["quantity"]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["user"] as? String == "emilys")
        #expect((object["lines"] as? [[String: Any]])?.map { Array($0.keys) } == [["quantity"], ["quantity"]])
    }

    @Test func noRowsIsAnEmptyArray() throws {
        var empty = view
        empty.rows.cells = []
        let (text, _) = try render(empty, RenderOptions(format: .json))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["lines"] as? [Any])?.isEmpty == true)
    }

    @Test func csvShowsTheFlatRowsOnly() throws {
        let (text, layout) = try render(view, RenderOptions(format: .csv))
        #expect(layout == .flat(rows: 2, withRecord: false))
        #expect(text.hasPrefix("order_id,sku,quantity\r\n7,A-1,2\r\n"))
        #expect(!text.contains("emilys"))
    }

    @Test func tableShowsTheRecordThenTheRowsOrTheRowsAlone() throws {
        let (withRecord, layout) = try render(view, RenderOptions(format: .table))
        #expect(layout == .flat(rows: 2, withRecord: true))
        let lines = withRecord.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains("7") == true && withRecord.contains("emilys") && withRecord.contains("\n\n"))
        #expect(withRecord.contains("A-1") && !withRecord.contains("order_id"))

        var rowsOnly = view
        rowsOnly.tableShowsRecord = false
        let (text, rowsLayout) = try render(rowsOnly, RenderOptions(format: .table))
        #expect(rowsLayout == .flat(rows: 2, withRecord: false))
        #expect(!text.contains("emilys") && text.contains("A-1"))
    }

    @Test func errorLineInEachFormat() throws {
        let json = ErrorLine.text("no product \"\u{1B}[2J\"", location: "f:3", format: .ndjson, toTerminal: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(object == ["error": "no product \"\u{1B}[2J\"", "location": "f:3"])
        #expect(!json.contains("\u{1B}"))
        let plain = ErrorLine.text("no product \"\u{1B}[2J\"", location: nil, format: .csv, toTerminal: true)
        #expect(plain.hasPrefix("error: no product ") && !plain.contains("\u{1B}") && plain.hasSuffix("\n"))
        #expect(plain.filter { $0 == "\n" }.count == 1)
    }
}
