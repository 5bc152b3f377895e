// RuleLines: random basket lines for pinning the line rule (a line's total after its discount,
// rounded once, half away from zero) on every path a store computes it — prices up to
// ProductLimits' highest, discounts 0.00–100.00 %, quantities up to BasketLimits' highest, a
// quarter of them exactly half a cent before rounding, and the edges of each range.

import Foundation
import ShopCore

/// One line's price (minor units), discount (hundredths of a percent) and quantity.
public struct RuleLine: Sendable {
    public var price: Int64
    public var discount: Int
    public var quantity: Int

    /// Before the discount.
    public var gross: Int64 { price * Int64(quantity) }
    /// After the discount, by Foundation's `Decimal` (independently of `Money.discounted`).
    public var net: Int64 { ContractData.discounted(price, times: quantity, by: discount) }
    /// Whether the exact total after the discount ends in half a cent (the rounding's hard case).
    public var isHalfCent: Bool { (gross % 10_000) * Int64(10_000 - discount) % 10_000 == 5_000 }

    /// `count` lines: the edges first, then random ones, every fourth made half a cent.
    public static func random(_ count: Int) -> [RuleLine] {
        var random = SystemRandomNumberGenerator()
        let maxPrice = ProductLimits.maxPriceMinorUnits, maxQuantity = BasketLimits.maxQuantity
        var lines = [RuleLine(price: maxPrice, discount: 0, quantity: maxQuantity),
                     RuleLine(price: maxPrice, discount: 1, quantity: maxQuantity),
                     RuleLine(price: maxPrice, discount: 9_999, quantity: maxQuantity),
                     RuleLine(price: 1, discount: 5_000, quantity: 1),          // 0.5 cent: rounds to 1
                     RuleLine(price: 1, discount: 10_000, quantity: 1),
                     RuleLine(price: 0, discount: 0, quantity: 1)]
        while lines.count < count {
            // Prices from cents to the highest, spread over every order of magnitude.
            let digits = Int.random(in: 1...12, using: &random)
            let upper = min(maxPrice, Int64(pow(10, Double(digits))))
            var line = RuleLine(price: Int64.random(in: 1...upper, using: &random),
                                discount: Int.random(in: 0...10_000, using: &random),
                                quantity: Int.random(in: 1...(Bool.random(using: &random) ? 10 : maxQuantity), using: &random))
            if lines.count.isMultiple(of: 4) { line.makeHalfCent(using: &random) }
            lines.append(line)
        }
        return lines
    }

    /// Picks a discount that leaves exactly half a cent (gross × (10000 − d) ≡ 5000 mod 10000);
    /// when the gross allows none (a multiple of 16 there), the quantity is made odd and the
    /// price moves up a cent first.
    /// The solutions k = 10000 − d repeat every 10000 / gcd(gross, 10000): the first is found by
    /// counting up to it, and one of them is chosen at random.
    mutating func makeHalfCent(using random: inout some RandomNumberGenerator) {
        while true {
            let remainder = gross % 10_000
            var first: Int64 = 0
            while first <= 10_000, remainder * first % 10_000 != 5_000 { first += 1 }
            if first <= 10_000 {
                var (a, b) = (remainder, Int64(10_000))
                while b != 0 { (a, b) = (b, a % b) }
                let step = 10_000 / a
                let chosen = first + step * Int64.random(in: 0...((10_000 - first) / step), using: &random)
                discount = 10_000 - Int(chosen)
                return
            }
            // An odd quantity, and the price a cent up: the gross is soon no multiple of 16.
            if quantity.isMultiple(of: 2) { quantity -= 1 }
            price = price % ProductLimits.maxPriceMinorUnits + 1
        }
    }
}
