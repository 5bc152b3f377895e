// JSONTests: json arrays and ndjson lines — exact text, exact decimals, RFC 8259 escaping.

import Foundation
import Testing
import ShopCore
@testable import ShopOutput

@Suite struct JSONTests {
    let json = RenderOptions(format: .json)
    let ndjson = RenderOptions(format: .ndjson)

    @Test func listingIsAnArrayWithOneObjectALine() throws {
        let text = try renderList(productColumns, productRows, json)
        #expect(text == """
            [
            {"id":1,"sku":"MAS-001","title":"Mascara","price":9.99,"tags":["beauty","eyes"],"active":true,"brand":null},
            {"id":12,"sku":"LIP-012","title":"Lipstick \\"Red\\"","price":12.50,"tags":[],"active":false,"brand":"Acme"}
            ]

            """)
    }

    @Test func emptyListingIsAnEmptyArray() throws {
        #expect(try renderList(productColumns, [], json) == "[]\n")
        #expect(try renderList(productColumns, [], ndjson) == "")
    }

    @Test func parsesWithJSONSerializationAndKeepsDecimalsExact() throws {
        let text = try renderList(productColumns, productRows, json)
        #expect(text.contains(#""price":9.99,"#))
        #expect(text.contains(#""price":12.50,"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[0]["id"] as? Int == 1)
        #expect(parsed[0]["sku"] as? String == "MAS-001")
        #expect(parsed[1]["title"] as? String == #"Lipstick "Red""#)
        #expect(parsed[0]["tags"] as? [String] == ["beauty", "eyes"])
        #expect(parsed[0]["active"] as? Bool == true)
        #expect(parsed[0]["brand"] is NSNull)
        #expect((parsed[1]["price"] as? NSNumber)?.stringValue == "12.5")
    }

    @Test(arguments: ["0.10", "-12.50", "1000", "0.00", "123456789012.99", "-0.01"])
    func decimalsAreBareNumbersSpeltExactly(_ literal: String) throws {
        let text = try renderRecord([Column("amount")], [.decimal(decimal(literal))], json)
        #expect(text == "{\"amount\":\(literal)}\n")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test func integersAtTheLimits() throws {
        let text = try renderList([Column("n")], [[.integer(.min)], [.integer(.max)], [.integer(0)], [.integer(-7)]], ndjson)
        #expect(text == "{\"n\":-9223372036854775808}\n{\"n\":9223372036854775807}\n{\"n\":0}\n{\"n\":-7}\n")
    }

    @Test func stringsAreEscapedPerRFC8259() throws {
        let raw = "q\" b\\ n\n r\r t\t b\u{8} f\u{C} esc\u{1B} nul\u{0} us\u{1F} del\u{7F} ls\u{2028} ps\u{2029} 東京 👍 e\u{301} /"
        let text = try renderRecord([Column("s")], [.text(raw)], ndjson)
        let expected = #"{"s":"q\" b\\ n\n r\r t\t b\b f\f esc\u001B nul\u0000 us\u001F del"# + "\u{7F}"
            + #" ls\u2028 ps\u2029 東京 👍 e"# + "\u{301}" + #" /"}"# + "\n"
        #expect(text == expected)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(parsed["s"] == raw)
    }

    @Test func keysAndListItemsAreEscapedToo() throws {
        let text = try renderRecord([Column("we\"ird")], [.list(["a\"b", "c\nd", ""])], json)
        #expect(text == #"{"we\"ird":["a\"b","c\nd",""]}"# + "\n")
    }

    @Test func everyEscapeRoundTrips() throws {
        // Every scalar from U+0000 to U+00FF plus the separators and some wide text, in one string.
        var raw = String(String.UnicodeScalarView((0...0xFF).compactMap(Unicode.Scalar.init)))
        raw += "\u{2028}\u{2029}\u{202E}東京👨‍👩‍👧‍👦"
        let text = try renderList([Column("s")], [[.text(raw)], [.text("")]], json)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]])
        #expect(parsed.map { $0["s"] } == [raw, ""])
        #expect(!text.utf8.contains { $0 < 0x20 && $0 != 0x0A })
    }

    @Test func jsonTextQuotesWithTheSameRules() {
        #expect(JSONText.quoted("he said \"hi\"\n\u{1B}\u{2028}") == #""he said \"hi\"\n\u001B\u2028""#)
    }

    @Test func ndjsonIsOneCompactObjectALine() throws {
        let text = try renderList(productColumns, productRows, ndjson)
        let lines = text.lines
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"id":1,"sku":"MAS-001","title":"Mascara","price":9.99,"tags":["beauty","eyes"],"active":true,"brand":null}"#)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test func recordIsOneObject() throws {
        let expected = #"{"id":12,"sku":"LIP-012","title":"Lipstick \"Red\"","price":12.50,"tags":[],"active":false,"brand":"Acme"}"# + "\n"
        #expect(try renderRecord(productColumns, productRows[1], json) == expected)
        #expect(try renderRecord(productColumns, productRows[1], ndjson) == expected)
    }

    @Test func largeListingStreamsThroughTheBufferAndStaysValid() throws {
        let rows: [[Cell]] = (0..<20_000).map { [.integer(Int64($0)), .text("title \($0) \"quoted\""), .decimal(decimal("9.99"))] }
        let text = try renderList([Column("id"), Column("title"), Column("price")], rows, json)
        #expect(text.utf8.count > OutputSink.capacity * 10)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 20_000)
        #expect(parsed.last?["title"] as? String == #"title 19999 "quoted""#)
    }
}
