// ProductDetails: what the catalogue says of a product beyond its price and stock — images (the
// first is the thumbnail), weight and dimensions, warranty, shipping and return-policy text and
// the availability status — with their rules, and the one JSON form both stores keep them in.

/// A product's details; every field may be absent (nil, or no images).
public struct ProductDetails: Hashable, Sendable {
    /// Image URLs; the first is the thumbnail.
    public var images: [String]
    /// The weight, as the catalogue gives it (the demo's are whole numbers).
    public var weight: ExactDecimal?
    /// Width, height and depth, as the catalogue gives them.
    public var dimensions: Dimensions?
    public var warranty: String?
    public var shipping: String?
    public var returnPolicy: String?
    /// "In Stock", "Low Stock", "Out of Stock"… as the catalogue says it (kept, not derived from stock).
    public var availability: String?

    public init(images: [String] = [], weight: ExactDecimal? = nil, dimensions: Dimensions? = nil, warranty: String? = nil,
                shipping: String? = nil, returnPolicy: String? = nil, availability: String? = nil) {
        self.images = images
        self.weight = weight
        self.dimensions = dimensions
        self.warranty = warranty
        self.shipping = shipping
        self.returnPolicy = returnPolicy
        self.availability = availability
    }

    public var isEmpty: Bool { self == ProductDetails() }

    /// The thumbnail: the first image.
    public var thumbnail: String? { images.first }

    /// The three text fields' output names and values, in output order.
    public var texts: [(field: String, value: String?)] {
        [("warranty", warranty), ("shipping", shipping), ("return_policy", returnPolicy), ("availability", availability)]
    }
}

/// Width, height and depth.
public struct Dimensions: Hashable, Sendable, CustomStringConvertible {
    public var width: ExactDecimal
    public var height: ExactDecimal
    public var depth: ExactDecimal

    public init(width: ExactDecimal, height: ExactDecimal, depth: ExactDecimal) {
        self.width = width
        self.height = height
        self.depth = depth
    }

    /// `15.14 x 13.08 x 22.99` (width × height × depth), as `--dimensions` takes it.
    public var description: String { "\(width) x \(height) x \(depth)" }

    /// Parses `W x H x D` (or `WxHxD`, `W×H×D`).
    public static func parse(_ text: String) throws(ShopError) -> Dimensions {
        let parts = String(text.lowercased().map { $0 == "×" ? "x" : $0 }).split(separator: "x", omittingEmptySubsequences: false)
        let values = try parts.map { part throws(ShopError) in try ProductDetailRules.measure(String(part).trimmingASCIISpaces, field: "dimension") }
        guard values.count == 3 else {
            throw .invalidInput("invalid dimensions \(text.quotedForMessage()): expected width x height x depth, like 15.14 x 13.08 x 22.99")
        }
        return Dimensions(width: values[0], height: values[1], depth: values[2])
    }
}

/// What details may hold.
public enum ProductDetailRules {
    public static let maxImages = 20
    public static let maxURLLength = 2_000
    public static let maxTextLength = 200
    /// The largest weight or dimension (in hundredths: 1,000,000.00).
    public static let maxMeasureHundredths: Int64 = 100_000_000

    /// A weight or dimension: a number ≥ 0 with at most 2 decimals, at most 1,000,000.
    public static func measure(_ text: String, field: String) throws(ShopError) -> ExactDecimal {
        guard let value = ExactDecimal.parse(text, maxScale: 2), let hundredths = value.rescaled(to: 2),
              hundredths.units <= maxMeasureHundredths else {
            throw .invalidInput("invalid \(field) \(text.quotedForMessage()): expected a number from 0 to 1000000 with at most 2 decimals")
        }
        return value.normalized
    }

    /// An image URL: http(s), no spaces, quotes or control characters, at most `maxURLLength` bytes.
    public static func checkImage(_ url: String) throws(ShopError) {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), url.utf8.count <= maxURLLength,
              url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "," }) else {
            throw .invalidInput("invalid image URL \(url.quotedForMessage()): expected an http(s) URL of printable ASCII without spaces or commas")
        }
    }

    /// Checks every field.
    public static func check(_ details: ProductDetails) throws(ShopError) {
        guard details.images.count <= maxImages else {
            throw .invalidInput("too many images: \(details.images.count), at most \(maxImages)")
        }
        for image in details.images { try checkImage(image) }
        for (field, value) in details.texts {
            if let value { try ProductRules.checkText(value, field: field, maxLength: maxTextLength) }
        }
        for (field, value) in [("weight", details.weight), ("width", details.dimensions?.width),
                               ("height", details.dimensions?.height), ("depth", details.dimensions?.depth)] {
            if let value, value.units < 0 || (value.rescaled(to: 2)?.units ?? .max) > maxMeasureHundredths {
                throw .invalidInput("invalid \(field) \(value): expected a number from 0 to 1000000")
            }
        }
    }
}

