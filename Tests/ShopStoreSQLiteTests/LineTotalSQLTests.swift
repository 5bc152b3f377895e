// LineTotalSQLTests: ShopStoreKit's SQL for a line's discounted total, evaluated by SQLite with
// random values up to the edges of ShopCore's ranges, equals Money.discounted (the rule itself);
// the plain `(u × q × (10000 − d) + 5000) / 10000` it replaced does not, past 2^63.

import GRDB
import ShopCore
import ShopStoreKit
import Testing

@Suite struct LineTotalSQLTests {
    /// Prices, quantities and discounts: the edges of each range, then random values within them.
    func samples() -> [(price: Int64, quantity: Int, discount: Int)] {
        var random = SystemRandomNumberGenerator()
        let prices: [Int64] = [0, 1, 9_999, 10_000, 10_001, ProductLimits.maxPriceMinorUnits - 1, ProductLimits.maxPriceMinorUnits]
        let quantities = [1, 2, 9_999, BasketLimits.maxQuantity]
        let discounts = [0, 1, 5_000, 9_999, Percentage.hundredthsRange.upperBound]
        var all = prices.flatMap { price in quantities.flatMap { quantity in discounts.map { (price, quantity, $0) } } }
        for _ in 0..<3_000 {
            all.append((Int64.random(in: 0...ProductLimits.maxPriceMinorUnits, using: &random),
                        Int.random(in: 1...BasketLimits.maxQuantity, using: &random),
                        Int.random(in: Percentage.hundredthsRange, using: &random)))
        }
        return all
    }

    @Test func sqliteComputesMoneyDiscountedExactly() throws {
        let db = try DatabaseQueue()
        let sql = "SELECT " + LineTotalSQL.discounted(unitPrice: ":u", quantity: ":q", discount: ":d") + ", typeof("
            + LineTotalSQL.discounted(unitPrice: ":u", quantity: ":q", discount: ":d") + ")"
        try db.read { db in
            for sample in samples() {
                let row = try #require(try Row.fetchOne(db, sql: sql, arguments: ["u": sample.price, "q": sample.quantity, "d": sample.discount]))
                let gross = Money(minorUnits: sample.price * Int64(sample.quantity), currency: .usd)
                let expected = gross.discounted(by: Percentage(hundredths: sample.discount)).minorUnits
                #expect(row[1] as String == "integer" && row[0] as Int64 == expected, "\(sample)")
            }
        }
    }

    /// The old expression falls to floating point at the top of the ranges (the bug).
    @Test func theNaiveExpressionLeavesIntegersThere() throws {
        let db = try DatabaseQueue()
        let type = try db.read { db in
            try String.fetchOne(db, sql: "SELECT typeof((:u * :q * (10000 - :d) + 5000) / 10000)",
                                arguments: ["u": ProductLimits.maxPriceMinorUnits, "q": BasketLimits.maxQuantity, "d": 1])
        }
        #expect(type == "real")
    }
}
