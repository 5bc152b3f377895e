// Cell: one value of an output row, typed so that each format can print it faithfully.

import ShopCore

/// One value in a row handed to the output layer.
///
/// The case decides how each format prints the value: numbers are bare JSON numbers and
/// right-aligned in tables, text is escaped for the terminal, lists become JSON arrays.
public indirect enum Cell: Sendable, Hashable {
    /// Free text, shown escaped in tables and quoted or escaped in the other formats.
    case text(String)
    /// A whole number.
    case integer(Int64)
    /// An exact number, printed as `ExactDecimal.description` (`9.99`, `12.50`), never via floating point.
    case decimal(ExactDecimal)
    /// `true` or `false`.
    case bool(Bool)
    /// A list of strings: a JSON array; joined with `", "` in table, csv and tsv.
    case list([String])
    /// No value: JSON `null`, an empty cell elsewhere.
    case null
    /// Named values: a JSON object in json and ndjson; that object's compact JSON text in table,
    /// csv and tsv (escaped and formula-guarded there like any text).
    case object([CellField])

    /// Whether the cell is a number (integer or decimal), which tables right-align.
    var isNumeric: Bool {
        switch self {
        case .integer, .decimal: return true
        default: return false
        }
    }

    /// The plain text of the cell for table, csv and tsv, before any escaping or quoting.
    var plainText: String {
        switch self {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .decimal(let value): return value.description
        case .bool(let value): return value ? "true" : "false"
        case .list(let items): return items.joined(separator: ", ")
        case .null: return ""
        case .object:
            var bytes: [UInt8] = []
            JSONWriter.appendValue(self, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// One named value of an `.object` cell.
public struct CellField: Sendable, Hashable {
    public var key: String
    public var value: Cell

    public init(_ key: String, _ value: Cell) {
        self.key = key
        self.value = value
    }
}
