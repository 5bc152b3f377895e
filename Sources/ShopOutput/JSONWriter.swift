// JSONWriter: json (one array, one object a line) and ndjson listings, written as text directly.

/// Streams rows as JSON objects: inside an array for `json`, one a line for `ndjson`.
///
/// Keys follow the column order; strings are escaped per RFC 8259 (plus U+2028/U+2029, and, when
/// the output reaches a terminal, every control character of `TerminalEscaping`'s rule: DEL, C1
/// and bidi controls too); decimals are bare numbers spelt exactly as `ExactDecimal.description`.
final class JSONWriter: RowWriter {
    /// `array` writes `[`, objects separated by `,` and a newline, `]`; `lines` writes one object a line.
    enum Style { case array, lines }

    private let style: Style
    private let projection: FieldProjection
    private let keyPrefixes: [[UInt8]]
    private let toTerminal: Bool
    private let sink: OutputSink
    private var count = 0
    private var finished = false

    init(style: Style, projection: FieldProjection, toTerminal: Bool = false, sink: OutputSink) {
        self.style = style
        self.projection = projection
        self.keyPrefixes = Self.keyPrefixes(projection.columns, toTerminal: toTerminal)
        self.toTerminal = toTerminal
        self.sink = sink
    }

    func write(_ row: [Cell]) throws {
        projection.checkShape(row)
        let isFirst = count == 0
        try sink.appendRow { out in
            if style == .array {
                out.append(isFirst ? UInt8(ascii: "[") : UInt8(ascii: ","))
                out.append(0x0A)
            }
            Self.appendObject(row, projection: projection, keyPrefixes: keyPrefixes, toTerminal: toTerminal, to: &out)
            if style == .lines { out.append(0x0A) }
        }
        count += 1
    }

    func finish() throws -> Int {
        if style == .array && !finished {
            sink.write(count == 0 ? "[]\n" : "\n]\n")
        }
        finished = true
        try sink.flush()
        return count
    }

    /// Writes one record as a single object and a newline.
    static func writeRecord(_ row: [Cell], projection: FieldProjection, toTerminal: Bool = false, sink: OutputSink) throws {
        projection.checkShape(row)
        let keyPrefixes = keyPrefixes(projection.columns, toTerminal: toTerminal)
        try sink.appendRow { out in
            appendObject(row, projection: projection, keyPrefixes: keyPrefixes, toTerminal: toTerminal, to: &out)
            out.append(0x0A)
        }
        try sink.flush()
    }

    // MARK: - Objects and values

    /// `{"id":` for the first column, `,"sku":` for the others: built once per listing.
    private static func keyPrefixes(_ columns: [Column], toTerminal: Bool) -> [[UInt8]] {
        columns.enumerated().map { position, column in
            var prefix: [UInt8] = [position == 0 ? UInt8(ascii: "{") : UInt8(ascii: ",")]
            appendString(column.key, toTerminal: toTerminal, to: &prefix)
            prefix.append(UInt8(ascii: ":"))
            return prefix
        }
    }

    private static func appendObject(_ row: [Cell], projection: FieldProjection, keyPrefixes: [[UInt8]],
                                     toTerminal: Bool, to out: inout [UInt8]) {
        if keyPrefixes.isEmpty { out.append(UInt8(ascii: "{")) }
        for position in keyPrefixes.indices {
            out.append(contentsOf: keyPrefixes[position])
            appendValue(projection.cell(position, of: row), toTerminal: toTerminal, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    static func appendValue(_ cell: Cell, toTerminal: Bool = false, to out: inout [UInt8]) {
        switch cell {
        case .text(let text): appendString(text, toTerminal: toTerminal, to: &out)
        case .integer(let value): out.append(integer: value)
        case .decimal(let value): out.append(decimal: value)
        case .bool(let value): out.append(text: value ? "true" : "false")
        case .null: out.append(text: "null")
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(item, toTerminal: toTerminal, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(field.key, toTerminal: toTerminal, to: &out)
                out.append(UInt8(ascii: ":"))
                appendValue(field.value, toTerminal: toTerminal, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: - Strings

    /// Appends `text` as a JSON string: quotes, `"` `\` and controls escaped (`\n`, `\u001b`),
    /// and U+2028/U+2029 as `\u2028`/`\u2029` so the output is also valid JavaScript. With
    /// `toTerminal`, every other character `TerminalEscaping` would escape (DEL, C1 and bidi
    /// controls) is a `\uXXXX` escape too.
    static func appendString(_ text: String, toTerminal: Bool = false, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        text.withUTF8Bytes { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escapeLength: Int
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    escapeLength = 1
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                          bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    escapeLength = 3
                } else if toTerminal, byte >= 0x7F, let (scalar, length) = TerminalEscaping.control(in: bytes, at: index) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    appendEscape(scalar, to: &out)
                    index += length
                    runStart = index
                    continue
                } else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(escapeLength == 1 ? UInt32(byte) : 0x2000 + UInt32(bytes[index + 2] - 0x80), to: &out)
                index += escapeLength
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ scalar: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(UInt8(ascii: "u"))
            out.append(hex: scalar, digits: 4)
        }
    }
}
