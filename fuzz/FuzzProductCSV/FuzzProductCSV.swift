// FuzzProductCSV: libFuzzer target for the CSV reader and the products CSV importer: each
// either returns values that obey the import rules or throws a one-line ShopError, and what
// it returns survives being written as CSV and read again. Run by fuzz/run.

import FuzzSupport
import ShopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProductCSV(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let text = String(decoding: bytes, as: UTF8.self)

    // The reader: records come back in line order and survive writing and reading again.
    do {
        let records = try CSVReader.records(in: text)
        var previous = 0
        for record in records {
            require(record.line > previous, "record lines out of order")
            previous = record.line
        }
        let again = try? CSVReader.records(in: writeCSV(records.map(\.fields)))
        require(again?.map(\.fields) == records.map(\.fields), "CSV records do not round-trip: \(records)")
    } catch {
        requireImportError(error, "CSVReader")
    }

    // The importer, with and without a byte-order mark in front.
    let products: [NewProduct]
    do {
        products = try ProductFileDecoder.decodeCSV(bytes)
    } catch {
        requireImportError(error, "decodeCSV")
        if !bytes.starts(with: byteOrderMark) {
            require((try? ProductFileDecoder.decodeCSV(byteOrderMark + bytes)) == nil, "a BOM made a bad file good")
        }
        return 0
    }
    requireValidProducts(products, "decodeCSV")
    if !bytes.starts(with: byteOrderMark) {
        require((try? ProductFileDecoder.decodeCSV(byteOrderMark + bytes)) == products, "a BOM changed the products")
    }
    let written = Array(writeCSV([columns] + products.map(row)).utf8)
    do {
        let again = try ProductFileDecoder.decodeCSV(written)
        require(again == products, "products do not round-trip: \(products) vs \(again)")
    } catch {
        require(false, "re-reading the products failed: \(error)")
    }
    return 0
}

let columns = ["id", "sku", "title", "description", "category", "brand", "price", "discount_percentage",
               "stock", "rating", "tags", "minimum_order_quantity"]

func row(_ product: NewProduct) -> [String] {
    [product.id.map { String($0) } ?? "", product.sku ?? "", product.title, product.description, product.category,
     product.brand ?? "", product.price.decimalString, product.discount.description, String(product.stock),
     product.rating.description, product.tags.joined(separator: ","), String(product.minimumOrderQuantity)]
}

/// Every field quoted, quotes doubled, CRLF line ends.
func writeCSV(_ rows: [[String]]) -> String {
    rows.map { fields in
        // By bytes: a quote followed by a combining mark is one Character but still a quote.
        fields.map { field in
            "\"" + String(decoding: field.utf8.flatMap { $0 == UInt8(ascii: "\"") ? [$0, $0] : [$0] }, as: UTF8.self) + "\""
        }.joined(separator: ",")
    }.joined(separator: "\r\n") + "\r\n"
}
