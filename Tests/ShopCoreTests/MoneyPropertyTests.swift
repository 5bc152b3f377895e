// MoneyPropertyTests: property-based tests (swift-property-based) of Money's arithmetic and the
// basket totals over the whole 64-bit range: never a trap, exact results checked against
// Foundation's Decimal, overflow reported as an error exactly when the true result does not fit.

import Foundation
import PropertyBased
import ShopCore
import Testing

@Suite struct MoneyPropertyTests {
    /// The true value of `minor × kept / 10000`, rounded half away from zero, from Decimal.
    static func expectedDiscount(_ minor: Int64, keptHundredths: Int) -> Decimal {
        var exact = Decimal(minor) * Decimal(keptHundredths) / Decimal(10_000)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 0, .plain)   // .plain: halves go away from zero
        return rounded
    }

    static func fits(_ value: Decimal) -> Bool {
        value >= Decimal(Int64.min) && value <= Decimal(Int64.max)
    }

    @Test func discountNeverTrapsAndRoundsOnce() async {
        await propertyCheck(count: 2000, input: Gen.int64(), Gen.int(in: 0...10_000)) { minor, hundredths in
            let money = Money(minorUnits: minor, currency: .usd)
            let result = money.discounted(by: Percentage(hundredths: hundredths))
            #expect(Decimal(result.minorUnits) == Self.expectedDiscount(minor, keptHundredths: 10_000 - hundredths))
            #expect(result.minorUnits.magnitude <= minor.magnitude)
            #expect(result.currency == .usd)
        }
    }

    @Test func additionIsExactOrReportsOverflow() async {
        await propertyCheck(count: 2000, input: Gen.int64(), Gen.int64()) { a, b in
            let truth = Decimal(a) + Decimal(b)
            let sum = try? Money(minorUnits: a, currency: .eur) + Money(minorUnits: b, currency: .eur)
            if Self.fits(truth) {
                #expect(sum.map { Decimal($0.minorUnits) } == truth)
            } else {
                #expect(sum == nil)
            }
        }
    }

    @Test func multiplicationIsExactOrReportsOverflow() async {
        await propertyCheck(count: 2000, input: Gen.int64(), Gen.int(in: -20_000...20_000)) { minor, quantity in
            let truth = Decimal(minor) * Decimal(quantity)
            let product = try? Money(minorUnits: minor, currency: .usd).times(quantity)
            if Self.fits(truth) {
                #expect(product.map { Decimal($0.minorUnits) } == truth)
            } else {
                #expect(product == nil)
            }
        }
    }

    @Test func parsedAmountsPrintBackTheSame() async {
        await propertyCheck(count: 2000, input: Gen.int64(in: 0...999_999_999_999_999_999), Gen.int(in: 0...4)) { units, digits in
            let currency = Currency(code: "TST", minorUnitDigits: digits)
            let money = Money(minorUnits: units, currency: currency)
            #expect((try? Money.parse(money.decimalString, currency: currency)) == money)
        }
    }

    // MARK: - Basket totals

    /// A basket line within the shop's limits: price, quantity and discount anywhere in range.
    static let lineGenerator = zip(Gen.int64(in: 0...ProductLimits.maxPriceMinorUnits),
                                   Gen.int(in: 1...BasketLimits.maxQuantity),
                                   Gen.int(in: 0...10_000)).map { price, quantity, discount in
        BasketLine(userID: 1, productID: 1, sku: "SKU", title: "t", unitPrice: Money(minorUnits: price, currency: .usd),
                   discount: Percentage(hundredths: discount), quantity: quantity)
    }

    @Test func basketTotalsWithinTheLimitsAreExact() async {
        await propertyCheck(count: 300, input: Self.lineGenerator.array(of: 0...60)) { lines in
            let basket = Basket(user: User.sample, lines: lines)
            let total = lines.reduce(Decimal(0)) { $0 + Decimal($1.unitPrice.minorUnits) * Decimal($1.quantity) }
            let discounted = lines.reduce(Decimal(0)) { sum, line in
                sum + Self.expectedDiscount(line.unitPrice.minorUnits * Int64(line.quantity),
                                            keptHundredths: 10_000 - line.discount.hundredths)
            }
            let computedTotal = try? basket.total, computedDiscounted = try? basket.discountedTotal
            #expect(computedTotal.map { Decimal($0.minorUnits) } == total)
            #expect(computedDiscounted.map { Decimal($0.minorUnits) } == discounted)
        }
    }

    /// The largest basket the limits allow: every line at the highest price and quantity.
    @Test func theLargestBasketTheLimitsAllowStillAddsUp() throws {
        let line = BasketLine(userID: 1, productID: 1, sku: "SKU", title: "t",
                              unitPrice: Money(minorUnits: ProductLimits.maxPriceMinorUnits, currency: .usd),
                              discount: .zero, quantity: BasketLimits.maxQuantity)
        let basket = Basket(user: User.sample, lines: Array(repeating: line, count: BasketLimits.maxLines))
        let expected = Decimal(ProductLimits.maxPriceMinorUnits) * Decimal(BasketLimits.maxQuantity) * Decimal(BasketLimits.maxLines)
        #expect(try Decimal(basket.total.minorUnits) == expected)
        #expect(try basket.discountedTotal == basket.total)
    }

    /// Lines beyond the limits (a store edited by hand) give an error, not a trap.
    @Test func totalsBeyondTheLimitsAreAnError() {
        let line = BasketLine(userID: 1, productID: 1, sku: "SKU", title: "t",
                              unitPrice: Money(minorUnits: Int64.max / 2, currency: .usd), discount: .zero, quantity: 3)
        #expect(throws: ShopError.self) { try line.total }
        let basket = Basket(user: User.sample, lines: [line, line])
        #expect(throws: ShopError.self) { try basket.total }
        #expect(throws: ShopError.self) { try basket.discountedTotal }
    }
}

extension User {
    static let sample = User(id: 1, username: "sample", email: "sample@example.com", firstName: "S", lastName: "A",
                             createdAt: "2026-01-01T00:00:00Z")
}
