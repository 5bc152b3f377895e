// RolesTableTests: every command that changes the shop names its ShopOperation (the one table of
// roles), and one that only reads names none — found by running each command on the demo shop and
// watching the audit log, where every change leaves a row.

import ArgumentParser
import Foundation
import Testing
import ShellKit
import ShopCore
import TestSupport
@testable import shopsh

@Suite struct RolesTableTests {
    /// One line per command that runs it successfully on the demo shop, in an order where each
    /// finds what it needs (an order to move, a user to delete). A new command needs a line here.
    static let samples: [(command: String, line: String)] = [
        ("products list", "products list --limit 2"),
        ("products show", "products show 1"),
        ("products search", "products search phone"),
        ("products categories", "products categories"),
        ("products add", "products add --title Lamp --price 12.50 --category lighting --stock 3"),
        ("products update", "products update 1 --price 10.01"),
        ("products stock", "products stock 2 +5"),
        ("products stock-history", "products stock-history 2"),
        ("products import", "products import PRODUCTS_FILE"),
        ("products delete", "products delete 3"),
        ("products top", "products top --since 30d"),
        ("reviews list", "reviews list --product 1 --rating-below 5"),
        ("reviews show", "reviews show 1"),
        ("reviews hide", "reviews hide 1 --reason \"abusive language\""),
        ("reviews unhide", "reviews unhide 1"),
        ("reviews delete", "reviews delete 2 --yes"),
        ("basket show", "basket show emilys"),
        ("basket total", "basket total emilys"),
        ("basket explain", "basket explain emilys"),
        ("basket add", "basket add emilys 5 --qty 2"),
        ("basket set", "basket set emilys 5 3"),
        ("audit revert", "audit revert LAST_AUDIT_ROW --yes"),   // the basket set just above
        ("basket remove", "basket remove emilys 5"),
        ("coupons add", "coupons add TENOFF --percent 10"),
        ("coupons generate", "coupons generate 2 --prefix BF- --amount 5 --max-uses 1"),
        ("coupons list", "coupons list"),
        ("coupons show", "coupons show tenoff"),
        ("basket coupon", "basket coupon emilys tenoff"),
        ("basket checkout", "basket checkout emilys"),                             // with TENOFF
        ("coupons disable", "coupons disable TENOFF"),
        ("basket clear", "basket clear michaelw"),
        ("basket list", "basket list --limit 2"),
        ("favorites list", "favorites list emilys"),
        ("favorites top", "favorites top"),
        ("favorites add", "favorites add emilys 7"),
        ("favorites toggle", "favorites toggle emilys 8"),
        ("favorites remove", "favorites remove emilys 7"),
        ("orders list", "orders list"),
        ("orders show", "orders show 1"),
        ("orders stats", "orders stats"),
        ("orders status", "orders status LAST_ORDER paid"),   // the checkout above (the demo's history comes first)
        ("orders cancel", "orders cancel LAST_ORDER"),
        ("orders return", "orders return DELIVERED_ORDER DELIVERED_PRODUCT --qty 1 --restock --reason broken"),
        ("orders refund", "orders refund DELIVERED_ORDER --amount 0.01 --reason goodwill"),
        ("orders note", "orders note 1 leave it with the neighbour"),
        ("orders ship", "orders ship PAID_ORDER --carrier dhl --tracking ABCD1234"),   // a paid order of the demo's
        ("orders deliver", "orders deliver SHIPPED_ORDER"),                            // the one just shipped
        ("orders track", "orders track emilys"),
        ("users list", "users list --limit 2"),
        ("users show", "users show emilys"),
        ("users address", "users address emilys add --line1 '1 High Street' --city York --country GB"),
        ("users note", "users note emilys 'hard of hearing: call, do not email'"),
        ("users top", "users top --since 30d"),
        ("users add", "users add --username zed --email zed@example.com --first-name Zed --last-name Z"),
        ("users update", "users update zed --phone 123"),
        ("users disable", "users disable zed"),
        ("users enable", "users enable zed"),
        ("users passwd", "users passwd zed --password-file PASSWORD_FILE"),
        ("users check-password", "users check-password emilys --password-file PASSWORD_FILE"),
        ("users delete", "users delete zed --yes"),
        ("currency rates", "currency rates"),
        ("currency convert", "currency convert 100 USD JPY"),
        ("currency codes", "currency codes"),
        ("currency import", "currency import RATES_FILE"),
        ("audit list", "audit list --limit 2"),
        ("audit show", "audit show 1"),
    ]

    /// Every plugin command as typed (`basket add`), with its type.
    static var commands: [(name: String, type: any ParsableCommand.Type)] {
        allPlugins.flatMap { plugin in
            plugin.command.configuration.subcommands.map { (plugin.name + " " + $0._commandName, $0) }
        }
    }

    @Test func everyCommandHasASample() {
        #expect(Set(Self.commands.map(\.name)) == Set(Self.samples.map(\.command)))
    }

