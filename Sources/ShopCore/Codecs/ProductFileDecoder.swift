// ProductFileDecoder: turns a DummyJSON products file (JSON) or a products CSV into NewProducts.
// Used by `products import` and by the demo-shop import, so both follow one set of rules.

/// Decodes product files. Every record is checked; the first bad one is reported with its
/// position and nothing is returned, so an import is all or nothing.
public enum ProductFileDecoder {
    /// The file formats `products import` understands.
    public enum Format: String, Sendable {
        case json, csv

        /// Picks the format from the file name's extension or, failing that, the first byte.
        public static func detect(path: String, bytes: [UInt8]) -> Format {
            let lower = path.lowercased()
            if lower.hasSuffix(".csv") { return .csv }
            if lower.hasSuffix(".json") { return .json }
            let first = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
            return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .csv
        }
    }

    /// Decodes a whole file in `format`.
    ///
    /// - Throws: ``ShopError/invalidInput(_:)`` with a one-line message naming the first bad
    ///   record (see ``decodeJSON(_:)`` and ``decodeCSV(_:)``).
    public static func decode(_ bytes: [UInt8], format: Format) throws(ShopError) -> [NewProduct] {
        switch format {
        case .json: return try decodeJSON(bytes)
        case .csv: return try decodeCSV(bytes)
        }
    }

