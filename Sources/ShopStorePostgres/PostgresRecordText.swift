// PostgresRecordText: a row sent as one cell, `ROW(…)::text`, read back field by field. A listing
// of a million products is twelve million cells; postgres-nio makes a `PostgresCell` for each (a
// buffer slice and the column's name, retained and released: a third of an export's time in
// perf), so the long listings ask the server for one cell a row and split it here, over its bytes.
//
// The server's record text (record_out): fields between `(` and `)`, separated by `,`; a NULL is
// nothing at all; a field is in double quotes when it is empty or holds `"`, `\`, `(`, `)`, `,` or
// white space, and inside the quotes `""` stands for `"` and `\x` for `x`.

import NIOCore
import ShopCore

/// The fields of one record's text, in order, read from its bytes (only inside `read`: the
/// reader must not outlive the call).
struct PostgresRecordText {
    private let bytes: UnsafeRawBufferPointer
    private var index: Int
    private let end: Int

    /// Calls `body` with a reader of `cell` (a `ROW(…)::text` value).
    static func read<T>(_ cell: ByteBuffer?, _ body: (inout PostgresRecordText) throws(ShopError) -> T) throws(ShopError) -> T {
        guard let cell else { throw malformed }
        let result: Result<T, ShopError> = cell.withUnsafeReadableBytes { raw in
            guard raw.count >= 2, raw[0] == UInt8(ascii: "("), raw[raw.count - 1] == UInt8(ascii: ")") else {
                return .failure(malformed)
            }
            var reader = PostgresRecordText(bytes: raw)
            do throws(ShopError) { return .success(try body(&reader)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        index = 1
        end = bytes.count - 1
    }

    /// The next field as text; nil for a NULL. Throws when the record has no more fields.
    mutating func nextText() throws(ShopError) -> String? {
        guard index <= end else { throw Self.malformed }
        let value: String?
        if index < end && bytes[index] == UInt8(ascii: "\"") {
            value = try quoted()
        } else {
            var stop = index
            while stop < end && bytes[stop] != UInt8(ascii: ",") { stop += 1 }
            value = stop == index ? nil : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<stop]), as: UTF8.self)
            index = stop
        }
        index += 1   // the comma (or, after the last field, past the end)
        return value
    }

    /// The next field, which may not be NULL.
    mutating func text() throws(ShopError) -> String {
        guard let value = try nextText() else { throw Self.malformed }
        return value
    }

    /// The next field as a whole number (never NULL).
    mutating func integer() throws(ShopError) -> Int64 {
        guard index < end else { throw Self.malformed }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < end, case let digit = bytes[index], digit != UInt8(ascii: ",") {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { throw Self.malformed }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(digit &- UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { throw Self.malformed }
            value = sum
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw Self.malformed }
        index += 1
        return negative ? -value : value
    }

    /// The next field as an `Int` (never NULL).
    mutating func int() throws(ShopError) -> Int {
        Int(try integer())
    }

    /// A field in double quotes, without them, `""` and `\x` undone.
    private mutating func quoted() throws(ShopError) -> String {
        index += 1
        var start = index
        // The bytes up to the last escape, once there is one (a product's details JSON has dozens).
        var unescaped: [UInt8] = []
        var escaped = false
        while true {
            guard index < end else { throw Self.malformed }
            let current = bytes[index]
            if current == UInt8(ascii: "\"") && !(index + 1 < end && bytes[index + 1] == UInt8(ascii: "\"")) { break }
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "\\") {
                // Keep what came before, then the escaped byte itself.
                guard index + 1 < end else { throw Self.malformed }
                if !escaped { unescaped.reserveCapacity(end - start) }
                escaped = true
                unescaped.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                unescaped.append(bytes[index + 1])
                index += 2
                start = index
                continue
            }
            index += 1
        }
        let value: String
        if escaped {
            unescaped.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            value = String(decoding: unescaped, as: UTF8.self)
        } else {
            value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        index += 1   // the closing quote
        return value
    }

    static let malformed = ShopError.storage("the server sent a product row shopsh cannot read")
}
