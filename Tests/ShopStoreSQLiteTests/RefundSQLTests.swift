// RefundSQLTests: ShopStoreKit's SQL for a returned unit's share (what the PostgreSQL server's
// shopsh_return_units computes), evaluated by SQLite, equals RefundRules.unitsShare, the rule
// itself, for random lines up to the edges of ShopCore's ranges and every step of their returns.

import GRDB
import ShopCore
import ShopStoreKit
import Testing

@Suite struct RefundSQLTests {
    /// (total, units, returned, count) with `returned + count <= units`: edges, then random lines.
    static func samples() -> [(total: Int64, units: Int, returned: Int, count: Int)] {
        var random = SystemRandomNumberGenerator()
        let maxTotal = ProductLimits.maxPriceMinorUnits * Int64(BasketLimits.maxQuantity)
        var all: [(Int64, Int, Int, Int)] = []
        for total in [0, 1, 2, 9_999, maxTotal - 1, maxTotal] as [Int64] {
            for units in [1, 2, 3, 7, BasketLimits.maxQuantity] {
                for returned in Set([0, 1, units / 2, units - 1]) where returned < units {
                    all.append((total, units, returned, 1))
                    all.append((total, units, returned, units - returned))
                }
            }
        }
        for _ in 0..<3_000 {
            let units = Int.random(in: 1...BasketLimits.maxQuantity, using: &random)
            let returned = Int.random(in: 0..<units, using: &random)
            all.append((Int64.random(in: 0...maxTotal, using: &random), units, returned, Int.random(in: 1...(units - returned), using: &random)))
        }
        return all
    }

    @Test func sqliteComputesRefundRulesUnitsShare() throws {
        let db = try DatabaseQueue()
        let share = RefundSQL.unitsShare(total: ":t", units: ":u", returned: ":r", count: ":c")
        try db.read { db in
            for sample in Self.samples() {
                let row = try #require(try Row.fetchOne(db, sql: "SELECT \(share), typeof(\(share))",
                                                        arguments: ["t": sample.total, "u": sample.units, "r": sample.returned, "c": sample.count]))
                let expected = RefundRules.unitsShare(lineTotal: sample.total, units: sample.units,
                                                      alreadyReturned: sample.returned, returning: sample.count)
                #expect(row[1] as String == "integer" && row[0] as Int64 == expected, "\(sample)")
            }
        }
    }

    @Test func fullyRefundedIsOrderRefundStateFull() throws {
        let db = try DatabaseQueue()
        let full = RefundSQL.fullyRefunded(refunded: ":r", paid: ":p")
        try db.read { db in
            for (refunded, paid) in [(0, 0), (0, 100), (99, 100), (100, 100), (101, 100), (5, 0)] as [(Int64, Int64)] {
                let usd = Currency.usd
                let order = Order(id: 1, userID: nil, customer: "x", status: .delivered, total: Money(minorUnits: paid, currency: usd),
                                  discountedTotal: Money(minorUnits: paid, currency: usd), refunded: Money(minorUnits: refunded, currency: usd),
                                  createdAt: "", updatedAt: "")
                let said = try Bool.fetchOne(db, sql: "SELECT \(full)", arguments: ["r": refunded, "p": paid])
                #expect(said == (order.refundState == .full), "refunded \(refunded) of \(paid)")
            }
        }
    }
}
