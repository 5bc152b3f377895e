// FuzzMoney: libFuzzer target for the exact-number parsers (ExactDecimal, Money, Percentage) and
// the arithmetic done on what they return, checked against a small independent reference.
// Run by fuzz/run.
//
// Input: byte 0 picks the first scale (0…18) and whether `-` is allowed, byte 1 the second
// scale, byte 2 a currency's minor-unit digits (0…4); the rest is two texts split at the first LF.

import FuzzSupport
import ShopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMoney(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    guard bytes.count >= 3 else { return 0 }
    let scaleA = Int(bytes[0] & 0x7F) % 19
    let allowNegative = bytes[0] & 0x80 != 0
    let scaleB = Int(bytes[1]) % 19
    let currency = Currency(code: "TST", minorUnitDigits: Int(bytes[2]) % 5)
    let rest = bytes[3...]
    let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
    let textA = String(decoding: rest[..<newline], as: UTF8.self)
    let textB = String(decoding: rest[newline...].dropFirst(), as: UTF8.self)

    let a = checkDecimal(textA, maxScale: scaleA, allowNegative: allowNegative)
    let b = checkDecimal(textB, maxScale: scaleB, allowNegative: true)
    if let a, let b {
        // Also when one side cannot be rescaled to the other's scale in 64 bits (10 at scale 0 vs
        // 9 at scale 18 once said 10 < 9: FuzzRegressions/FuzzMoney/compare-unrescalable).
        require((a < b) == (reference(a) < reference(b)), "\(a) < \(b) is \(a < b)")
        require((a == b) == (a.units == b.units && a.scale == b.scale), "== is not by units and scale")
    }

    // Money.parse accepts exactly what ExactDecimal.parse accepts at the currency's digits.
    let money = try? Money.parse(textA, currency: currency)
    let decimal = ExactDecimal.parse(textA, maxScale: currency.minorUnitDigits)
    require(money?.minorUnits == decimal?.units, "Money.parse and ExactDecimal.parse disagree on \(textA.debugDescription)")
    if let money {
        require(money.minorUnits >= 0, "negative money parsed")
        require((try? Money.parse(money.decimalString, currency: currency)) == money, "\(money) does not round-trip")
    }

    // Percentage: 0…100 with two decimals, printed so that it parses back.
    if let percent = try? Percentage.parse(textB) {
        require((0...10_000).contains(percent.hundredths), "percentage \(percent) out of range")
        require((try? Percentage.parse(percent.description)) == percent, "\(percent) does not round-trip")
        // `discounted(by:)` once trapped from 922 337 203 685 478 minor units on although the result
        // fits (FuzzRegressions/FuzzMoney/discount-overflow).
        if let money {
            // A discounted price lies between 0 and the price: it can never overflow.
            let discounted = money.discounted(by: percent)
            require(discounted.minorUnits >= 0 && discounted.minorUnits <= money.minorUnits,
                    "\(money) less \(percent) % gave \(discounted)")
        }
    }
    return 0
}

/// Parses `text` and checks the value against the grammar, printing, and rescaling.
func checkDecimal(_ text: String, maxScale: Int, allowNegative: Bool) -> ExactDecimal? {
    let value = ExactDecimal.parse(text, maxScale: maxScale, allowNegative: allowNegative)
    let expected = referenceParse(Array(text.utf8), maxScale: maxScale, allowNegative: allowNegative)
    require(value.map(reference) == expected, "parse(\(text.debugDescription), \(maxScale)) gave \(String(describing: value))")
    guard let value else { return nil }
    require(value.scale == maxScale, "scale \(value.scale), asked for \(maxScale)")

    // description → parse gives the same value back.
    let printed = value.description
    require(ExactDecimal.parse(printed, maxScale: maxScale, allowNegative: true) == value, "\(printed) does not round-trip")

    require(reference(value.normalized) == reference(value), "normalized changed \(value)")
    for scale in 0...18 {
        guard let rescaled = value.rescaled(to: scale) else {
            require(scale > value.scale, "rescaling \(value) down to \(scale) failed")
            continue
        }
        if scale >= value.scale {
            require(reference(rescaled) == reference(value), "rescaling \(value) up to \(scale) gave \(rescaled)")
        } else {
            // Rounded to `scale` digits: off by at most half a unit of the new scale.
            let step = ExactDecimal.powerOfTen(value.scale - scale)
            let back = rescaled.units.multipliedReportingOverflow(by: step)
            if !back.overflow {
                let (difference, overflow) = back.partialValue.subtractingReportingOverflow(value.units)
                require(overflow || difference.magnitude * 2 <= UInt64(step), "rescaling \(value) to \(scale) gave \(rescaled)")
            }
        }
    }
    return value
}

// MARK: - Reference

/// An exact value as sign, whole part and fraction in 10^-18 units: compares without overflow.
struct ReferenceValue: Comparable {
    var negative: Bool
    var whole: UInt64
    var fraction: UInt64

    static func < (lhs: ReferenceValue, rhs: ReferenceValue) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let magnitudeLess = (lhs.whole, lhs.fraction) < (rhs.whole, rhs.fraction)
        let magnitudeGreater = (lhs.whole, lhs.fraction) > (rhs.whole, rhs.fraction)
        return lhs.negative ? magnitudeGreater : magnitudeLess
    }
}

func reference(_ value: ExactDecimal) -> ReferenceValue {
    let divisor = UInt64(ExactDecimal.powerOfTen(value.scale))
    let magnitude = value.units.magnitude
    let fraction = (magnitude % divisor) * UInt64(ExactDecimal.powerOfTen(18 - value.scale))
    return ReferenceValue(negative: value.units < 0, whole: magnitude / divisor, fraction: fraction)
}

/// The documented grammar, `-?[0-9]{1,18}(\.[0-9]{1,maxScale})?`, read digit by digit; nil for
/// anything else, for `-0`, and for values whose units do not fit in an Int64.
func referenceParse(_ bytes: [UInt8], maxScale: Int, allowNegative: Bool) -> ReferenceValue? {
    var body = bytes[...]
    let negative = body.first == UInt8(ascii: "-")
    if negative {
        guard allowNegative else { return nil }
        body = body.dropFirst()
    }
    let parts = body.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard let whole = parts.first, (1...18).contains(whole.count), whole.allSatisfy(isDigit) else { return nil }
    var fraction: ArraySlice<UInt8> = []
    if parts.count == 2 {
        fraction = parts[1]
        guard fraction.count >= 1, fraction.count <= maxScale, fraction.allSatisfy(isDigit) else { return nil }
    }
    var units: UInt64 = 0
    for digit in whole + fraction + Array(repeating: UInt8(ascii: "0"), count: maxScale - fraction.count) {
        let (times, overflow) = units.multipliedReportingOverflow(by: 10)
        let (plus, carry) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
        if overflow || carry || plus > UInt64(Int64.max) { return nil }
        units = plus
    }
    if negative && units == 0 { return nil }
    let divisor = UInt64(ExactDecimal.powerOfTen(maxScale))
    return ReferenceValue(negative: negative, whole: units / divisor,
                          fraction: (units % divisor) * UInt64(ExactDecimal.powerOfTen(18 - maxScale)))
}
