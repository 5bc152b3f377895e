// RefundRulesTests: a line's paid total split over its units by largest remainder — every unit
// returned, in any steps, gives back exactly the total; no step gives back more than its units'
// fair share plus one minor unit each; what a return or refund may be, and what it may not.

import ShopCore
import Testing

@Suite struct RefundRulesTests {
    /// `steps` random positive parts adding up to `units`.
    func randomSteps(_ units: Int, using random: inout some RandomNumberGenerator) -> [Int] {
        var left = units, steps: [Int] = []
        while left > 0 {
            let step = Int.random(in: 1...left, using: &random)
            steps.append(step)
            left -= step
        }
        return steps
    }

    @Test func returningEveryUnitInAnyStepsGivesBackExactlyTheTotal() {
        var random = SystemRandomNumberGenerator()
        let totals: [Int64] = [0, 1, 2, 99, 100, 101, 1_000_000_007, 10_000_000_000_000_000]
        for _ in 0..<5_000 {
            let total = Bool.random(using: &random) ? totals.randomElement(using: &random) ?? 0
                : Int64.random(in: 0...10_000_000_000_000_000, using: &random)
            let units = Int.random(in: 1...10_000, using: &random)
            var returned = 0, given: Int64 = 0
            for step in randomSteps(units, using: &random) {
                let share = RefundRules.unitsShare(lineTotal: total, units: units, alreadyReturned: returned, returning: step)
                // Each unit is worth the total over the units, rounded down or up.
                #expect(share >= Int64(step) * (total / Int64(units)) && share <= Int64(step) * (total / Int64(units) + 1))
                given += share
                returned += step
            }
            #expect(given == total, "total \(total) over \(units) units")
        }
    }

    @Test func theFirstUnitsReturnedCarryTheRemainder() {
        // 20.05 over 4 units: 5.02, then 5.01 three times.
        #expect((0..<4).map { RefundRules.unitsShare(lineTotal: 2_005, units: 4, alreadyReturned: $0, returning: 1) } == [502, 501, 501, 501])
        #expect(RefundRules.unitsShare(lineTotal: 2_005, units: 4, alreadyReturned: 0, returning: 4) == 2_005)
        #expect(RefundRules.unitsShare(lineTotal: 10, units: 3, alreadyReturned: 1, returning: 2) == 6)   // 4 + 3 + 3
    }

    @Test func outOfRangeValuesGiveNothing() {
        #expect(RefundRules.unitsShare(lineTotal: 100, units: 0, alreadyReturned: 0, returning: 1) == 0)
        #expect(RefundRules.unitsShare(lineTotal: 100, units: 2, alreadyReturned: 2, returning: 1) == 0)
        #expect(RefundRules.unitsShare(lineTotal: -5, units: 2, alreadyReturned: 0, returning: 1) == 0)
        #expect(RefundRules.unitsShare(lineTotal: 100, units: 2, alreadyReturned: -1, returning: 1) == 0)
    }

    func order(status: OrderStatus = .delivered, refunded: Int64 = 0) -> Order {
        let usd = Currency.usd
        let line = OrderLine(productID: 7, sku: "MUG-1", title: "Mug", unitPrice: Money(minorUnits: 1_000, currency: usd),
                             discount: Percentage(hundredths: 1_000), quantity: 2)
        return Order(id: 12, userID: 1, customer: "emilys", status: status, total: Money(minorUnits: 2_000, currency: usd),
                     discountedTotal: Money(minorUnits: 1_800, currency: usd), refunded: Money(minorUnits: refunded, currency: usd),
                     createdAt: "2026-11-01T10:00:00Z", updatedAt: "2026-11-01T10:00:00Z", lines: [line])
    }

    @Test func aReturnIsPlannedOnTheLineAndCappedAtWhatIsLeft() throws {
        let request = ReturnRequest(orderID: 12, product: "mug-1", quantity: 1, restock: true, reason: "broken")
        let plan = try RefundRules.plan(request, order: order())
        #expect(plan.lineNumber == 1 && plan.amount.minorUnits == 900)
        #expect(try RefundRules.plan(request, order: order(refunded: 1_500)).amount.minorUnits == 300)
        #expect(throws: ShopError.self) { try RefundRules.plan(request, order: order(status: .placed)) }
        #expect(throws: ShopError.self) { try RefundRules.plan(request, order: order(status: .cancelled)) }
        var three = request
        three.quantity = 3
        #expect(throws: ShopError.self) { try RefundRules.plan(three, order: order()) }
        #expect(throws: ShopError.self) { try RefundRules.plan(ReturnRequest(orderID: 12, product: "8", quantity: 1, restock: false, reason: "x"), order: order()) }
    }

    @Test func aRefundIsPositiveInTheOrdersCurrencyAndAtMostWhatIsLeft() throws {
        let usd = Currency.usd
        try RefundRules.checkAmount(Money(minorUnits: 1_800, currency: usd), order: order())
        #expect(throws: ShopError.self) { try RefundRules.checkAmount(Money(minorUnits: 1_801, currency: usd), order: order()) }
        #expect(throws: ShopError.self) { try RefundRules.checkAmount(Money(minorUnits: 0, currency: usd), order: order()) }
        #expect(throws: ShopError.self) { try RefundRules.checkAmount(Money(minorUnits: 1, currency: .eur), order: order()) }
        #expect(throws: ShopError.self) { try RefundRules.checkAmount(Money(minorUnits: 301, currency: usd), order: order(refunded: 1_500)) }
        #expect(order(refunded: 1_800).refundState == .full && order(refunded: 1).refundState == .partial && order().refundState == .none)
    }

    @Test func aReasonIsTrimmedShortAndPrintable() throws {
        #expect(try RefundRules.checkReason("  broken in transit ") == "broken in transit")
        for bad in ["", "   ", String(repeating: "x", count: RefundRules.maxReasonLength + 1), "a\u{1B}[2Jb", "line\nbreak", "nul\u{0}"] {
            #expect(throws: ShopError.self, "\(bad.debugDescription)") { try RefundRules.checkReason(bad) }
        }
        #expect(try RefundRules.checkReason(String(repeating: "é", count: RefundRules.maxReasonLength)).count == RefundRules.maxReasonLength)
        // Counted as PostgreSQL's length() counts: an e with a combining accent is two characters there.
        let decomposed = String(repeating: "e\u{301}", count: RefundRules.maxReasonLength / 2 + 1)
        #expect(decomposed.count <= RefundRules.maxReasonLength)
        #expect(throws: ShopError.self) { try RefundRules.checkReason(decomposed) }
        // Another option names itself.
        #expect(throws: ShopError.invalidInput("--note holds a control character")) { try RefundRules.checkReason("a\u{7}", option: "--note") }
    }
}
