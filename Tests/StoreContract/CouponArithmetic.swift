// CouponArithmetic: what a basket with a coupon must come to, computed independently of ShopCore
// with Foundation's Decimal — line totals rounded half up to the cent, the coupon's discount
// rounded once, split over the eligible lines by largest remainder. The property tests hold
// CouponRules (ShopCore) and every store's checkout to it.

import Foundation
import ShopCore

public enum CouponArithmetic {
    /// One line as the model sees it: cents, units, discount in hundredths of a percent, in scope or not.
    public struct Line: Sendable {
        public var priceCents: Int64
        public var quantity: Int
        public var discountHundredths: Int
        public var eligible: Bool

        public init(priceCents: Int64, quantity: Int, discountHundredths: Int, eligible: Bool) {
            self.priceCents = priceCents
            self.quantity = quantity
            self.discountHundredths = discountHundredths
            self.eligible = eligible
        }
    }

    /// What the lines come to with the coupon: the discount, each line's part, the order's total.
    public struct Outcome: Equatable, Sendable {
        public var discount: Int64
        public var shares: [Int64]
        public var total: Int64
    }

    /// `value` applied to `lines`: a percentage (hundredths) or a fixed amount (cents), capped.
    public static func outcome(_ lines: [Line], percentHundredths: Int?, amountCents: Int64?) -> Outcome {
        let nets = lines.map { line in
            rounded(Decimal(line.priceCents) * Decimal(line.quantity) * Decimal(10_000 - line.discountHundredths) / 10_000,
                    .plain)
        }
        let eligibleTotal = zip(lines, nets).reduce(Decimal(0)) { $0 + ($1.0.eligible ? $1.1 : 0) }
        var discount: Decimal
        if let percentHundredths {
            discount = rounded(eligibleTotal * Decimal(percentHundredths) / 10_000, .plain)
        } else {
            discount = min(Decimal(amountCents ?? 0), eligibleTotal)
        }
        if eligibleTotal == 0 { discount = 0 }
        var shares = Array(repeating: Decimal(0), count: lines.count)
        var remainders: [(remainder: Decimal, index: Int)] = []
        if discount > 0 {
            for (index, line) in lines.enumerated() where line.eligible && nets[index] > 0 {
                let product = discount * nets[index]
                var quotient = rounded(product / eligibleTotal, .down)
                var remainder = product - quotient * eligibleTotal
                if remainder < 0 { quotient -= 1; remainder += eligibleTotal }
                if remainder >= eligibleTotal { quotient += 1; remainder -= eligibleTotal }
                shares[index] = quotient
                remainders.append((remainder, index))
            }
            var left = discount - shares.reduce(0, +)
            for entry in remainders.sorted(by: { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index }) {
                guard left > 0 else { break }
                shares[entry.index] += 1
                left -= 1
            }
        }
        let total = nets.reduce(0, +) - discount
        return Outcome(discount: cents(discount), shares: shares.map(cents), total: cents(total))
    }

    private static func rounded(_ value: Decimal, _ mode: NSDecimalNumber.RoundingMode) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, 0, mode)
        return output
    }

    private static func cents(_ value: Decimal) -> Int64 {
        NSDecimalNumber(decimal: value).int64Value
    }
}
