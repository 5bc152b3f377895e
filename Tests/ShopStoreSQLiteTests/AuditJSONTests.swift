// AuditJSONTests: an audit row's fields as the stores keep them (AuditJSON) — one compact JSON
// object with sorted keys that any JSON parser reads back to the same values, whatever the text
// holds (quotes, backslashes, control characters, line separators, non-ASCII).

import Foundation
import ShopCore
import ShopStoreKit
import Testing

@Suite struct AuditJSONTests {
    static let awkward = "a \"quote\", a \\ backslash, a\nnew line, a\ttab, \u{1}\u{1F}\u{7F}\u{85}\u{2028}\u{2029}, 和紙 / é"

    @Test func fieldsWrittenAsJSONReadBackTheSameWithAnyParser() throws {
        let fields = AuditFields([("title", .text(Self.awkward)), ("price", .integer(-9_223_372_036_854_775_807)), ("active", .bool(true)),
                                  ("brand", .null), ("tags", .list(["x", Self.awkward, ""])), ("stock", .integer(0)), ("off", .bool(false))])
        let text = fields.jsonText
        #expect(!text.contains("\n") && !text.contains("\u{2028}"), "one line: \(text)")
        // Foundation's parser, keys sorted as written.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["title"] as? String == Self.awkward)
        #expect((object["price"] as? NSNumber)?.int64Value == -9_223_372_036_854_775_807)
        #expect(object["active"] as? Bool == true && object["off"] as? Bool == false)
        #expect(object["brand"] is NSNull)
        #expect(object["tags"] as? [String] == ["x", Self.awkward, ""])
        let keys = ["active", "brand", "off", "price", "stock", "tags", "title"]
        let positions = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "\(text)")
        // And the stores' own reader gives back every field.
        let read = try #require(AuditFields(jsonText: text))
        #expect(read.fieldNames == keys)
        for name in keys { #expect(read[name] == fields[name], "\(name)") }
    }

    @Test func aNameGivenTwiceKeepsItsFirstValue() throws {
        let text = AuditFields([("stock", .integer(1)), ("stock", .integer(2))]).jsonText
        #expect(text == #"{"stock":1}"#)
        #expect(AuditFields([]).jsonText == "{}")
    }
}
