// FuzzRegressionTests: replays every input saved under FuzzRegressions/<target>/ (found by the
// libFuzzer targets in fuzz/) through the same entry points and checks the same rules.
// Every input once crashed a target or broke one of its checks; the bug it found is fixed.

import Foundation
import Testing
@testable import ShopCore

enum FuzzRegressions {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    /// The saved inputs of one fuzz target, by file name.
    static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = folder.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    /// Whether a message is one line without raw control or format characters.
    static func isOneLine(_ message: String) -> Bool {
        message.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return false
            default: return true
            }
        }
    }
}

// MARK: - FuzzMoney

/// The input layout of fuzz/FuzzMoney: byte 0 scale A (and `-` allowed), byte 1 scale B, byte 2
/// minor-unit digits, then text A, LF, text B.
struct MoneyFuzzInput {
    var a: ExactDecimal?
    var b: ExactDecimal?
    var money: Money?
    var percent: Percentage?

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return nil }
        let rest = bytes[3...]
        let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let textA = String(decoding: rest[..<newline], as: UTF8.self)
        let textB = String(decoding: rest[newline...].dropFirst(), as: UTF8.self)
        a = ExactDecimal.parse(textA, maxScale: Int(bytes[0] & 0x7F) % 19, allowNegative: bytes[0] & 0x80 != 0)
        b = ExactDecimal.parse(textB, maxScale: Int(bytes[1]) % 19, allowNegative: true)
        money = try? Money.parse(textA, currency: Currency(code: "TST", minorUnitDigits: Int(bytes[2]) % 5))
        percent = try? Percentage.parse(textB)
    }

    /// Checks what does not trap: order against Foundation's Decimal, printing round trips.
    func check(_ name: String) {
        for value in [a, b].compactMap({ $0 }) {
            #expect(ExactDecimal.parse(value.description, maxScale: value.scale, allowNegative: true) == value, "\(name)")
        }
        if let a, let b, let left = Decimal(string: a.description), let right = Decimal(string: b.description) {
            #expect((a < b) == (left < right), "\(name): \(a) < \(b) is \(a < b)")
        }
    }
}

@Suite struct MoneyFuzzRegressionTests {
    @Test func replaysEveryInput() throws {
        for (name, bytes) in try FuzzRegressions.inputs("FuzzMoney") {
            guard let input = MoneyFuzzInput(bytes) else { continue }
            input.check(name)
        }
    }

    /// `Money.discounted(by:)` once multiplied the minor units by up to 10 000 in 64 bits, so a large
    /// amount trapped although the discounted amount fits. Run in a child process: a trap is a failure, not a crash.
    @Test func discountingALargeAmountDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            for (name, bytes) in (try? FuzzRegressions.inputs("FuzzMoney")) ?? [] where name.hasPrefix("discount") {
                guard let input = MoneyFuzzInput(bytes), let money = input.money, let percent = input.percent else { continue }
                let discounted = money.discounted(by: percent)
                if discounted.minorUnits.magnitude > money.minorUnits.magnitude { exit(1) }
            }
        }
    }
}

// MARK: - FuzzECBRates

@Suite struct ECBRatesFuzzRegressionTests {
    /// Each decoder returns well-formed rates or throws `invalidInput` with a one-line message.
    static func check(_ bytes: [UInt8], _ name: String) {
        let text = String(decoding: bytes, as: UTF8.self)
        let decoders: [(String, () throws(ShopError) -> [CurrencyRate])] = [
            ("decode", { () throws(ShopError) in try ECBRatesDecoder.decode(bytes) }),
            ("decodeXML", { () throws(ShopError) in try ECBRatesDecoder.decodeXML(text) }),
            ("decodeCSV", { () throws(ShopError) in try ECBRatesDecoder.decodeCSV(text) }),
        ]
        for (what, decode) in decoders {
            do {
                let rates = try decode()
                #expect(rates.allSatisfy { CalendarDay(iso: $0.date) != nil && Currency.isWellFormedCode($0.currency) && $0.rate.units > 0 },
                        "\(name) \(what)")
            } catch {
                guard case .invalidInput(let message) = error else {
                    Issue.record("\(name) \(what): \(error)")
                    continue
                }
                #expect(FuzzRegressions.isOneLine(message), "\(name) \(what): \(message.debugDescription)")
            }
        }
    }

    @Test func replaysEveryInput() throws {
        for (name, bytes) in try FuzzRegressions.inputs("FuzzECBRates") {
            Self.check(bytes, name)
        }
    }
}

// MARK: - FuzzProductJSON and FuzzProductCSV

@Suite struct ProductFileFuzzRegressionTests {
    /// An importer returns products that obey the import rules, the same with a byte-order mark
    /// in front, or throws `invalidInput` with a one-line message.
    static func check(_ bytes: [UInt8], format: ProductFileDecoder.Format, _ name: String) {
        do {
            let products = try ProductFileDecoder.decode(bytes, format: format)
            #expect(!products.isEmpty, "\(name)")
            #expect(products.allSatisfy { $0.id.map(ProductLimits.idRange.contains) ?? true }, "\(name)")
            let skus = products.compactMap { $0.sku?.lowercased() }
            #expect(Set(skus).count == skus.count, "\(name): repeated SKU")
            #expect((try? ProductFileDecoder.decode([0xEF, 0xBB, 0xBF] + bytes, format: format)) == products, "\(name): BOM")
        } catch {
            guard case .invalidInput(let message) = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(FuzzRegressions.isOneLine(message), "\(name): \(message.debugDescription)")
        }
    }

    @Test(arguments: [("FuzzProductJSON", ProductFileDecoder.Format.json), ("FuzzProductCSV", .csv)])
    func replaysEveryInput(target: String, format: ProductFileDecoder.Format) throws {
        let folder = FuzzRegressions.folder.appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        for (name, bytes) in try FuzzRegressions.inputs(target) {
            Self.check(bytes, format: format, name)
        }
    }
}
