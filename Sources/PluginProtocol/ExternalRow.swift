// ExternalRow: one line of an external plugin's NDJSON output turned into cells: strings are
// text, whole numbers integers, other numbers exact decimals (from their digits, never a Double).

import ShopCore
import ShopOutput

/// Reads the rows an external plugin prints.
public enum ExternalRow {
    /// The most bytes one line may have.
    public static let lineCap = 1 << 20

    /// Parses line `number` of the output: one flat JSON object.
    public static func object(_ bytes: ArraySlice<UInt8>, number: Int) throws(ShopError) -> JSONObject {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .invalidInput("output line \(number) is not UTF-8")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(bytes))
        } catch {
            let message = error.message.replacingPrefix("invalid JSON at line 1: ", with: "")
            throw .invalidInput("output line \(number) is not valid JSON: \(message)")
        }
        guard case .object(let object) = value else {
            throw .invalidInput("output line \(number) is \(value.kindName), not a JSON object")
        }
        return object
    }

    /// The cells of `object` under `columns` (a missing key is null; keys not in `columns` are left out).
    public static func cells(_ object: JSONObject, columns: [String], number: Int) throws(ShopError) -> [Cell] {
        var cells: [Cell] = []
        cells.reserveCapacity(columns.count)
        for key in columns {
            cells.append(try cell(object[key] ?? .null, key: key, number: number))
        }
        return cells
    }

    static func cell(_ value: JSONValue, key: String, number: Int) throws(ShopError) -> Cell {
        switch value {
        case .string(let text): return .text(text)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .number(let text): return numberCell(text)
        case .array(let items):
            var texts: [String] = []
            for item in items {
                switch item {
                case .string(let text), .number(let text): texts.append(text)
                case .bool(let flag): texts.append(flag ? "true" : "false")
                default: throw .invalidInput("output line \(number): \"\(key)\" holds \(item.kindName) in a list; rows are flat")
                }
            }
            return .list(texts)
        case .object:
            throw .invalidInput("output line \(number): \"\(key)\" is an object; rows are flat")
        }
    }

    /// `12` → integer, `9.99` → exact decimal with its own scale, `1e3` (or too large) → its text.
    public static func numberCell(_ text: String) -> Cell {
        if let whole = Int64(text) { return .integer(whole) }
        let fraction = text.split(separator: ".", omittingEmptySubsequences: false)
        if fraction.count == 2, let decimal = ExactDecimal.parse(text, maxScale: fraction[1].count, allowNegative: true) {
            return .decimal(decimal)
        }
        return .text(text)
    }
}

/// Splits a plugin's stdout into lines, holding at most ``ExternalRow/lineCap`` bytes of a line.
public struct LineSplitter {
    private var buffer: [UInt8] = []
    private var start = 0
    public private(set) var lineNumber = 0

    public init() {}

    /// Adds bytes read.
    public mutating func append(_ chunk: [UInt8]) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer += chunk
    }

    /// The next complete line (without its newline), or nil when more bytes are needed.
    /// `atEnd`: the output ended, so a last line without a newline counts.
    public mutating func next(atEnd: Bool = false) throws(ShopError) -> ArraySlice<UInt8>? {
        guard start < buffer.count else { return nil }
        if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            lineNumber += 1
            guard line.count <= ExternalRow.lineCap else { throw tooLong() }
            return line
        }
        guard buffer.count - start <= ExternalRow.lineCap else {
            lineNumber += 1
            throw tooLong()
        }
        guard atEnd else { return nil }
        let line = buffer[start...]
        start = buffer.count
        lineNumber += 1
        return line
    }

    private func tooLong() -> ShopError {
        .invalidInput("output line \(lineNumber) is longer than \(ExternalRow.lineCap) bytes")
    }
}

private extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
