// SalesTopTests: `products top` and `users top` in the built binary on the demo shop — the head of
// the same ranking `orders stats --by product|customer` gives, ranked by revenue or by units.

import Foundation
import Testing

@Suite struct SalesTopTests {
    static func rows(_ sandbox: ShopshSandbox, _ line: String) async throws -> [[String: Any]] {
        try await #require(try JSONSerialization.jsonObject(with: Data(try sandbox.ok(line + " -o json").utf8)) as? [[String: Any]])
    }

    @Test func theTopIsTheHeadOfTheWholeRanking() async throws {
        let sandbox = try await ShopshSandbox()
        let products = try await Self.rows(sandbox, "orders stats --by product --since 90d")
        let top = try await Self.rows(sandbox, "products top --top 5 --since 90d")
        #expect(top.count == 5 && top.compactMap { $0["product_id"] as? Int } == products.prefix(5).compactMap { $0["product_id"] as? Int })
        let byUnits = try await Self.rows(sandbox, "products top --by units --since 90d")
        let units = byUnits.compactMap { $0["items"] as? Int }
        #expect(units.count == 10 && units == units.sorted(by: >) && units.first == products.compactMap { $0["items"] as? Int }.max())
        let customers = try await Self.rows(sandbox, "orders stats --by customer")
        let best = try await Self.rows(sandbox, "users top --top 3")
        #expect(best.compactMap { $0["user_id"] as? Int } == customers.prefix(3).compactMap { $0["user_id"] as? Int })
        let nets = customers.compactMap { ($0["net"] as? NSNumber).flatMap { Decimal(string: $0.stringValue) } }
        #expect(nets.count == customers.count && nets == nets.sorted(by: >))
    }
}
