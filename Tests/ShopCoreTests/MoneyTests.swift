// MoneyTests: strict parsing, exact printing and the single rounding rule of Money and ExactDecimal.

import Testing
@testable import ShopCore

@Suite struct MoneyParsingTests {
    @Test(arguments: [("12.5", 1250), ("12.50", 1250), ("0.01", 1), ("9.99", 999), ("1000", 100_000), ("0", 0)])
    func acceptsPlainAmounts(text: String, minorUnits: Int64) throws {
        #expect(try Money.parse(text, currency: .usd).minorUnits == minorUnits)
    }

    @Test(arguments: ["1,5", "12.345", "abc", "-0", "-1", "1e3", "+1", ".5", "5.", " 5", "5 ", "", "1.2.3", "٣", "99999999999999999999"])
    func rejectsEverythingElse(text: String) {
        #expect(throws: ShopError.self) { try Money.parse(text, currency: .usd) }
    }

    @Test func minorUnitDigitsDecideWhatIsAccepted() throws {
        let yen = Currency(code: "JPY", minorUnitDigits: 0)
        let dinar = Currency(code: "KWD", minorUnitDigits: 3)
        #expect(try Money.parse("1200", currency: yen).minorUnits == 1200)
        #expect(throws: ShopError.self) { try Money.parse("12.5", currency: yen) }
        #expect(try Money.parse("1.234", currency: dinar).minorUnits == 1234)
        #expect(try Money.parse("1.234", currency: dinar).decimalString == "1.234")
    }

    @Test func theErrorSaysWhatIsExpected() {
        do {
            _ = try Money.parse("1,5", currency: .usd)
            Issue.record("1,5 was accepted")
        } catch {
            #expect(error.message.contains("1,5"))
            #expect(error.message.contains("USD"))
        }
    }
}

@Suite struct MoneyPrintingTests {
    @Test func keepsTrailingZerosAndNeverUsesFloatingPoint() {
        #expect(Money(minorUnits: 1250, currency: .usd).decimalString == "12.50")
        #expect(Money(minorUnits: 999, currency: .usd).decimalString == "9.99")
        #expect(Money(minorUnits: 5, currency: .usd).decimalString == "0.05")
        #expect(Money(minorUnits: -1250, currency: .usd).decimalString == "-12.50")
        #expect(Money(minorUnits: 1200, currency: Currency(code: "JPY", minorUnitDigits: 0)).decimalString == "1200")
        #expect(Money(minorUnits: 999, currency: .usd).description == "9.99 USD")
    }

    @Test func roundTripsThroughParse() throws {
        for units in [Int64(0), 1, 10, 99, 100, 12345, 3_699_999] {
            let money = Money(minorUnits: units, currency: .usd)
            #expect(try Money.parse(money.decimalString, currency: .usd) == money)
        }
    }
}

@Suite struct RoundingTests {
    @Test func roundsHalfAwayFromZero() {
        #expect(ExactDecimal.divideRounded(15, by: 10) == 2)
        #expect(ExactDecimal.divideRounded(14, by: 10) == 1)
        #expect(ExactDecimal.divideRounded(-15, by: 10) == -2)
        #expect(ExactDecimal.divideRounded(-14, by: 10) == -1)
        #expect(ExactDecimal.divideRounded(25, by: 10) == 3)   // not banker's rounding
    }

    @Test func discountRoundsOnceToTheCent() throws {
        // DummyJSON cart 1, line 1: 4 × 29.99 = 119.96, 12.13 % off → 105.41.
        let line = try Money(minorUnits: 2999, currency: .usd).times(4)
        #expect(line.minorUnits == 11996)
        #expect(line.discounted(by: Percentage(hundredths: 1213)).decimalString == "105.41")
    }

    @Test func rescalingRounds() {
        #expect(ExactDecimal(units: 12345, scale: 3).rescaled(to: 2) == ExactDecimal(units: 1235, scale: 2))
        #expect(ExactDecimal(units: 5, scale: 1).rescaled(to: 0) == ExactDecimal(units: 1, scale: 0))
        #expect(ExactDecimal(units: 12, scale: 0).rescaled(to: 2) == ExactDecimal(units: 1200, scale: 2))
    }
}

@Suite struct SmallValueTests {
    @Test func percentages() throws {
        #expect(try Percentage.parse("12.5").hundredths == 1250)
        #expect(try Percentage.parse("100").hundredths == 10_000)
        #expect(throws: ShopError.self) { try Percentage.parse("100.01") }
        #expect(throws: ShopError.self) { try Percentage.parse("-3") }
    }

    @Test func stockChanges() throws {
        #expect(try StockChange.parse("+5") == .add(5))
        #expect(try StockChange.parse("-3") == .remove(3))
        #expect(try StockChange.parse("=10") == .set(10))
        for bad in ["5", "+", "+-3", "++3", "=x", "+1.5", ""] {
            #expect(throws: ShopError.self) { try StockChange.parse(bad) }
        }
    }

    @Test func sortKeys() throws {
        #expect(try SortKey.parseList("price:desc,title") == [SortKey(field: "price", descending: true), SortKey(field: "title")])
        #expect(throws: ShopError.self) { try SortKey.parseList("price:up") }
        #expect(throws: ShopError.self) { try SortKey.parseList("") }
    }
}
