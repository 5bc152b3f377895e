// FieldProjectionTests: `--fields` picks and orders columns the same way in every format.

import Testing
import ShopCore
@testable import ShopOutput

@Suite struct FieldProjectionTests {
    private func options(_ format: OutputFormat, _ fields: [String]?) -> RenderOptions {
        RenderOptions(format: format, fields: fields)
    }

    @Test func projectsAndReordersInEveryFormat() throws {
        let fields = ["price", "id"]
        #expect(try renderList(productColumns, productRows, options(.json, fields))
                == "[\n{\"price\":9.99,\"id\":1},\n{\"price\":12.50,\"id\":12}\n]\n")
        #expect(try renderList(productColumns, productRows, options(.ndjson, fields))
                == "{\"price\":9.99,\"id\":1}\n{\"price\":12.50,\"id\":12}\n")
        #expect(try renderList(productColumns, productRows, options(.csv, fields)) == "price,id\r\n9.99,1\r\n12.50,12\r\n")
        #expect(try renderList(productColumns, productRows, options(.tsv, fields)) == "price\tid\n9.99\t1\n12.50\t12\n")
        #expect(try renderList(productColumns, productRows, options(.table, fields)).lines
                == ["price  id", "─────  ──", " 9.99   1", "12.50  12"])
    }

    @Test func projectsRecordsInEveryFormat() throws {
        let fields = ["tags", "sku"]
        let row = productRows[0]
        #expect(try renderRecord(productColumns, row, options(.json, fields)) == "{\"tags\":[\"beauty\",\"eyes\"],\"sku\":\"MAS-001\"}\n")
        #expect(try renderRecord(productColumns, row, options(.csv, fields)) == "tags,sku\r\n\"beauty, eyes\",MAS-001\r\n")
        #expect(try renderRecord(productColumns, row, options(.tsv, fields)) == "tags\tsku\nbeauty, eyes\tMAS-001\n")
        #expect(try renderRecord(productColumns, row, options(.table, fields)) == "tags  beauty, eyes\nsku   MAS-001\n")
    }

    @Test func spacesAroundNamesAreIgnored() throws {
        #expect(try renderList(productColumns, productRows, options(.csv, [" price ", "id"])).hasPrefix("price,id\r\n"))
    }

    @Test(arguments: OutputFormat.allCases)
    func unknownFieldNamesItAndListsTheAvailableOnes(format: OutputFormat) {
        let expected = ShopError.invalidInput("unknown field \"cost\"; fields: id, sku, title, price, tags, active, brand")
        #expect(throws: expected) { try renderList(productColumns, productRows, options(format, ["price", "cost"])) }
        #expect(throws: expected) { try renderRecord(productColumns, productRows[0], options(format, ["cost"])) }
    }

    @Test func duplicateAndEmptySelectionsAreRejected() {
        #expect(throws: ShopError.invalidInput("field \"id\" is given twice")) {
            try renderList(productColumns, productRows, options(.json, ["id", "sku", "id"]))
        }
        #expect(throws: ShopError.invalidInput("no fields given; fields: id, sku, title, price, tags, active, brand")) {
            try renderList(productColumns, productRows, options(.json, []))
        }
    }

    @Test func nothingIsWrittenWhenTheFieldsAreWrong() {
        let sink = OutputSink.memory()
        #expect(throws: ShopError.self) {
            try Renderer.list(columns: productColumns, options: options(.csv, ["nope"]), sink: sink)
        }
        #expect(sink.memoryText.isEmpty)
    }
}

@Suite struct OptionsTests {
    @Test func colourAutoFollowsTheTerminalAndNO_COLOR() {
        #expect(ColorMode.auto.isEnabled(outputIsTerminal: true, environment: [:]))
        #expect(!ColorMode.auto.isEnabled(outputIsTerminal: false, environment: [:]))
        #expect(!ColorMode.auto.isEnabled(outputIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorMode.auto.isEnabled(outputIsTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!ColorMode.auto.isEnabled(outputIsTerminal: true, environment: ["TERM": "dumb"]))
        #expect(ColorMode.always.isEnabled(outputIsTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorMode.never.isEnabled(outputIsTerminal: true, environment: [:]))
    }

    @Test func defaultFormatIsTableOnATerminalAndTSVOtherwise() {
        #expect(OutputFormat.defaultFormat(outputIsTerminal: true) == .table)
        #expect(OutputFormat.defaultFormat(outputIsTerminal: false) == .tsv)
    }

    @Test func optionDefaults() {
        let options = RenderOptions(format: .csv)
        #expect(options.header && !options.wide && !options.color)
        #expect(options.fields == nil && options.terminalWidth == nil)
    }
}