    /// A DummyJSON array of products, or an object with a `products` array (the API's shape).
    ///
    /// A leading UTF-8 byte-order mark is skipped. The file must hold at least one product,
    /// and no SKU twice (ignoring ASCII case, as the store does).
    public static func decodeJSON(_ bytes: [UInt8]) throws(ShopError) -> [NewProduct] {
        let document = try JSONParser.parse(bytes)
        let elements: [JSONValue]
        switch document {
        case .array(let array):
            elements = array
        case .object(let object):
            guard case .array(let array)? = object["products"] else {
                throw .invalidInput("expected a JSON array of products or an object with a \"products\" array")
            }
            elements = array
        default:
            throw .invalidInput("expected a JSON array of products, found \(document.kindName)")
        }
        guard !elements.isEmpty else { throw .invalidInput("the file has no products (an empty JSON array)") }
        var products: [(product: NewProduct, position: String)] = []
        products.reserveCapacity(elements.count)
        for (offset, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                throw .invalidInput("record \(offset + 1): expected an object, found \(element.kindName)")
            }
            let position = "record \(offset + 1) (line \(object.line))"
            let fields: JSONRecordFields
            do {
                fields = try JSONRecordFields(object: object)
            } catch {
                throw .invalidInput("\(position): \(error.message)")
            }
            products.append((try decodeRecord(fields, position: position), position))
        }
        try refuseRepeatedSKUs(products)
        return products.map(\.product)
    }

    /// A CSV file whose header names the columns (snake_case as shopsh exports them, or DummyJSON's camelCase).
    ///
    /// The first line must be that header and name at least `title`, `category` and `price`;
    /// other known columns are optional and unknown ones (`currency`, `discounted_price` from an
    /// export) are ignored. A leading UTF-8 byte-order mark is skipped. The file must hold at
    /// least one product, and no SKU twice (ignoring ASCII case, as the store does).
    public static func decodeCSV(_ bytes: [UInt8]) throws(ShopError) -> [NewProduct] {
        let records = try CSVReader.records(in: String(decoding: bytes, as: UTF8.self))
        guard let header = records.first else {
            throw .invalidInput("the file is empty: expected a header line naming the columns (\(Columns.summary))")
        }
        let columns = try Columns.check(header)
        guard records.count > 1 else { throw .invalidInput("the file has a header but no products") }
        var products: [(product: NewProduct, position: String)] = []
        products.reserveCapacity(records.count - 1)
        for (offset, record) in records.dropFirst().enumerated() {
            let position = "record \(offset + 1) (line \(record.line))"
            guard record.fields.count == columns.count else {
                throw .invalidInput("\(position): \(record.fields.count) fields, the header has \(columns.count)")
            }
            var values: [String: String] = [:]
            for (column, value) in zip(columns, record.fields) { values[column] = value }
            products.append((try decodeRecord(CSVRecordFields(values: values), position: position), position))
        }
        try refuseRepeatedSKUs(products)
        return products.map(\.product)
    }

    // MARK: - One record

    private static func decodeRecord(_ fields: some RecordFields, position: String) throws(ShopError) -> NewProduct {
        func fail(_ message: String) -> ShopError { .invalidInput("\(position): \(message)") }
        func required(_ key: String) throws(ShopError) -> String {
            guard let value = try fields.text(key), !value.trimmingASCIISpaces.isEmpty else { throw fail("missing \(key)") }
            return value
        }
        do throws(ShopError) {
            let title = try required("title")
            let category = try required("category")
            let priceText = try required("price")
            guard let price = try? Money.parse(priceText, currency: .usd) else {
                throw fail("invalid price \(priceText.quotedForMessage()): expected a number ≥ 0 with at most 2 decimals, like 12.50")
            }
            let discount = try fields.text("discountpercentage").map { (text: String) throws(ShopError) in
                guard let value = try? Percentage.parse(text) else {
                    throw fail("invalid discount percentage \(text.quotedForMessage()): expected a number from 0 to 100 with at most 2 decimals")
                }
                return value
            } ?? .zero
            let stock = try fields.text("stock").map { (text: String) throws(ShopError) -> Int in
                guard let value = Int(text), value >= 0 else { throw fail("invalid stock \(text.quotedForMessage()): expected a whole number ≥ 0") }
                return value
            } ?? 0
            let rating = try fields.text("rating").map { (text: String) throws(ShopError) -> Rating in
                guard let value = ExactDecimal.parse(text, maxScale: 2), value.units <= 500 else {
                    throw fail("invalid rating \(text.quotedForMessage()): expected 0 to 5 with at most 2 decimals")
                }
                return Rating(hundredths: Int(value.units))
            } ?? Rating(hundredths: 0)
            let minimum = try fields.text("minimumorderquantity").map { (text: String) throws(ShopError) -> Int in
                guard let value = Int(text), value >= 1 else {
                    throw fail("invalid minimum order quantity \(text.quotedForMessage()): expected a whole number ≥ 1")
                }
                return value
            } ?? 1
            let id = try fields.text("id").map { (text: String) throws(ShopError) -> Int64 in
                guard let value = Int64(text), ProductLimits.idRange.contains(value) else {
                    throw fail("invalid id \(text.quotedForMessage()): expected a whole number from 1 to \(ProductLimits.maxID)")
                }
                return value
            }
            let barcode = try fields.text("barcode").flatMap { $0.isEmpty ? nil : $0 }.map { (text: String) throws(ShopError) in
                try Barcode.parseShape(text)
            }
            let details = try decodeDetails(fields)
            let reviews = try fields.reviews()
            let sku = try fields.text("sku").flatMap { $0.isEmpty ? nil : $0 }
            let brand = try fields.text("brand").flatMap { $0.isEmpty ? nil : $0 }
            let description = try fields.text("description") ?? ""
            let tags = try fields.tags()
            // SQLite would keep the text only up to a NUL: a file holding one is not text.
            for (name, text) in [("title", title), ("description", description), ("category", category),
                                 ("brand", brand ?? ""), ("sku", sku ?? "")] + tags.map({ ("tags", $0) })
            where text.utf8.contains(0) {
                throw fail("\(name) holds a NUL character")
            }
            let product = NewProduct(id: id, sku: sku, title: title, description: description,
                                     category: category, brand: brand, price: price, discount: discount, stock: stock,
                                     rating: rating, tags: tags, minimumOrderQuantity: minimum, barcode: barcode,
                                     details: details, reviews: reviews)
            try ProductDetailRules.check(details)
            for (offset, review) in reviews.enumerated() {
                do throws(ShopError) { try ReviewRules.check(review) } catch { throw fail("review \(offset + 1): \(error.message)") }
            }
            return product
        } catch {
            if case .invalidInput(let message) = error, !message.hasPrefix(position) { throw fail(message) }
            throw error
        }
    }

    /// A record's details: images (a thumbnail first), weight, dimensions (an object, or width,
    /// height and depth), warranty, shipping, return policy and availability.
    private static func decodeDetails(_ fields: some RecordFields) throws(ShopError) -> ProductDetails {
        func text(_ key: String) throws(ShopError) -> String? { try fields.text(key).flatMap { $0.isEmpty ? nil : $0 } }
        func measure(_ key: String) throws(ShopError) -> ExactDecimal? {
            try text(key).map { (value: String) throws(ShopError) in try ProductDetailRules.measure(value, field: key) }
        }
        var images = try fields.list("images")
        if let thumbnail = try text("thumbnail") {
            images = [thumbnail] + images.filter { $0 != thumbnail }
        }
        let dimensions: Dimensions?
        switch (try measure("width"), try measure("height"), try measure("depth")) {
        case (nil, nil, nil): dimensions = nil
        case let (width?, height?, depth?): dimensions = Dimensions(width: width, height: height, depth: depth)
        default: throw .invalidInput("dimensions need width, height and depth")
        }
        return ProductDetails(images: images, weight: try measure("weight"), dimensions: dimensions, warranty: try text("warranty"),
                              shipping: try text("shipping"), returnPolicy: try text("returnpolicy"),
                              availability: try text("availability"))
    }

    /// Refuses a file that lists one SKU twice. The store's SKUs are unique `COLLATE NOCASE`
    /// (ASCII letters only), so `ab-1` and `AB-1` are the same SKU here too; without this check
    /// the second record would silently update the product the first one just added.
    private static func refuseRepeatedSKUs(_ products: [(product: NewProduct, position: String)]) throws(ShopError) {
        var firstPosition: [String: String] = [:]
        for (product, position) in products {
            guard let sku = product.sku else { continue }
            let key = String(decoding: sku.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
            if let earlier = firstPosition[key] {
                throw .invalidInput("SKU \(sku.quotedForMessage()) is in the file twice: \(earlier) and \(position) (SKUs are unique, ignoring case)")
            }
            firstPosition[key] = position
        }
    }

    /// `discountPercentage`, `discount_percentage` and `Discount Percentage` all become
    /// `discountpercentage`; DummyJSON's longer names of details become shopsh's
    /// (`warrantyInformation`: `warranty`).
    static func normalisedKey(_ key: String) -> String {
        let plain = String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != " " && $0 != "-" })
        return aliases[plain] ?? plain
    }

    private static let aliases = ["warrantyinformation": "warranty", "shippinginformation": "shipping",
                                  "availabilitystatus": "availability"]

    /// A review's moment as a file gives it: `2025-04-30T09:41:02.053Z` (fractions of a second
    /// dropped) or `2025-04-30T09:41:02Z`, or a day (its midnight).
    static func reviewMoment(_ text: String) -> String? {
        var trimmed = text
        if let dot = text.firstIndex(of: "."), text.hasSuffix("Z") { trimmed = String(text[..<dot]) + "Z" }
        if let seconds = ShopClock.parse(trimmed) { return ShopClock.timestamp(seconds) }
        if let day = CalendarDay(iso: text) { return day.description + "T00:00:00Z" }
        return nil
    }
}

