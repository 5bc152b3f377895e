// StoreContract+Refunds: returns and refunds — every unit of a line returned, in any steps, gives
// back exactly what the line cost; refunds never pass what was paid; --restock puts exactly the
// returned units back; orders that took no money refuse both; all of it audited.

import Foundation
import ShopCore
import Testing

extension StoreContract {
    /// `OrderService.returnUnits` and `refund`.
    public static func refunds(_ fixture: some StoreFixture) async {
        await run("refunds", fixture, [
            Case("every unit of discounted lines returned one at a time refunds each line's paid total", unitByUnitReturns),
            Case("returns in random steps refund each line's paid total", randomStepReturns),
            Case("a refund of the rest + 0.01 is refused; the rest makes the order refunded", refundsStopAtWhatWasPaid),
            Case("--restock puts exactly the returned units back", restockPutsBackExactly),
            Case("placed and cancelled orders refuse returns and refunds", unpaidOrdersRefuse),
            Case("bad returns change nothing", badReturnsRefused),
            Case("an order with refunds is not cancelled", refundedOrderNotCancelled),
            Case("each refund writes one audit row", refundsAudited),
            Case("eight refunds of the last 10.00 at once: exactly one is made", concurrentRefunds),
        ])
    }

    /// Lines with discounts whose totals split unevenly over their units.
    static let refundLines: [(sku: String, price: Int64, discount: Int, quantity: Int)] = [
        ("RF-1", 1_999, 1_050, 7), ("RF-2", 333, 3_333, 3), ("RF-3", 1, 0, 9), ("RF-4", 100_000, 9_999, 13), ("RF-5", 7_777, 1_234, 11),
    ]

    /// An order of `refundLines` for `customer`, moved to `status` (paid, shipped or delivered).
    static func refundableOrder(_ shop: ShopServices, _ customer: String, _ status: OrderStatus = .delivered) async throws -> Order {
        try await ContractData.addUser(shop, customer)
        for line in refundLines where (try? await shop.products.product(line.sku)) == nil {
            try await ContractData.addProduct(shop, sku: line.sku, price: line.price, discount: line.discount, stock: 1_000)
        }
        let order = try await ContractData.placeOrder(shop, customer, refundLines.map { ($0.sku, $0.quantity) })
        for next in [OrderStatus.paid, .shipped, .delivered] {
            _ = try await shop.orders.setOrderStatus(order.id, next)
            if next == status { break }
        }
        return try await shop.orders.order(order.id)
    }

