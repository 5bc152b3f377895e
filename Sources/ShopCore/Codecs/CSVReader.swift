// CSVReader: an RFC 4180 reader for imports (quoted fields, doubled quotes, CRLF or LF).

/// One parsed CSV record with the 1-based line where it starts.
public struct CSVRecord: Hashable, Sendable {
    public var fields: [String]
    public var line: Int
}

/// Reads RFC 4180 CSV text into records. Empty lines are skipped.
public enum CSVReader {
    /// The records of `text`, each with the line it starts on.
    ///
    /// A UTF-8 byte-order mark (U+FEFF) at the very start is not data and is skipped, as
    /// spreadsheets write one before the header.
    ///
    /// - Throws: ``ShopError/invalidInput(_:)`` naming the line of a stray or unterminated quote.
    public static func records(in text: String) throws(ShopError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        let bytes = Array(text.utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) {
                records.append(CSVRecord(fields: fields, line: recordLine))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard field.isEmpty, !fieldWasQuoted else {
                    throw .invalidInput("invalid CSV at line \(line): a quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\n"):
                endRecord()
                line += 1
                recordLine = line
            default:
                guard !fieldWasQuoted else {
                    throw .invalidInput("invalid CSV at line \(line): text after a closing quote")
                }
                field.append(byte)
            }
            index += 1
        }
        if inQuotes { throw .invalidInput("invalid CSV at line \(recordLine): unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        return records
    }
}
