// Array+OutputBytes: appending numbers and text to an output byte buffer without allocating.

import ShopCore

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text` (no copy for native strings).
    mutating func append(text: String) {
        append(contentsOf: text.utf8)
    }

    /// Appends `value` in decimal digits, with a leading `-` when negative.
    mutating func append(integer value: Int64) {
        append(units: value, scale: 0)
    }

    /// Appends an exact decimal exactly as `ExactDecimal.description` spells it (`9.99`,
    /// `-12.50`, `1000`), without building a String: this runs for every number of an export.
    /// `ExactDecimalBytesTests` checks the two spellings agree.
    mutating func append(decimal value: ExactDecimal) {
        append(units: value.units, scale: value.scale)
    }

    /// Appends `units` × 10^-`scale`: digits, with a `.` before the last `scale` of them.
    private mutating func append(units: Int64, scale: Int) {
        // Int64 has at most 19 digits; with "0.", up to 18 zeros of padding and a sign, 40 bytes hold any value.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            var magnitude = units.magnitude
            var start = digits.count   // filled from the end
            func push(_ byte: UInt8) {
                start -= 1
                digits[start] = byte
            }
            for _ in 0..<scale {
                push(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            }
            if scale > 0 { push(UInt8(ascii: ".")) }
            repeat {
                push(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            if units < 0 { push(UInt8(ascii: "-")) }
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `count` spaces.
    mutating func append(spaces count: Int) {
        if count > 0 { append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    /// Drops the spaces at the end (of the line being built; it stops at the previous newline).
    mutating func removeTrailingSpaces() {
        while last == UInt8(ascii: " ") { removeLast() }
    }

    /// Appends `value` as `digits` uppercase hexadecimal digits.
    mutating func append(hex value: UInt32, digits: Int) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let nibble = UInt8((value >> UInt32(shift)) & 0xF)
            append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
        }
    }
}
