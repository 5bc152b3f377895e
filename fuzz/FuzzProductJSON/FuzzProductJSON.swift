// FuzzProductJSON: libFuzzer target for the JSON parser and the DummyJSON products importer:
// each either returns values that obey the rules or throws a one-line ShopError; a parsed
// document and the decoded products survive being written as JSON and read again. Run by fuzz/run.

import FuzzSupport
import ShopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProductJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)

    do {
        let document = try JSONParser.parse(bytes)
        let written = write(document)
        let again = try? JSONParser.parse(Array(written.utf8))
        require(again.map(write) == written, "JSON does not round-trip: \(written)")
    } catch {
        requireImportError(error, "JSONParser")
    }

    let products: [NewProduct]
    do {
        products = try ProductFileDecoder.decodeJSON(bytes)
    } catch {
        requireImportError(error, "decodeJSON")
        return 0
    }
    requireValidProducts(products, "decodeJSON")
    if !bytes.starts(with: byteOrderMark) {
        require((try? ProductFileDecoder.decodeJSON(byteOrderMark + bytes)) == products, "a BOM changed the products")
    }
    let written = Array(("[" + products.map(object).joined(separator: ",\n") + "]").utf8)
    do {
        let again = try ProductFileDecoder.decodeJSON(written)
        require(again == products, "products do not round-trip: \(products) vs \(again)")
    } catch {
        require(false, "re-reading the products failed: \(error)")
    }
    return 0
}

/// A product as a DummyJSON object.
func object(_ product: NewProduct) -> String {
    var fields: [String: JSONValue] = [
        "title": .string(product.title), "description": .string(product.description),
        "category": .string(product.category), "price": .number(product.price.decimalString),
        "discountPercentage": .number(product.discount.description), "stock": .number(String(product.stock)),
        "rating": .number(product.rating.description), "tags": .array(product.tags.map { .string($0) }),
        "minimumOrderQuantity": .number(String(product.minimumOrderQuantity)),
    ]
    if let id = product.id { fields["id"] = .number(String(id)) }
    if let sku = product.sku { fields["sku"] = .string(sku) }
    if let brand = product.brand { fields["brand"] = .string(brand) }
    return write(.object(JSONObject(fields: fields, line: 1)))
}

/// Canonical JSON text: keys sorted, numbers as parsed, strings escaped minimally.
func write(_ value: JSONValue) -> String {
    switch value {
    case .object(let object):
        return "{" + object.fields.keys.sorted().map { key in
            writeString(key) + ":" + write(object.fields[key] ?? .null)
        }.joined(separator: ",") + "}"
    case .array(let elements): return "[" + elements.map(write).joined(separator: ",") + "]"
    case .string(let text): return writeString(text)
    case .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    }
}

func writeString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