// MARK: - CSV header

/// The columns a products CSV may name, as `normalisedKey` gives them.
private enum Columns {
    /// Columns every file must have, in the order messages list them.
    static let required = ["title", "category", "price"]
    /// The other known columns, in the spelling shopsh exports (any case, `_`, `-` or spaces).
    static let optional = ["id", "sku", "description", "brand", "discount_percentage", "stock", "rating",
                           "tags", "minimum_order_quantity", "barcode", "images", "thumbnail", "weight", "width", "height",
                           "depth", "warranty", "shipping", "return_policy", "availability"]

    /// Keys a JSON record may have beyond the columns: DummyJSON's nested ones.
    static let jsonOnly: Set<String> = ["dimensions", "meta", "reviews"]

    /// Every known column, normalised (`minimumorderquantity`).
    static let known = Set(required + optional.map { ProductFileDecoder.normalisedKey($0) })

    /// "title, category, price required; optional: id, sku, …".
    static var summary: String {
        "\(required.joined(separator: ", ")) required; optional: \(optional.joined(separator: ", "))"
    }

    /// The normalised column names of `header`, or an error if it is not a products header.
    static func check(_ header: CSVRecord) throws(ShopError) -> [String] {
        let columns = header.fields.map { ProductFileDecoder.normalisedKey($0) }
        let missing = required.filter { !columns.contains($0) }
        guard missing.isEmpty else {
            throw .invalidInput("line \(header.line) is not a products header: the first line must name the columns "
                + "(\(summary)); missing: \(missing.joined(separator: ", "))")
        }
        var seen: Set<String> = []
        for (column, name) in zip(columns, header.fields) where known.contains(column) {
            guard seen.insert(column).inserted else {
                throw .invalidInput("line \(header.line): the header names the column \(name.trimmingASCIISpaces.quotedForMessage()) twice")
            }
        }
        return columns
    }
}

// MARK: - Field access over JSON objects and CSV rows

private protocol RecordFields {
    /// The value of a field (normalised key) as text, or nil when absent or null.
    func text(_ key: String) throws(ShopError) -> String?
    func tags() throws(ShopError) -> [String]
    /// A list field (`images`): an array of strings, or text separated by commas.
    func list(_ key: String) throws(ShopError) -> [String]
    /// The record's reviews (JSON only).
    func reviews() throws(ShopError) -> [NewReview]
}

private struct JSONRecordFields: RecordFields {
    let values: [String: JSONValue]

