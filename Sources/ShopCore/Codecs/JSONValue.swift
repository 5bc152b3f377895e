// JSONValue: a parsed JSON document that keeps numbers as their exact text.
// Foundation's JSONSerialization turns 9.99 into a Double; imports of prices need the digits.

/// A JSON value. Numbers keep their literal text (`9.99`, `1e3`) so money is parsed exactly.
public indirect enum JSONValue: Hashable, Sendable {
    case object(JSONObject)
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A JSON object with the 1-based line where it starts (used to point at bad records).
public struct JSONObject: Hashable, Sendable {
    public var fields: [String: JSONValue]
    public var line: Int
    /// The keys in the order they first appear in the text (a listing's columns follow it).
    public var keys: [String]

    /// `keys` defaults to the keys of `fields`, sorted.
    public init(fields: [String: JSONValue], line: Int, keys: [String]? = nil) {
        self.fields = fields
        self.line = line
        self.keys = keys ?? fields.keys.sorted()
    }

    public subscript(key: String) -> JSONValue? { fields[key] }

    /// Two objects are equal when their fields and line are: the keys' order is how the text
    /// was written, not what it means.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.fields == rhs.fields && lhs.line == rhs.line
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(line)
    }
}

/// A strict RFC 8259 parser producing `JSONValue`.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// The bytes came from a Swift string, which is valid UTF-8: strings need no validation.
    private var validUTF8 = false

    /// Parses a whole document; trailing content other than whitespace is an error.
    public static func parse(_ bytes: [UInt8]) throws(ShopError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private func error(_ message: String) -> ShopError {
        .invalidInput("invalid JSON at line \(line): \(message)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"): line += 1; index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(ShopError) -> JSONValue {
        guard depth < 512 else { throw error("nesting too deep") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth))
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: return .number(try parseNumber())
        }
    }

    /// A member value of ``stringMembers(_:_:)``: a string or an array of strings.
    public enum StringMember {
        case string(String)
        case strings([String])
    }

    /// Reads an object whose members are strings or arrays of strings (a product's stored
    /// details), calling `member` for each in order, without building a document: a listing reads
    /// one such object per row. False when the text is anything else (`member` may have been
    /// called for the members before): the caller reads it with ``parse(_:)`` instead.
    public static func stringMembers(_ bytes: [UInt8], _ member: (String, StringMember) -> Void) -> Bool {
        var parser = JSONParser(bytes: bytes)
        return parser.readStringMembers(calling: member)
    }

    /// ``stringMembers(_:_:)`` of a string's text (valid UTF-8 already: its strings are not checked again).
    public static func stringMembers(_ text: String, _ member: (String, StringMember) -> Void) -> Bool {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.validUTF8 = true
        return parser.readStringMembers(calling: member)
    }

    private mutating func readStringMembers(calling member: (String, StringMember) -> Void) -> Bool {
        do {
            try readStringMembers(member)
            return true
        } catch {
            return false
        }
    }

    private mutating func readStringMembers(_ member: (String, StringMember) -> Void) throws(ShopError) {
        func expect(_ byte: UInt8) throws(ShopError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected character") }
            index += 1
        }
        func next() -> UInt8? {
            skipWhitespace()
            return index < bytes.count ? bytes[index] : nil
        }
        try expect(UInt8(ascii: "{"))
        if next() == UInt8(ascii: "}") { index += 1 } else {
            while true {
                guard next() == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let key = try parseString()
                try expect(UInt8(ascii: ":"))
                switch next() {
                case UInt8(ascii: "\""):
                    member(key, .string(try parseString()))
                case UInt8(ascii: "["):
                    index += 1
                    var strings: [String] = []
                    if next() == UInt8(ascii: "]") { index += 1 } else {
                        while true {
                            guard next() == UInt8(ascii: "\"") else { throw error("expected a string") }
                            strings.append(try parseString())
                            guard let separator = next() else { throw error("unterminated array") }
                            index += 1
                            if separator == UInt8(ascii: "]") { break }
                            guard separator == UInt8(ascii: ",") else { throw error("expected ',' or ']' in array") }
                        }
                    }
                    member(key, .strings(strings))
                default:
                    throw error("expected a string or an array of strings")
                }
                guard let separator = next() else { throw error("unterminated object") }
                index += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in object") }
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
    }

    private mutating func expectLiteral(_ word: String) throws(ShopError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected character")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(ShopError) -> JSONObject {
        let startLine = line
        index += 1
        var fields: [String: JSONValue] = [:]
        var keys: [String] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(fields: fields, line: startLine, keys: keys)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key \(key.quotedForMessage())") }
            index += 1
            skipWhitespace()
            if fields.updateValue(try parseValue(depth: depth + 1), forKey: key) == nil { keys.append(key) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return JSONObject(fields: fields, line: startLine, keys: keys) }
            throw error("expected ',' or '}' in object")
        }
    }

    private mutating func parseArray(depth: Int) throws(ShopError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']' in array")
        }
    }

    private mutating func parseString() throws(ShopError) -> String {
        index += 1
        // Most strings hold no escapes: they are the bytes up to the closing quote.
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
              bytes[index] >= 0x20 {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            if validUTF8 { return String(decoding: bytes[start..<index - 1], as: UTF8.self) }
            guard let text = String(validating: bytes[start..<index - 1], as: UTF8.self) else { throw error("invalid UTF-8 in string") }
            return text
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in string")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape in string")
                }
            default:
                guard byte >= 0x20 else { throw error("control character in string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(ShopError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// Validates the JSON number grammar and returns its text unchanged.
    private mutating func parseNumber() throws(ShopError) -> String {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingDigitIndex = index
        guard digits() > 0 else { throw error("unexpected character") }
        if bytes[leadingDigitIndex] == UInt8(ascii: "0"), index - leadingDigitIndex > 1 { throw error("number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("number without digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("number without digits in exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
