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

    @Test(arguments: ["[1,]", "{\"a\" 1}", "[01]", "\"abc", "[1] x", "{\"a\":tru}", "[\"\u{01}\"]", ""])
    func rejectsInvalidDocuments(text: String) {
        #expect(throws: ShopError.self) { try JSONParser.parse(Array(text.utf8)) }
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