// MARK: - Stored form

extension ProductDetails {
    /// The details as both stores keep them: one compact JSON object, keys in a fixed order, absent
    /// fields left out (empty details: `{}`); numbers as text, exact.
    public var storedJSON: String {
        var fields: [String] = []
        func add(_ key: String, _ value: String?) { if let value { fields.append("\"\(key)\":\(JSONValue.quoted(value))") } }
        if !images.isEmpty { fields.append("\"images\":[" + images.map(JSONValue.quoted).joined(separator: ",") + "]") }
        add("weight", weight?.description)
        add("width", dimensions?.width.description)
        add("height", dimensions?.height.description)
        add("depth", dimensions?.depth.description)
        for (field, value) in texts { add(field, value) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Reads `storedJSON`'s form; empty details for empty text (a listing that leaves them out)
    /// or anything unreadable (a store's CHECK keeps that out). Unknown keys are left out, a
    /// repeated key's last value counts, a field of the wrong kind is absent.
    public init(storedJSON text: String) {
        self.init()
        guard !text.isEmpty else { return }
        var reader = StoredDetailsReader()
        // The stored form holds strings and one list of strings: read without building a document
        // (a listing reads one a row); anything else is read as a JSON document.
        let flat = JSONParser.stringMembers(text) { key, value in
            switch value {
            case .string(let text): reader.set(key, string: text, strings: nil)
            case .strings(let texts): reader.set(key, string: nil, strings: texts)
            }
        }
        if !flat {
            reader = StoredDetailsReader()
            guard case .object(let object)? = try? JSONParser.parse(Array(text.utf8)) else { return }
            for (key, value) in object.fields {
                switch value {
                case .string(let text): reader.set(key, string: text, strings: nil)
                case .array(let values): reader.set(key, string: nil, strings: values.compactMap { if case .string(let url) = $0 { url } else { nil } })
                default: reader.set(key, string: nil, strings: nil)
                }
            }
        }
        self = reader.details
    }
}

/// The stored form's members as they are read, then made into details.
private struct StoredDetailsReader {
    var images: [String] = []
    var weight, width, height, depth: String?
    var texts = ProductDetails()

    /// A member: `string` when its value is a string, `strings` when a list of them.
    mutating func set(_ key: String, string: String?, strings: [String]?) {
        switch key {
        case "images": images = strings ?? []
        case "weight": weight = string
        case "width": width = string
        case "height": height = string
        case "depth": depth = string
        case "warranty": texts.warranty = string
        case "shipping": texts.shipping = string
        case "return_policy": texts.returnPolicy = string
        case "availability": texts.availability = string
        default: break
        }
    }

    var details: ProductDetails {
        func number(_ text: String?) -> ExactDecimal? { text.flatMap { ExactDecimal.parse($0, maxScale: 2)?.normalized } }
        var details = texts
        details.images = images
        details.weight = number(weight)
        if let width = number(width), let height = number(height), let depth = number(depth) {
            details.dimensions = Dimensions(width: width, height: height, depth: depth)
        }
        return details
    }
}

extension JSONValue {
    /// `text` as a JSON string: quotes, backslashes and control characters (C0, DEL, C1, and the
    /// line and paragraph separators) escaped. Works on the UTF-8 bytes, copying each run that
    /// needs nothing (a bulk change quotes 200,000 audit texts; scalar by scalar took 0.8 s).
    public static func quoted(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
        var out: [UInt8] = [0x22]
        out.reserveCapacity(utf8.count + 16)
        func escape(_ value: UInt32) {
            let hex = Array("0123456789abcdef".utf8)
            out += [0x5C, 0x75] + [12, 8, 4, 0].map { hex[Int((value >> UInt32($0)) & 0xF)] }
        }
        let bytes = Array(utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20, 0x7F: escape(UInt32(byte))
            // U+0080…U+009F (C2 80…9F) and U+2028, U+2029 (E2 80 A8, A9).
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                escape(UInt32(bytes[index + 1]))
                index += 1
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}
