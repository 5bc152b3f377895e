// CodecTests: the exact JSON parser, the CSV reader, the product file decoder and the ECB rate decoders.

import Foundation
import Testing
@testable import ShopCore

@Suite struct JSONParserTests {
    @Test func keepsNumbersAsTheirText() throws {
        let value = try JSONParser.parse(Array(#"{"price": 9.99, "n": [1, -2.50, 3e2]}"#.utf8))
        guard case .object(let object) = value, case .number(let price)? = object["price"],
              case .array(let numbers)? = object["n"] else {
            Issue.record("unexpected shape \(value)")
            return
        }
        #expect(price == "9.99")
        #expect(numbers == [.number("1"), .number("-2.50"), .number("3e2")])
    }

    @Test func decodesEscapesAndSurrogates() throws {
        let value = try JSONParser.parse(Array(#"["a\"b\\c\n\u00e9\ud83d\ude00"]"#.utf8))
        #expect(value == .array([.string("a\"b\\c\né😀")]))
    }

    @Test func quotesControlCharactersSeparatorsAndC1AndLeavesTheRest() throws {
        #expect(JSONValue.quoted("plain text 123") == #""plain text 123""#)
        #expect(JSONValue.quoted("say \"hi\" \\ now") == #""say \"hi\" \\ now""#)
        #expect(JSONValue.quoted("a\nb\rc\td\u{1B}[2J\u{7F}\u{0}") == #""a\nb\rc\td\u001b[2J\u007f\u0000""#)
        #expect(JSONValue.quoted("next\u{85}line\u{2028}para\u{2029}end") == #""next\u0085line\u2028para\u2029end""#)
        // Other non-ASCII text passes as it is: é (C3 A9), U+2027 and U+202A beside the separators
        // (E2 80 A7, E2 80 AA), U+00A0 beside C1 (C2 A0), an emoji.
        let kept = "caf\u{E9} \u{2027}\u{202A}\u{A0} \u{1F600}"
        #expect(JSONValue.quoted(kept) == "\"" + kept + "\"")
        // Whatever the text, it reads back as itself.
        for text in ["", "\"", "\\", "\u{1}\u{1F}", "x\u{9F}y\u{80}", "tail\u{C2}", kept + "\u{2028}\"\n"] {
            let read = try JSONSerialization.jsonObject(with: Data(JSONValue.quoted(text).utf8), options: .fragmentsAllowed)
            #expect(read as? String == text, "\(text.debugDescription)")
        }
    }

    @Test(arguments: ["[1,]", "{\"a\" 1}", "[01]", "\"abc", "[1] x", "{\"a\":tru}", "[\"\u{01}\"]", ""])
    func rejectsInvalidDocuments(text: String) {
        #expect(throws: ShopError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func readsStringsWithAndWithoutEscapesAndRefusesBadBytes() throws {
        #expect(try JSONParser.parse(Array(#"["plain", "", "tail\u0041", "\"lead", "caf\#u{E9} \#u{1F600}"]"#.utf8))
                == .array([.string("plain"), .string(""), .string("tailA"), .string("\"lead"), .string("caf\u{E9} \u{1F600}")]))
        #expect(throws: ShopError.self) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) }        // invalid UTF-8
        #expect(throws: ShopError.self) { try JSONParser.parse([0x22, 0x61, 0x09, 0x22]) }        // raw tab
        #expect(throws: ShopError.self) { try JSONParser.parse(Array(#""ab\"#.utf8)) }             // unterminated
    }

    @Test func readsAnObjectOfStringsMemberByMember() {
        let text = #" { "a" : "1", "b": [ "x" , "y\n" ], "c": [], "a": "\u00e9\#u{E9}" } "#
        // From bytes (checked as UTF-8) and from a string's text (valid already): the same members.
        for fromBytes in [true, false] {
            var members: [String] = []
            let add = { (key: String, value: JSONParser.StringMember) in
                switch value {
                case .string(let text): members.append("\(key)=\(text)")
                case .strings(let texts): members.append("\(key)=\(texts)")
                }
            }
            let read = fromBytes ? JSONParser.stringMembers(Array(text.utf8), add) : JSONParser.stringMembers(text, add)
            #expect(read)
            #expect(members == ["a=1", "b=[\"x\", \"y\\n\"]", "c=[]", "a=\u{E9}\u{E9}"])
        }
        for other in [#"{"a": 1}"#, #"{"a": {"b": "c"}}"#, #"{"a": ["b", 2]}"#, #"["a"]"#, #"{"a": "b"} x"#, #"{"a": "b",}"#, "{", ""] {
            #expect(!JSONParser.stringMembers(Array(other.utf8)) { _, _ in }, "\(other)")
        }
    }

    @Test func reportsTheLineOfAnError() {
        do {
            _ = try JSONParser.parse(Array("[\n1,\n2,,\n3]".utf8))
            Issue.record("accepted invalid JSON")
        } catch {
            #expect(error.message.contains("line 3"))
        }
    }
}

@Suite struct CSVReaderTests {
    @Test func readsQuotedFieldsAcrossLines() throws {
        let records = try CSVReader.records(in: "a,b\r\n\"x, y\",\"say \"\"hi\"\"\nthere\"\r\n3,\n")
        #expect(records.map(\.fields) == [["a", "b"], ["x, y", "say \"hi\"\nthere"], ["3", ""]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func rejectsAnUnterminatedQuote() {
        #expect(throws: ShopError.self) { try CSVReader.records(in: "a,\"b\n") }
    }
}

@Suite struct ProductFileDecoderTests {
    @Test func decodesDummyJSONShapeExactly() throws {
        let json = #"[{"id": 7, "title": "Mug", "category": "kitchen", "price": 9.99, "discountPercentage": 10, "rating": 4.5, "stock": 3, "tags": ["a", "b"], "sku": "K-1"}]"#
        let products = try ProductFileDecoder.decodeJSON(Array(json.utf8))
        #expect(products.count == 1)
        #expect(products[0].price.minorUnits == 999)
        #expect(products[0].discount.hundredths == 1000)
        #expect(products[0].rating.hundredths == 450)
        #expect(products[0].tags == ["a", "b"])
        #expect(products[0].id == 7)
    }

    @Test func decodesItsOwnCSVExport() throws {
        let csv = "id,sku,title,category,price,discount_percentage,stock,tags\r\n1,A-1,\"Tea, green\",groceries,2.50,5.5,10,\"tea, green\"\r\n"
        let products = try ProductFileDecoder.decodeCSV(Array(csv.utf8))
        #expect(products.map(\.title) == ["Tea, green"])
        #expect(products[0].price.decimalString == "2.50")
        #expect(products[0].tags == ["tea", "green"])
    }

    @Test func namesTheBadRecordAndItsLine() {
        let json = "[\n{\"title\": \"a\", \"category\": \"c\", \"price\": 1},\n{\"title\": \"b\", \"category\": \"c\", \"price\": 1.234}\n]"
        do {
            _ = try ProductFileDecoder.decodeJSON(Array(json.utf8))
            Issue.record("a price with 3 decimals was accepted")
        } catch {
            #expect(error.message.contains("record 2"))
            #expect(error.message.contains("line 3"))
            #expect(error.message.contains("1.234"))
        }
    }
}

@Suite struct ECBRatesDecoderTests {
    /// The demo data shipped with the store module.
    static let demoData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ShopStoreKit/DemoData")

    static func rates(_ file: String) throws -> [CurrencyRate] {
        try ECBRatesDecoder.decode(Array(Data(contentsOf: demoData.appendingPathComponent(file))))
    }

    @Test func dailyFilesDecode() throws {
        let xml = try Self.rates("eurofxref-daily.xml")
        let csv = try Self.rates("eurofxref.csv")
        #expect(xml.count == 30 && Set(xml.map(\.date)) == ["2025-05-09"])
        #expect(csv.count == 29 && Set(csv.map(\.date)) == ["2026-04-13"])
        let usd = try #require(csv.first { $0.currency == "USD" })
        #expect(usd.rate == ExactDecimal(units: 1_168_400, scale: 6))
        let gbp = try #require(xml.first { $0.currency == "GBP" })
        #expect(gbp.rate.description == "0.847700")   // "0.84770" in the XML, exact
    }

    static let history = demoData.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/ecb-eurofxref/eurofxref-hist.csv")

    /// The full history (in ../shared/data, when present; skipped otherwise) holds both daily files' rows exactly.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: history.path), "needs ../shared/data"))
    func dailyFilesAgreeWithTheHistory() throws {
        let bytes = try Data(contentsOf: Self.history)
        let all = Set(try ECBRatesDecoder.decode(Array(bytes)))
        for file in ["eurofxref-daily.xml", "eurofxref.csv"] {
            let daily = try Self.rates(file)
            #expect(daily.allSatisfy { all.contains($0) }, "\(file) differs from the history")
        }
    }

    @Test func historyCSVSkipsMissingRates() throws {
        let text = "Date,USD,CYP,\n2026-04-13,1.1684,N/A,\n2026-04-10,1.17,N/A,\n"
        let rates = try ECBRatesDecoder.decodeCSV(text)
        #expect(rates.count == 2)
        #expect(rates.allSatisfy { $0.currency == "USD" })
    }

    @Test func readsTheLongDateForm() {
        #expect(ECBRatesDecoder.isoDate(from: "13 April 2026") == "2026-04-13")
        #expect(ECBRatesDecoder.isoDate(from: "1 May 2026") == "2026-05-01")
        #expect(ECBRatesDecoder.isoDate(from: "13 Apr 2026") == nil)
    }
}

/// A product's details read back from their stored form, by the flat reader or (for anything
/// else) the JSON parser, against what Foundation's JSONSerialization reads in the same text.
@Suite struct ProductDetailsStoredFormTests {
    /// The details the stored-form rules give for `text`, read with Foundation: known keys only,
    /// strings for the texts and numbers, a list of strings for the images.
    static func expected(_ text: String) -> ProductDetails {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return ProductDetails() }
        func number(_ key: String) -> ExactDecimal? { (object[key] as? String).flatMap { ExactDecimal.parse($0, maxScale: 2)?.normalized } }
        var details = ProductDetails()
        if let images = object["images"] as? [Any] { details.images = images.compactMap { $0 as? String } }
        details.weight = number("weight")
        if let width = number("width"), let height = number("height"), let depth = number("depth") {
            details.dimensions = Dimensions(width: width, height: height, depth: depth)
        }
        details.warranty = object["warranty"] as? String
        details.shipping = object["shipping"] as? String
        details.returnPolicy = object["return_policy"] as? String
        details.availability = object["availability"] as? String
        return details
    }

    static let texts: [String] = [
        // SQLite's form (compact, shopsh's key order) and PostgreSQL's jsonb output (spaced, its order).
        #"{"images":["https://a/1.webp","https://a/2.webp"],"weight":"2","width":"20.93","height":"1.05","depth":"15.47","warranty":"Lifetime warranty","shipping":"Ships overnight","return_policy":"60 days return policy","availability":"In Stock"}"#,
        #"{"depth": "15.47", "width": "20.93", "height": "1.05", "images": ["https://a/1.webp"], "weight": "2", "shipping": "Ships overnight", "warranty": "1 year", "availability": "Low Stock", "return_policy": "No return policy"}"#,
        #"{"warranty":"say \"no\" \\ then\ttab\u00e9\ud83d\ude00 \#u{1F427}","shipping":"caf\#u{E9}"}"#,
        #"{}"#, #"{"images":[]}"#,
        #"{"warranty":"first","warranty":"second"}"#,                     // the last one counts
        #"{"warranty":["a"],"images":"https://x","weight":"-1x"}"#,       // wrong kinds: absent
        #"{"width":"1","height":"2"}"#,                                    // no depth: no dimensions
        #"{"unknown":{"nested":[1,2]},"shipping":"s","weight":3}"#,       // not flat: the parser reads it
        #"{"images":["https://a",7],"availability":"In Stock"}"#,         // a list of more than strings
        #"not json"#, #"{"shipping":"s""#, #"["https://a"]"#,
    ]

    @Test(arguments: texts)
    func readsLikeAJSONDocument(_ text: String) {
        #expect(ProductDetails(storedJSON: text) == Self.expected(text))
    }

    @Test func theStoredFormReadsBackAsItWasWritten() throws {
        let details = ProductDetails(images: ["https://img.example.com/1.webp", "https://x/\u{22}"], weight: ExactDecimal.parse("2.5", maxScale: 2)?.normalized,
                                     dimensions: try Dimensions.parse("15.14 x 13.08 x 22.99"), warranty: "1 \"year\"\n\\",
                                     shipping: "\u{1}\u{7F}\u{2028}\u{E9}", returnPolicy: "", availability: "In Stock")
        #expect(ProductDetails(storedJSON: details.storedJSON) == details)
        #expect(ProductDetails(storedJSON: ProductDetails().storedJSON) == ProductDetails())
    }
}
