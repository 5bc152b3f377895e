// ExactDecimal: a fixed-point decimal number (an integer count of 10^-scale units).
// The one place where decimal text is parsed strictly and printed exactly; Money,
// percentages and ratings all build on it, so no value that matters passes through Double.

/// A decimal number held exactly as an integer of units of 10^-`scale`.
///
/// `ExactDecimal(units: 999, scale: 2)` is 9.99. Printing never uses locale or
/// floating point, so `9.99` is always `"9.99"` and `12.50` keeps its trailing zero.
public struct ExactDecimal: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The value in units of 10^-scale.
    public let units: Int64
    /// Digits after the decimal point.
    public let scale: Int

    public init(units: Int64, scale: Int) {
        precondition(scale >= 0 && scale <= 18, "scale out of range")
        self.units = units
        self.scale = scale
    }

    /// The exact decimal text: `-12.50`, `9.99`, `1000` (scale 0). No grouping, no exponent.
    public var description: String {
        let negative = units < 0
        let magnitude = units.magnitude
        guard scale > 0 else { return (negative ? "-" : "") + String(magnitude) }
        let divisor = UInt64(Self.powerOfTen(scale))
        let whole = magnitude / divisor
        let fraction = String(magnitude % divisor)
        let padded = String(repeating: "0", count: scale - fraction.count) + fraction
        return (negative ? "-" : "") + String(whole) + "." + padded
    }

    /// The same value with trailing fractional zeros dropped (`1.168400` → `1.1684`, `2.000000` → `2`).
    public var normalized: ExactDecimal {
        var units = self.units
        var scale = self.scale
        while scale > 0 && units % 10 == 0 {
            units /= 10
            scale -= 1
        }
        return ExactDecimal(units: units, scale: scale)
    }

    /// The same value expressed with another scale, rounding half away from zero when
    /// digits are dropped. Returns nil if the result would overflow.
    public func rescaled(to newScale: Int) -> ExactDecimal? {
        if newScale == scale { return self }
        if newScale > scale {
            let (result, overflow) = units.multipliedReportingOverflow(by: Self.powerOfTen(newScale - scale))
            return overflow ? nil : ExactDecimal(units: result, scale: newScale)
        }
        return ExactDecimal(units: Self.divideRounded(units, by: Self.powerOfTen(scale - newScale)), scale: newScale)
    }

    /// Compares exactly at the larger scale, in 128 bits (an Int64 at scale 0 times 10^18 fits).
    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        let scale = max(lhs.scale, rhs.scale)
        func widened(_ value: ExactDecimal) -> Int128 {
            var units = Int128(value.units)
            for _ in value.scale..<scale { units *= 10 }
            return units
        }
        return widened(lhs) < widened(rhs)
    }

    // MARK: - Parsing

    /// Parses decimal text strictly: optional leading `-` (if `allowNegative`), digits, at most one
    /// `.` followed by at most `maxScale` digits. Rejects `1,5`, `abc`, `-0`, `1e3`, `+1`, `.5`,
    /// `5.`, whitespace, and values too large to hold. The result has scale `maxScale`.
    public static func parse(_ text: String, maxScale: Int, allowNegative: Bool = false) -> ExactDecimal? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            guard allowNegative else { return nil }
            negative = true
            bytes = bytes.dropFirst()
        }
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let wholePart = bytes[..<(point ?? bytes.endIndex)]
        let fractionPart = point.map { bytes[($0 + 1)...] } ?? []
        guard !wholePart.isEmpty, wholePart.count <= 18, wholePart.allSatisfy(Self.isDigit) else { return nil }
        if point != nil {
            guard !fractionPart.isEmpty, fractionPart.count <= maxScale,
                  fractionPart.allSatisfy(Self.isDigit) else { return nil }
        }
        let digits = Array(wholePart) + Array(fractionPart)
            + Array(repeating: UInt8(ascii: "0"), count: maxScale - fractionPart.count)
        var units: Int64 = 0
        for digit in digits {
            let (times, o1) = units.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            units = plus
        }
        if negative && units == 0 { return nil }   // "-0" and "-0.00" are not numbers a person means
        return ExactDecimal(units: negative ? -units : units, scale: maxScale)
    }

    // MARK: - Arithmetic helpers

    /// 10^n for n in 0...18.
    public static func powerOfTen(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// Integer division rounding half away from zero: the project's single rounding rule (64-bit
    /// amounts, and 128-bit products of an amount and a rate or percentage).
    public static func divideRounded<T: BinaryInteger>(_ numerator: T, by denominator: T) -> T {
        precondition(denominator > 0)
        let quotient = numerator / denominator
        let remainder = numerator % denominator
        if remainder.magnitude * 2 >= denominator.magnitude {
            return numerator < 0 ? quotient - 1 : quotient + 1
        }
        return quotient
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
