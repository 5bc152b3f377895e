// DelimitedTests: csv (RFC 4180, formula neutralisation) and tsv (escaping, never quoting).

import Testing
import ShopCore
@testable import ShopOutput

@Suite struct CSVTests {
    let csv = RenderOptions(format: .csv)

    private func field(_ cell: Cell) throws -> String {
        let text = try renderList([Column("f")], [[cell]], RenderOptions(format: .csv, header: false))
        #expect(text.hasSuffix("\r\n"))
        return String(decoding: text.utf8.dropLast(2), as: UTF8.self)   // bytes: "\r\n" is one Character
    }

    @Test func headerCommasAndCRLF() throws {
        let text = try renderList(productColumns, productRows, csv)
        #expect(text == "id,sku,title,price,tags,active,brand\r\n"
            + "1,MAS-001,Mascara,9.99,\"beauty, eyes\",true,\r\n"
            + "12,LIP-012,\"Lipstick \"\"Red\"\"\",12.50,,false,Acme\r\n")
    }

    @Test func noHeader() throws {
        var options = csv
        options.header = false
        #expect(try renderList(productColumns, productRows, options).hasPrefix("1,MAS-001,"))
    }

    @Test func emptyListingIsTheHeaderAlone() throws {
        #expect(try renderList(productColumns, [], csv) == "id,sku,title,price,tags,active,brand\r\n")
        #expect(try renderList(productColumns, [], RenderOptions(format: .csv, header: false)) == "")
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("cr\rhere", "\"cr\rhere\""),
        (" leading", "\" leading\""),
        ("trailing ", "\"trailing \""),
        ("in side", "in side"),
        ("東京, 👍", "\"東京, 👍\""),
    ])
    func quoting(raw: String, expected: String) throws {
        #expect(try field(.text(raw)) == expected)
    }

    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
        ("=1+2", "'=1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("+cmd", "'+cmd"),
        ("-cmd", "'-cmd"),
        ("-", "'-"),
        ("-1-1", "'-1-1"),
        ("-.5", "'-.5"),
        ("\tTAB", "'\tTAB"),
        ("\r=x", "\"'\r=x\""),
        ("-12.50", "-12.50"),
        ("+3", "+3"),
        ("-7", "-7"),
        ("a=b", "a=b"),
    ])
    func formulaNeutralisation(raw: String, expected: String) throws {
        #expect(try field(.text(raw)) == expected)
    }

    @Test func listsAreNeutralisedOnTheirJoinedText() throws {
        #expect(try field(.list(["=cmd", "x"])) == "\"'=cmd, x\"")
        #expect(try field(.list(["-3"])) == "-3")
        #expect(try field(.list([])) == "")
    }

    @Test func numbersAreNeverTouched() throws {
        #expect(try field(.decimal(decimal("-12.50"))) == "-12.50")
        #expect(try field(.integer(-7)) == "-7")
        #expect(try field(.bool(false)) == "false")
        #expect(try field(.null) == "")
    }

    @Test func recordIsHeaderAndOneRow() throws {
        #expect(try renderRecord([Column("id"), Column("price")], [.integer(1), .decimal(decimal("9.99"))], csv)
                == "id,price\r\n1,9.99\r\n")
    }
}

@Suite struct TSVTests {
    let tsv = RenderOptions(format: .tsv)

    @Test func headerTabsAndLF() throws {
        let text = try renderList(productColumns, productRows, tsv)
        #expect(text == "id\tsku\ttitle\tprice\ttags\tactive\tbrand\n"
            + "1\tMAS-001\tMascara\t9.99\tbeauty, eyes\ttrue\t\n"
            + "12\tLIP-012\tLipstick \"Red\"\t12.50\t\tfalse\tAcme\n")
    }

    @Test func noHeaderAndEmpty() throws {
        #expect(try renderList(productColumns, [], tsv) == "id\tsku\ttitle\tprice\ttags\tactive\tbrand\n")
        var options = tsv
        options.header = false
        #expect(try renderList(productColumns, [], options) == "")
        #expect(try renderList(productColumns, productRows, options).hasPrefix("1\tMAS-001\t"))
    }

    @Test func valuesAreEscapedNeverQuoted() throws {
        let raw = "a\tb\nc\rd\\e \"f\",g \u{1B}[31m \u{85} \u{202E} =1"
        let text = try renderList([Column("s")], [[.text(raw)]], RenderOptions(format: .tsv, header: false))
        #expect(text == #"a\tb\nc\rd\\e "f",g \x1B[31m \x85 \u{202E} =1"# + "\n")
        #expect(!text.utf8.contains(0x1B))
        #expect(text.utf8.filter { $0 == 0x09 }.isEmpty)
    }

    @Test func aLoneBackslashIsDoubled() throws {
        let text = try renderRecord([Column("path")], [.text(#"C:\shop\n"#)], RenderOptions(format: .tsv, header: false))
        #expect(text == #"C:\\shop\\n"# + "\n")
    }

    @Test func headerIsEscapedToo() throws {
        let text = try renderList([Column("a\tb"), Column("c")], [], tsv)
        #expect(text == #"a\tb"# + "\tc\n")
    }

    @Test func listsJoinAndEscapeEachPart() throws {
        let text = try renderRecord([Column("tags")], [.list(["x\ty", "z"])], RenderOptions(format: .tsv, header: false))
        #expect(text == #"x\ty, z"# + "\n")
    }
}
