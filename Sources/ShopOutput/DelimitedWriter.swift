// DelimitedWriter: csv (RFC 4180, formula-safe) and tsv (escaped, never quoted) listings.

/// Streams rows as delimiter-separated lines, with a header row unless `--no-header`.
///
/// - csv: comma separated, CRLF line ends; a field is quoted when it holds `,` `"` CR or LF
///   or starts or ends with a space, and quotes inside are doubled. Text that a spreadsheet
///   would run as a formula gets a leading `'` (see `needsFormulaGuard`).
/// - tsv: tab separated, LF line ends, no quoting: backslash, tab, LF and CR become `\\`,
///   `\t`, `\n`, `\r`, other controls are escaped as in the table (`TerminalEscaping`).
/// - csv to a terminal: text is first escaped as in the table, so no control character from
///   the data reaches the screen; to a file or pipe csv stays exact.
final class DelimitedWriter: RowWriter {
    /// The two delimited formats.
    enum Dialect {
        case csv, tsv

        var separator: UInt8 { self == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t") }
        var lineEnd: [UInt8] { self == .csv ? [0x0D, 0x0A] : [0x0A] }
    }

    private let dialect: Dialect
    private let projection: FieldProjection
    private let header: Bool
    /// Whether csv text is escaped as in the table (the output reaches a terminal).
    private let toTerminal: Bool
    private let sink: OutputSink
    private let lineEnd: [UInt8]
    private var count = 0
    private var headerWritten = false

    init(dialect: Dialect, projection: FieldProjection, header: Bool, toTerminal: Bool = false, sink: OutputSink) {
        self.dialect = dialect
        self.projection = projection
        self.header = header
        self.toTerminal = toTerminal
        self.sink = sink
        self.lineEnd = dialect.lineEnd
    }

    func write(_ row: [Cell]) throws {
        projection.checkShape(row)
        writeHeaderOnce()
        try sink.appendRow { out in
            for position in projection.sourceIndices.indices {
                if position > 0 { out.append(dialect.separator) }
                appendField(projection.cell(position, of: row), to: &out)
            }
            out.append(contentsOf: lineEnd)
        }
        count += 1
    }

    /// Writes the header (also for an empty listing, so a consumer still sees the columns) and flushes.
    func finish() throws -> Int {
        writeHeaderOnce()
        try sink.flush()
        return count
    }

    /// The header row, written lazily so that a listing abandoned before its first row prints nothing.
    private func writeHeaderOnce() {
        guard header, !headerWritten else { return }
        headerWritten = true
        sink.write(bytes: line(projection.columns.map(\.key)))
    }

    /// The header as one line of this dialect.
    private func line(_ keys: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for (position, key) in keys.enumerated() {
            if position > 0 { out.append(dialect.separator) }
            appendText(key, neutralise: false, to: &out)
        }
        out.append(contentsOf: lineEnd)
        return out
    }

    // MARK: - Fields

    private func appendField(_ cell: Cell, to out: inout [UInt8]) {
        switch cell {
        case .text(let text): appendText(text, neutralise: true, to: &out)
        case .integer(let value): out.append(integer: value)
        case .decimal(let value): out.append(decimal: value)
        case .bool(let value): out.append(text: value ? "true" : "false")
        case .list(let items): appendText(items.joined(separator: ", "), neutralise: true, to: &out)
        case .object: appendText(cell.plainText, neutralise: true, to: &out)
        case .null: break
        }
    }

    private func appendText(_ text: String, neutralise: Bool, to out: inout [UInt8]) {
        switch dialect {
        case .csv: Self.appendCSVField(toTerminal ? TerminalEscaping.escape(text) : text, neutralise: neutralise, to: &out)
        case .tsv: TerminalEscaping.append(text, to: &out, backslash: true)
        }
    }

    /// Appends one csv field, quoted when needed and, with `neutralise`, formula-guarded.
    static func appendCSVField(_ text: String, neutralise: Bool, to out: inout [UInt8]) {
        text.withUTF8Bytes { bytes in
            guard let first = bytes.first, let last = bytes.last else { return }
            let quoted = first == UInt8(ascii: " ") || last == UInt8(ascii: " ")
                || bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
            if quoted { out.append(UInt8(ascii: "\"")) }
            if neutralise && needsFormulaGuard(bytes) { out.append(UInt8(ascii: "'")) }
            guard quoted else {
                out.append(contentsOf: bytes)
                return
            }
            // Copy the runs between quotes whole; each quote is written twice.
            var runStart = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
                out.append(UInt8(ascii: "\""))
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Whether a spreadsheet would run the text as a formula: it starts with `=`, `+`, `-`,
    /// `@`, TAB or CR and is not a plain number (`-12.50`, `+3` and `-7` stay numbers).
    static func needsFormulaGuard(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "@"), 0x09, 0x0D:
            return true
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            return !isPlainNumber(bytes.dropFirst())
        default:
            return false
        }
    }

    /// Digits with at most one `.` between digits: `12`, `12.50`.
    private static func isPlainNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }
}
