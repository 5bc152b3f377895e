// OrdersTableTests: `orders list` as a table for people at 40, 80, 120 and 200 columns.

import Orders
import Testing
import TestSupport

@Suite struct OrdersTableTests {
    @Test func ordersListIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [ordersPlugin],
                                               setup: { services in
                                                   let first = try await services.baskets.checkout("emilys")
                                                   _ = try await services.baskets.checkout("jamesd")
                                                   _ = try await services.orders.setOrderStatus(first.id, .paid)
                                               },
                                               command: "orders list",
                                               uncutFields: ["id", "customer", "status", "discounted_total", "currency"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
