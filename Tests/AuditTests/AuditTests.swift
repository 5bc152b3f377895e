// AuditTests: the audit plugin and the shell's operator rules, in process on a real store (SQLite,
// or PostgreSQL in make test's second pass): what `audit list/show` print in each format, their
// refusals, what each role may run, and what a viewer sees of customers' personal data.

import Audit
import Basket
import Foundation
import Products
import ShellKit
import ShopCore
import Testing
import TestSupport
import Users

let allTestedPlugins = [auditPlugin, basketPlugin, productsPlugin, usersPlugin]

func operatorShell(_ identity: OperatorIdentity? = nil) async throws -> ShellHarness {
    try await ShellHarness(plugins: allTestedPlugins, demo: true, identity: identity)
}

@Suite struct AuditPluginTests {
    @Test func listShowsEachChangeWithItsCommandNewestFirst() async throws {
        let shop = try await operatorShell()
        #expect(await shop.run("basket set emilys 113 2").outcome == .success)
        #expect(await shop.run("products stock 1 =9").outcome == .success)
        let rows = try #require(try await shop.json("audit list -o json") as? [[String: Any]])
        try #require(rows.count == 2, "\(rows)")
        #expect(rows[0]["entity"] as? String == "product" && rows[0]["action"] as? String == "stock")
        #expect(rows[0]["command"] as? String == "products stock 1 =9")
        #expect(rows[1]["command"] as? String == "basket set emilys 113 2")
        #expect((rows[1]["before"] as? [String: Any])?["quantity"] as? Int == 3)
        #expect(rows[1]["changes"] as? String == "product: 113, quantity: 3 → 2")
        let ndjson = await shop.run("audit list --entity product -o ndjson")
        let lines = ndjson.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((object["after"] as? [String: Any])?["stock"] as? Int == 9)
        let id = try #require(object["id"] as? Int)
        let shown = try #require(try await shop.json("audit show \(id) -o json") as? [String: Any])
        #expect(shown["entity_id"] as? String == "1" && shown["action"] as? String == "stock")
    }

    @Test func filtersAndTheirRefusals() async throws {
        let shop = try await operatorShell()
        #expect(await shop.run("basket add emilys 1").outcome == .success)
        #expect(await shop.run("basket add michaelw 1").outcome == .success)
        let emily = try #require(try await shop.json("audit list --entity basket --id emilys -o json") as? [[String: Any]])
        #expect(emily.count == 1 && emily.first?["command"] as? String == "basket add emilys 1")
        let all = try #require(try await shop.json("audit list --since 2000-01-01 --until 2999-12-31 -o json") as? [[String: Any]])
        #expect(all.count == 2)
        let none = try #require(try await shop.json("audit list --until 2000-01-01 -o json") as? [[String: Any]])
        #expect(none.isEmpty)
        let operatorName = try #require(all.first?["operator"] as? String)
        let mine = try #require(try await shop.json("audit list --operator \(operatorName) -o json") as? [[String: Any]])
        #expect(mine.count == 2)
        for (command, message) in [("audit list --entity planet", "Please provide one of 'basket', 'product', 'user', 'order', 'favourite', 'currency' or 'coupon'."),
                                   ("audit list --since 2026-02-30", "no such day"),
                                   ("audit list --since 2026-02-02 --until 2026-02-01", "is after"),
                                   ("audit list --entity order --id abc", "order ids are numbers"),
                                   ("audit show 0", "whole number"),
                                   ("audit show 424242", "no audit entry 424242")] {
            let before = shop.stderr.count
            #expect(await shop.run(command).outcome != .success, "\(command)")
            let said = String(shop.stderr.dropFirst(before))
            #expect(said.contains(message) && said.split(separator: "\n").count == 1, "\(command): \(said)")
        }
    }
}

@Suite struct OperatorRoleTests {
    @Test func aViewerReadsEverythingWithPersonalDataMaskedAndChangesNothing() async throws {
        let shop = try await operatorShell(OperatorIdentity(name: "vera", role: .viewer, readOnlyReason: "the viewer role"))
        let user = try #require(try await shop.json("users show emilys -o json") as? [String: Any])
        #expect(user["email"] as? String == PersonalDataMask.email("emily.johnson@x.dummyjson.com"))
        #expect(user["email"] as? String == "e***@x.dummyjson.com")
        #expect((user["phone"] as? String)?.hasSuffix("3024") == true && (user["phone"] as? String)?.contains("965") == false)
        let listed = try #require(try await shop.json("users list --all -o json") as? [[String: Any]])
        #expect(listed.count == 208 && listed.allSatisfy { ($0["email"] as? String)?.contains("***@") == true })
        let basket = try #require(try await shop.json("basket show emilys -o json") as? [String: Any])
        #expect(((basket["user"] as? [String: Any])?["email"] as? String)?.contains("***") ?? true)
        let before = try await shop.services.basketFingerprint()
        for (command, role) in [("basket add emilys 1", "support"), ("products stock 1 =1", "admin"), ("users disable emilys", "admin")] {
            let errors = shop.stderr.count
            #expect(await shop.run(command).outcome == .failure, "\(command)")
            let said = String(shop.stderr.dropFirst(errors))
            #expect(said.contains("needs the \(role) role") && said.contains("vera is a viewer") && said.split(separator: "\n").count == 1, "\(said)")
        }
        #expect(try await shop.services.basketFingerprint() == before)
        #expect(try await shop.services.allAuditEntries().isEmpty)
    }

    @Test func supportChangesBasketsButNotTheCatalogue() async throws {
        let shop = try await operatorShell(OperatorIdentity(name: "sam", role: .support))
        #expect(await shop.run("basket set emilys 113 1").outcome == .success)
        let errors = shop.stderr.count
        #expect(await shop.run("products update 1 --title Renamed").outcome == .failure)
        #expect(String(shop.stderr.dropFirst(errors)).contains("needs the admin role"))
        let product = try #require(try await shop.json("products show 1 -o json") as? [String: Any])
        #expect(product["title"] as? String != "Renamed")
        let user = try #require(try await shop.json("users show emilys -o json") as? [String: Any])
        #expect(user["email"] as? String == "emily.johnson@x.dummyjson.com", "support sees emails")
    }

    @Test func whoamiSaysWhoAndWhy() async throws {
        let shop = try await operatorShell(OperatorIdentity(name: "vera", role: .viewer, readOnlyReason: "the viewer role"))
        let me = try #require(try await shop.json("whoami -o json") as? [String: Any])
        #expect(me["operator"] as? String == "vera" && me["role"] as? String == "viewer")
        #expect(me["read_only"] as? Bool == true && me["read_only_reason"] as? String == "the viewer role")
    }
}