    @Test func aCommandNamesAnOperationExactlyWhenItChangesTheShop() async throws {
        let shop = try await ShellHarness(plugins: allPlugins, demo: true)
        let password = shop.folder.appendingPathComponent("password").path
        try "secret-1234\n".write(toFile: password, atomically: true, encoding: .utf8)
        let products = shop.folder.appendingPathComponent("products.csv").path
        try "title,price,category,stock\nKettle,19.99,kitchen-accessories,4\n".write(toFile: products, atomically: true, encoding: .utf8)
        let rates = shop.folder.appendingPathComponent("rates.csv").path
        try "Date,USD,JPY,\n2026-11-20,1.0512,161.20,\n".write(toFile: rates, atomically: true, encoding: .utf8)
        let types = Dictionary(uniqueKeysWithValues: Self.commands.map { ($0.name, $0.type) })

        for sample in Self.samples {
            var newest = ""
            try await shop.services.audit.listAudit(AuditFilter(), page: Page(limit: 1)) { newest = String($0.id) }
            var newestOrder = ""
            try await shop.services.orders.listOrders(OrderFilter(), page: Page(limit: 1)) { newestOrder = String($0.id) }
            let delivered = try await Self.deliveredOrder(shop.services)
            let line = try await Self.withOrders(sample.line, shop.services).replacingOccurrences(of: "PASSWORD_FILE", with: password)
                .replacingOccurrences(of: "DELIVERED_ORDER", with: delivered.id).replacingOccurrences(of: "DELIVERED_PRODUCT", with: delivered.sku)
                .replacingOccurrences(of: "PRODUCTS_FILE", with: products).replacingOccurrences(of: "RATES_FILE", with: rates)
                .replacingOccurrences(of: "LAST_AUDIT_ROW", with: newest).replacingOccurrences(of: "LAST_ORDER", with: newestOrder)
            let before = try await Self.auditRows(shop.services)
            let (outcome, _) = await shop.run(line)
            let changed = try await Self.auditRows(shop.services) > before
            // check-password answers `no match` with status 1 and changes nothing.
            #expect(outcome == .success || sample.command == "users check-password", "\(line): \(shop.stderr)")
            let operation = (types[sample.command] as? any ShellCommand.Type)?.operation
            #expect(changed == (operation != nil),
                    "\(sample.command) \(changed ? "changed the shop but names no ShopOperation" : "names \(operation.map { "\($0)" } ?? "") but changed nothing")")
        }
    }

    @Test func theShellRefusesEachOperationBelowItsLeastRoleAndNothingChanges() async throws {
        for role in [OperatorRole.viewer, .support] {
            let identity = OperatorIdentity(name: "tester", role: role,
                                            readOnlyReason: role == .viewer ? OperatorIdentity.viewerReadOnlyReason : nil)
            let shop = try await ShellHarness(plugins: allPlugins, demo: true, identity: identity)
            let types = Dictionary(uniqueKeysWithValues: Self.commands.map { ($0.name, $0.type) })
            for sample in Self.samples {
                guard let operation = (types[sample.command] as? any ShellCommand.Type)?.operation,
                      role < operation.leastRole else { continue }
                let before = try await Self.auditRows(shop.services)
                let delivered = try await Self.deliveredOrder(shop.services)
                let (outcome, _) = await shop.run(try await Self.withOrders(sample.line, shop.services).replacingOccurrences(of: "LAST_AUDIT_ROW", with: "1")
                    .replacingOccurrences(of: "DELIVERED_ORDER", with: delivered.id).replacingOccurrences(of: "DELIVERED_PRODUCT", with: delivered.sku))
                #expect(outcome == .failure, "\(sample.line) as \(role)")
                #expect(shop.stderr.contains("\(sample.command) needs the \(operation.leastRole.rawValue) role"), "\(sample.line) as \(role)")
                #expect(try await Self.auditRows(shop.services) == before)
            }
        }
    }

    /// `line` with PAID_ORDER (the newest paid order) and SHIPPED_ORDER (the newest paid or
    /// shipped order with a parcel on its way) filled in.
    private static func withOrders(_ line: String, _ services: ShopServices) async throws -> String {
        var paid: Int64 = 0
        try await services.orders.listOrders(OrderFilter(status: .paid), page: Page(limit: 1)) { paid = $0.id }
        var shipped: Int64 = 0
        for status in [OrderStatus.shipped, .paid] where shipped == 0 {
            var candidates: [Int64] = []
            try await services.orders.listOrders(OrderFilter(status: status), page: Page(limit: 20)) { candidates.append($0.id) }
            for id in candidates where shipped == 0 {
                if try await services.shipments.shipments(id).contains(where: { $0.deliveredAt == nil }) { shipped = id }
            }
        }
        return line.replacingOccurrences(of: "PAID_ORDER", with: String(paid)).replacingOccurrences(of: "SHIPPED_ORDER", with: String(shipped))
    }

    /// The newest delivered order of the demo and its first line's SKU (returns and refunds take them).
    private static func deliveredOrder(_ services: ShopServices) async throws -> (id: String, sku: String) {
        var id: Int64 = 0
        try await services.orders.listOrders(OrderFilter(status: .delivered), page: Page(limit: 1)) { id = $0.id }
        let order = try await services.orders.order(id)
        return (String(id), order.lines.first?.sku ?? "")
    }

    private static func auditRows(_ services: ShopServices) async throws -> Int {
        var count = 0
        try await services.audit.listAudit(AuditFilter(), page: Page()) { _ in count += 1 }
        return count
    }
}