    /// The object's known fields by normalised key. Two keys naming one field (`discountPercentage`
    /// and `discount_percentage`) are refused: which value won would depend on hashing order.
    init(object: JSONObject) throws(ShopError) {
        var values: [String: JSONValue] = [:]
        var names: [String: String] = [:]
        for key in object.fields.keys.sorted() {
            let normalised = ProductFileDecoder.normalisedKey(key)
            guard Columns.known.contains(normalised) || Columns.jsonOnly.contains(normalised), let value = object.fields[key] else { continue }
            if let other = names[normalised] {
                throw .invalidInput("the keys \(other.quotedForMessage()) and \(key.quotedForMessage()) name the same field")
            }
            names[normalised] = key
            values[normalised] = value
        }
        self.values = values
    }

    func text(_ key: String) throws(ShopError) -> String? {
        // DummyJSON nests some: `dimensions.width`, `meta.barcode`.
        if values[key] == nil, let (parent, child) = Self.nested[key], case .object(let object)? = values[parent] {
            return try Self.text(object[child], key: key)
        }
        return try Self.text(values[key], key: key)
    }

    private static let nested: [String: (String, String)] = ["width": ("dimensions", "width"), "height": ("dimensions", "height"),
                                                             "depth": ("dimensions", "depth"), "barcode": ("meta", "barcode")]

    private static func text(_ value: JSONValue?, key: String) throws(ShopError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .number(let text)?: return text
        case .bool(let flag)?: return flag ? "true" : "false"
        case let other?: throw .invalidInput("\(key): expected text or a number, found \(other.kindName)")
        }
    }

    func list(_ key: String) throws(ShopError) -> [String] {
        switch values[key] {
        case nil, .null?: return []
        case .array(let elements)?:
            var items: [String] = []
            for element in elements {
                guard case .string(let item) = element else { throw .invalidInput("\(key): expected strings") }
                items.append(item)
            }
            return items
        case .string(let text)?: return CSVRecordFields.splitTags(text)
        case let other?: throw .invalidInput("\(key): expected an array of strings, found \(other.kindName)")
        }
    }

    func reviews() throws(ShopError) -> [NewReview] {
        switch values["reviews"] {
        case nil, .null?: return []
        case .array(let elements)?:
            var reviews: [NewReview] = []
            for (offset, element) in elements.enumerated() {
                guard case .object(let object) = element else { throw .invalidInput("review \(offset + 1): expected an object") }
                var fields: [String: JSONValue] = [:]
                for (key, value) in object.fields { fields[ProductFileDecoder.normalisedKey(key)] = value }
                func text(_ key: String) throws(ShopError) -> String {
                    guard let value = try Self.text(fields[key], key: key) else { throw .invalidInput("review \(offset + 1): missing \(key)") }
                    return value
                }
                let ratingText = try text("rating")
                guard let rating = Int(ratingText) else {
                    throw .invalidInput("review \(offset + 1): invalid rating \(ratingText.quotedForMessage()): expected a whole number from 1 to 5")
                }
                let dateText = try text("date")
                guard let at = ProductFileDecoder.reviewMoment(dateText) else {
                    throw .invalidInput("review \(offset + 1): invalid date \(dateText.quotedForMessage()): expected a moment like 2025-04-30T09:41:02Z")
                }
                reviews.append(NewReview(rating: rating, comment: try Self.text(fields["comment"], key: "comment") ?? "",
                                         reviewerName: try text("reviewername"), reviewerEmail: try text("revieweremail"), at: at))
            }
            return reviews
        case let other?: throw .invalidInput("reviews: expected an array, found \(other.kindName)")
        }
    }

    func tags() throws(ShopError) -> [String] {
        switch values["tags"] {
        case nil, .null?: return []
        case .array(let elements)?:
            var tags: [String] = []
            for element in elements {
                guard case .string(let tag) = element else { throw .invalidInput("tags: expected strings") }
                tags.append(tag)
            }
            return tags
        case .string(let text)?: return CSVRecordFields.splitTags(text)
        case let other?: throw .invalidInput("tags: expected an array of strings, found \(other.kindName)")
        }
    }
}

private struct CSVRecordFields: RecordFields {
    let values: [String: String]

    /// An empty cell counts as absent, so a blank `id` or `stock` takes its default.
    func text(_ key: String) throws(ShopError) -> String? {
        guard let value = values[key], !value.isEmpty else { return nil }
        return value
    }

    func tags() throws(ShopError) -> [String] { Self.splitTags(values["tags"] ?? "") }

    func list(_ key: String) throws(ShopError) -> [String] { Self.splitTags(values[key] ?? "") }

    func reviews() throws(ShopError) -> [NewReview] { [] }

    static func splitTags(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingASCIISpaces }.filter { !$0.isEmpty }
    }
}