    static func unitByUnitReturns(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rona")
        for line in refundLines {
            var refunded: Int64 = 0
            for _ in 0..<line.quantity {
                let refund = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: line.sku, quantity: 1,
                                                                             restock: false, reason: "broken"))
                #expect(refund.quantity == 1 && refund.sku == line.sku && refund.amount.currency == .usd)
                refunded += refund.amount.minorUnits
            }
            #expect(refunded == ContractData.discounted(line.price, times: line.quantity, by: line.discount), "\(line.sku)")
        }
        let after = try await shop.orders.order(order.id)
        #expect(after.status == .refunded && after.refunded == after.discountedTotal && after.net.minorUnits == 0)
        #expect(after.lines.allSatisfy { $0.returned == $0.quantity })
        #expect(after.refunds.count == refundLines.map(\.quantity).reduce(0, +))
        #expect(after.refunds.map(\.amount.minorUnits).reduce(0, +) == order.discountedTotal.minorUnits)
    }

    static func randomStepReturns(_ shop: ShopServices) async throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3 {
            let order = try await refundableOrder(shop, "rick\(round)", round == 0 ? .paid : .shipped)
            for line in refundLines {
                var left = line.quantity, refunded: Int64 = 0
                while left > 0 {
                    let step = Int.random(in: 1...left, using: &generator)
                    refunded += try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: line.sku, quantity: step,
                                                                                restock: true, reason: "step")).amount.minorUnits
                    left -= step
                }
                #expect(refunded == ContractData.discounted(line.price, times: line.quantity, by: line.discount), "\(line.sku)")
            }
            #expect(try await shop.orders.order(order.id).status == .refunded)
        }
    }

    static func refundsStopAtWhatWasPaid(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rita", .paid)
        let paid = order.discountedTotal.minorUnits
        _ = try await shop.orders.refund(order.id, amount: ContractData.usd(1_000), reason: "late delivery")
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "RF-1", quantity: 2, restock: false, reason: "torn"))
        let partly = try await shop.orders.order(order.id)
        #expect(partly.status == .paid && partly.refundState == .partial)
        let rest = paid - partly.refunded.minorUnits
        try await expectRefused(.conflict, shop) {
            try await shop.orders.refund(order.id, amount: ContractData.usd(rest + 1), reason: "too much")
        }
        try await expectRefused(.invalidInput, shop) {
            try await shop.orders.refund(order.id, amount: ContractData.usd(0), reason: "nothing")
        }
        _ = try await shop.orders.refund(order.id, amount: ContractData.usd(rest), reason: "the rest")
        let refunded = try await shop.orders.order(order.id)
        #expect(refunded.status == .refunded && refunded.refunded.minorUnits == paid && refunded.refundState == .full)
        try await expectRefused(.conflict, shop) {
            try await shop.orders.refund(order.id, amount: ContractData.usd(1), reason: "more")
        }
        let listed = try await ContractData.listOrders(shop, OrderFilter(status: .refunded))
        #expect(listed.map(\.id) == [order.id])
    }

    static func restockPutsBackExactly(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rolf")
        let stock = try await shop.products.product("RF-5").stock
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "RF-5", quantity: 3, restock: true, reason: "unopened"))
        #expect(try await shop.products.product("RF-5").stock == stock + 3)
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "RF-5", quantity: 2, restock: false, reason: "damaged"))
        #expect(try await shop.products.product("RF-5").stock == stock + 3)
        let line = try #require(try await shop.orders.order(order.id).lines.first { $0.sku == "RF-5" })
        #expect(line.returned == 5)
        let refunds = try await shop.orders.order(order.id).refunds
        #expect(refunds.map(\.restocked) == [true, false])
    }

    static func unpaidOrdersRefuse(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ruth")
        try await ContractData.addProduct(shop, sku: "UP-1", price: 1_000, stock: 10)
        let placed = try await ContractData.placeOrder(shop, "ruth", [("UP-1", 2)])
        let cancelled = try await ContractData.placeOrder(shop, "ruth", [("UP-1", 1)])
        _ = try await shop.orders.setOrderStatus(cancelled.id, .cancelled)
        for order in [placed, cancelled] {
            try await expectRefused(.conflict, shop) {
                try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "UP-1", quantity: 1, restock: true, reason: "x"))
            }
            try await expectRefused(.conflict, shop) {
                try await shop.orders.refund(order.id, amount: ContractData.usd(100), reason: "x")
            }
        }
    }

    static func badReturnsRefused(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "remy")
        func returning(_ product: String, _ quantity: Int, reason: String = "why") async throws -> OrderRefund {
            try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: product, quantity: quantity, restock: true, reason: reason))
        }
        try await expectRefused(.conflict, shop) { try await returning("RF-2", 4) }          // 3 bought
        try await expectRefused(.invalidInput, shop) { try await returning("RF-2", 0) }
        try await expectRefused(.invalidInput, shop) { try await returning("RF-2", -1) }
        try await expectRefused(.notFound, shop) { try await returning("NOPE", 1) }
        try await expectRefused(.invalidInput, shop) { try await returning("RF-2", 1, reason: "  ") }
        try await expectRefused(.invalidInput, shop) { try await returning("RF-2", 1, reason: "a\u{1B}[31m") }
        try await expectRefused(.notFound, shop) {
            try await shop.orders.returnUnits(ReturnRequest(orderID: 999_999, product: "RF-2", quantity: 1, restock: true, reason: "x"))
        }
        _ = try await returning("RF-2", 3)
        try await expectRefused(.conflict, shop) { try await returning("RF-2", 1) }          // none left
    }

    static func refundedOrderNotCancelled(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rosa", .paid)
        _ = try await shop.orders.refund(order.id, amount: ContractData.usd(100), reason: "goodwill")
        try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .cancelled) }
    }

    static func refundsAudited(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rudy")
        var before: [AuditEntry] = []
        try await shop.audit.listAudit(AuditFilter(), page: .all) { before.append($0) }
        _ = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "RF-1", quantity: 2, restock: true, reason: "cracked"))
        _ = try await shop.orders.refund(order.id, amount: ContractData.usd(250), reason: "shipping")
        var after: [AuditEntry] = []
        try await shop.audit.listAudit(AuditFilter(), page: .all) { after.append($0) }
        let new = after.filter { entry in !before.contains { $0.id == entry.id } }.sorted { $0.id < $1.id }
        #expect(new.map(\.action) == ["return", "refund"], "\(new)")
        #expect(new.allSatisfy { $0.entity == "order" && $0.entityID == String(order.id) })
        #expect(new.last?.after?["amount"] == .text("2.50 USD") && new.last?.after?["reason"] == .text("shipping"))
        #expect(new.first?.after?["units"] == .integer(2) && new.first?.after?["restocked"] == .bool(true))
    }

    static func concurrentRefunds(_ shop: ShopServices) async throws {
        let order = try await refundableOrder(shop, "rory", .paid)
        let rest = order.discountedTotal.minorUnits - 1_000
        _ = try await shop.orders.refund(order.id, amount: ContractData.usd(rest), reason: "most of it")
        let outcomes = await withTaskGroup(of: Result<OrderRefund, any Error>.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do { return .success(try await shop.orders.refund(order.id, amount: ContractData.usd(1_000), reason: "the last 10.00")) }
                    catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.compactMap { try? $0.get() }.count == 1)
        for case .failure(let error) in outcomes {
            guard case ShopError.conflict = error else { Issue.record(error, "a losing refund must be a conflict"); continue }
        }
        let after = try await shop.orders.order(order.id)
        #expect(after.refunded == after.discountedTotal && after.status == .refunded && after.refunds.count == 2)
    }
}
