// ExactDecimalBytesTests: the byte-level number writer spells numbers exactly as ShopCore does.

import Testing
import ShopCore
@testable import ShopOutput

@Suite struct ExactDecimalBytesTests {
    static let units: [Int64] = [0, 1, -1, 5, -5, 9, 10, 99, 100, 999, -1250, 1_000_000, 123_456_789_012_345_678,
                                 .max, .min, .max - 1, .min + 1]

    @Test(arguments: 0...18)
    func decimalsMatchExactDecimalDescription(scale: Int) {
        var generator = SystemRandomNumberGenerator()
        let samples = Self.units + (0..<200).map { _ in Int64.random(in: .min ... .max, using: &generator) }
        for units in samples {
            let value = ExactDecimal(units: units, scale: scale)
            var bytes: [UInt8] = []
            bytes.append(decimal: value)
            #expect(String(decoding: bytes, as: UTF8.self) == value.description, "units \(units) scale \(scale)")
        }
    }

    @Test func integersMatchStringConversion() {
        for value in Self.units + (0..<500).map({ _ in Int64.random(in: .min ... .max) }) {
            var bytes: [UInt8] = []
            bytes.append(integer: value)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }
}
