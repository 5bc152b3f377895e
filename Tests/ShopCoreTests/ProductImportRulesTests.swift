// ProductImportRulesTests: what `products import` refuses and accepts beyond well-formed records:
// byte-order marks, headers, empty files, repeated SKUs, the id range and clean error messages.

import Testing
@testable import ShopCore

@Suite struct ProductImportRulesTests {
    static let header = "id,sku,title,category,price\r\n"

    /// The message of the error `body` throws, or nil (recorded as an issue) if it does not throw.
    static func message(_ body: () throws(ShopError) -> [NewProduct]) -> String? {
        do {
            let products = try body()
            Issue.record("accepted, gave \(products.count) products")
            return nil
        } catch {
            guard case .invalidInput(let message) = error else {
                Issue.record("expected invalidInput, got \(error)")
                return nil
            }
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                    "raw control characters in \(message.debugDescription)")
            return message
        }
    }

    static func csv(_ text: String) -> () throws(ShopError) -> [NewProduct] {
        { () throws(ShopError) in try ProductFileDecoder.decodeCSV(Array(text.utf8)) }
    }

    static func json(_ text: String) -> () throws(ShopError) -> [NewProduct] {
        { () throws(ShopError) in try ProductFileDecoder.decodeJSON(Array(text.utf8)) }
    }

    // MARK: - Byte-order mark

    @Test func csvWithAByteOrderMarkImports() throws {
        let products = try ProductFileDecoder.decode(Array("\u{FEFF}title,category,price\r\nMug,kitchen,9.99\r\n".utf8), format: .csv)
        #expect(products.map(\.title) == ["Mug"])
        #expect(products.map(\.price.minorUnits) == [999])
    }

    @Test func jsonWithAByteOrderMarkImports() throws {
        let products = try ProductFileDecoder.decode([0xEF, 0xBB, 0xBF] + Array(#"[{"title":"Mug","category":"kitchen","price":9.99}]"#.utf8), format: .json)
        #expect(products.map(\.title) == ["Mug"])
    }

    @Test func formatDetectionLooksPastTheByteOrderMark() {
        #expect(ProductFileDecoder.Format.detect(path: "in", bytes: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .json)
        #expect(ProductFileDecoder.Format.detect(path: "in", bytes: [0xEF, 0xBB, 0xBF] + Array("title".utf8)) == .csv)
    }

    @Test func ecbCSVWithAByteOrderMarkDecodes() throws {
        let rates = try ECBRatesDecoder.decode(Array("\u{FEFF}Date,USD\n2026-04-13,1.1684\n".utf8))
        #expect(rates == [CurrencyRate(date: "2026-04-13", currency: "USD", rate: ExactDecimal(units: 1_168_400, scale: 6))])
    }

    // MARK: - Header and empty files

    @Test func aFileWithoutAHeaderIsRefusedNamingTheColumns() throws {
        let message = try #require(Self.message(Self.csv("1,Mug,kitchen,9.99\r\n2,Tea,groceries,2.50\r\n")))
        #expect(message.contains("line 1 is not a products header"))
        for column in ["title", "category", "price", "sku", "discount_percentage", "minimum_order_quantity"] {
            #expect(message.contains(column), "\(column) not named in \(message)")
        }
    }

    @Test func aHeaderWithoutRowsHasNoProducts() throws {
        let message = try #require(Self.message(Self.csv("title,category,price\r\n")))
        #expect(message == "the file has a header but no products")
    }

    @Test func anEmptyFileIsRefused() throws {
        let csv = try #require(Self.message(Self.csv("")))
        #expect(csv.contains("the file is empty") && csv.contains("title, category, price"))
        let json = try #require(Self.message(Self.json("[]")))
        #expect(json.contains("no products"))
    }

    @Test func aColumnNamedTwiceIsRefused() throws {
        let message = try #require(Self.message(Self.csv("title,category,price,Title\r\nMug,kitchen,9.99,Cup\r\n")))
        #expect(message == #"line 1: the header names the column "Title" twice"#)
    }

    @Test func twoJSONKeysNamingOneFieldAreRefused() throws {
        // Found by fuzz/FuzzProductJSON: which of the two values was used depended on hashing order.
        let text = #"[{"title": "a", "category": "c", "price": 1, "discountPercentage": 5, "discount_percentage": 50}]"#
        let message = try #require(Self.message(Self.json(text)))
        #expect(message == #"record 1 (line 1): the keys "discountPercentage" and "discount_percentage" name the same field"#)
        // Unknown keys may repeat: they are ignored.
        #expect(try ProductFileDecoder.decodeJSON(Array(#"[{"title": "a", "category": "c", "price": 1, "x_y": 1, "xy": 2}]"#.utf8)).count == 1)
    }

    @Test func unknownColumnsAreIgnoredAndBlankCellsTakeDefaults() throws {
        let text = "id,title,category,price,currency,discounted_price,stock,rating\r\n,Mug,kitchen,9.99,USD,9.99,,\r\n"
        let products = try ProductFileDecoder.decodeCSV(Array(text.utf8))
        #expect(products.count == 1)
        #expect(products[0].id == nil && products[0].stock == 0 && products[0].rating.hundredths == 0)
    }

    // MARK: - Repeated SKUs

    @Test func aSKUListedTwiceIgnoringCaseIsRefusedNamingBothRecords() throws {
        let text = Self.header + "1,K-1,Mug,kitchen,9.99\r\n2,K-2,Cup,kitchen,4.99\r\n3,k-1,Pot,kitchen,19.99\r\n"
        let message = try #require(Self.message(Self.csv(text)))
        #expect(message == #"SKU "k-1" is in the file twice: record 1 (line 2) and record 3 (line 4) (SKUs are unique, ignoring case)"#)
    }

    @Test func jsonRepeatedSKUsAreRefusedToo() throws {
        let text = """
            [{"sku": "AB-1", "title": "a", "category": "c", "price": 1},
             {"sku": "ab-1", "title": "b", "category": "c", "price": 2}]
            """
        let message = try #require(Self.message(Self.json(text)))
        #expect(message.contains(#"SKU "ab-1""#) && message.contains("record 1 (line 1)") && message.contains("record 2 (line 2)"))
    }

    @Test func skusThatDifferOutsideASCIIAreDistinctAsInTheStore() throws {
        // SQLite's NOCASE folds A–Z only, so É-1 and é-1 are two SKUs there and here.
        let products = try ProductFileDecoder.decodeCSV(Array((Self.header + "1,É-1,a,c,1\r\n2,é-1,b,c,2\r\n").utf8))
        #expect(products.compactMap(\.sku) == ["É-1", "é-1"])
    }

    // MARK: - Ids

    @Test(arguments: ["0", "-1", "9007199254740992", "9223372036854775808", "1.0", "x"])
    func idsOutsideTheRangeAreRefusedNamingTheRecord(id: String) throws {
        let message = try #require(Self.message(Self.csv(Self.header + "1,A-1,a,c,1\r\n\(id),A-2,b,c,2\r\n")))
        #expect(message.hasPrefix("record 2 (line 3): invalid id \"\(id)\""))
        #expect(message.hasSuffix("expected a whole number from 1 to 9007199254740991"))
    }

    @Test func theLargestIdIsAccepted() throws {
        let json = #"[{"id": 9007199254740991, "title": "a", "category": "c", "price": 1}]"#
        #expect(try ProductFileDecoder.decodeJSON(Array(json.utf8)).map(\.id) == [ProductLimits.maxID])
        #expect(ProductLimits.maxID == (1 << 53) - 1 && ProductLimits.idRange.lowerBound == 1)
    }

    // MARK: - Messages quote file content as data

    @Test func controlCharactersFromTheFileAreEscapedInMessages() throws {
        let text = Self.header + "1,A-1,a,c,\"1\u{1B}[31m\n2\"\r\n"
        let message = try #require(Self.message(Self.csv(text)))
        #expect(message == #"record 1 (line 2): invalid price "1\u{1B}[31m\n2": expected a number ≥ 0 with at most 2 decimals, like 12.50"#)
    }

    @Test func longFieldsAreCutInMessages() throws {
        let message = try #require(Self.message(Self.csv(Self.header + "1,A-1,a,c,\(String(repeating: "9", count: 500))x\r\n")))
        #expect(message.count < 150)
        #expect(message.contains(String(repeating: "9", count: 40) + "…\""))
    }

    @Test func quotingForMessages() {
        #expect("a\"b\\c\td".quotedForMessage() == #""a\"b\\c\td""#)
        #expect("\u{202E}x\u{85}".quotedForMessage() == #""\u{202E}x\u{85}""#)
        #expect("héllo".quotedForMessage(limit: 3) == "\"hél…\"")
    }
}
