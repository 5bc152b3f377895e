// RevertTests: `audit revert` on the demo shop, on the store under test — a bulk price change
// undone as a change set gives back the catalogue byte for byte; a basket change a colleague
// changed again is refused with both quantities unless --force; what cannot be undone says why;
// and on PostgreSQL a change made at psql (audited by the server) reverts like any other.

import Foundation
import ShopCore
import Testing
import TestSupport

@Suite struct RevertTests {
    static func catalogue(_ shop: ShellHarness) async -> String {
        await shop.run("products list --all -o json").stdout
    }

    /// The newest audit row's id and change set.
    static func newest(_ shop: ShellHarness) async throws -> (id: Int, changeSet: Int) {
        let rows = try #require(try await shop.json("audit list --limit 1 -o json") as? [[String: Any]])
        return (try #require(rows.first?["id"] as? Int), try #require(rows.first?["change_set"] as? Int))
    }

    @Test func aChangeSetRevertsToTheCatalogueAsItWas() async throws {
        let shop = try await operatorShell()
        let before = await Self.catalogue(shop)
        #expect(await shop.run("products update --category smartphones --price -10% --yes").outcome == .success)
        #expect(await Self.catalogue(shop) != before)
        let changeSet = try await Self.newest(shop).changeSet
        // A dry run and a batch without --yes change nothing.
        #expect(await shop.run("audit revert --change-set \(changeSet) --dry-run").outcome == .success)
        #expect(await shop.run("audit revert --change-set \(changeSet)").outcome != .success)
        let rows = try #require(try await shop.json("audit revert --change-set \(changeSet) --yes -o json") as? [[String: Any]])
        #expect(rows.count == 16 && rows.allSatisfy { $0["field"] as? String == "price" })
        #expect(await Self.catalogue(shop) == before)
        // The revert is audited as its own change, with its command.
        let revert = try #require(try await shop.json("audit list --limit 16 -o json") as? [[String: Any]])
        #expect(revert.allSatisfy { ($0["command"] as? String)?.hasPrefix("audit revert --change-set") == true })
        #expect(Set(revert.compactMap { $0["change_set"] as? Int }).count == 1)
        // Done once, it is done: a second revert says so and changes nothing (issue 32: it said
        // "changed since", as if someone else had changed the prices).
        #expect(await shop.run("audit revert --change-set \(changeSet) --yes").outcome == .success)
        #expect(shop.stderr.contains("already undone") && !shop.stderr.contains("changed since"), "\(shop.stderr)")
        #expect(await Self.catalogue(shop) == before)
    }

    /// Issue 38: a product's barcode and details are audited with its other fields and set back
    /// by a revert; a review's hiding is audited under its product and says a revert does not undo it.
    @Test func barcodesAndDetailsRevertReviewsSayWhy() async throws {
        let shop = try await operatorShell()
        let before = try #require(try await shop.json("products show 2 -o json") as? [String: Any])
        #expect(await shop.run("products update 2 --barcode 4006381333931 --weight 12.5 --images \"\" --warranty \"\"").outcome == .success)
        let changed = try #require(try await shop.json("products show 2 -o json") as? [String: Any])
        #expect(changed["barcode"] as? String == "4006381333931" && (changed["images"] as? [String])?.isEmpty == true
                && changed["warranty"] is NSNull, "\(changed)")
        let row = try await Self.newest(shop).id
        let entry = try #require(try await shop.json("audit show \(row) -o json") as? [String: Any])
        #expect("\(entry)".contains("barcode") && "\(entry)".contains("details"), "\(entry)")
        #expect(await shop.run("audit revert \(row) --yes").outcome == .success, "\(shop.stderr)")
        let reverted = try #require(try await shop.json("products show 2 -o json") as? [String: Any])
        #expect(NSDictionary(dictionary: reverted).isEqual(to: before), "\(reverted) vs \(before)")
        _ = try await shop.services.reviews.hideReview(1, reason: "spam")   // the reviews plugin is not this target's
        let hide = try await Self.newest(shop).id
        let hidden = try #require(try await shop.json("audit show \(hide) -o json") as? [String: Any])
        #expect(hidden["entity"] as? String == "product" && hidden["action"] as? String == "review hide", "\(hidden)")
        #expect(await shop.run("audit revert \(hide) --yes").outcome != .success)
        #expect(shop.stderr.contains("cannot be reverted"), "\(shop.stderr)")
    }

    @Test func aBasketLineAColleagueChangedAgainNeedsForce() async throws {
        let shop = try await operatorShell()
        #expect(await shop.run("basket set emilys 113 2").outcome == .success)   // from 3
        let change = try await Self.newest(shop).id
        #expect(await shop.run("basket set emilys 113 5").outcome == .success)   // a colleague, since
        #expect(await shop.run("audit revert \(change) --yes").outcome != .success)
        #expect(shop.stderr.contains("it holds 5 of product 113, #\(change) left 2"), "\(shop.stderr)")
        #expect(try await shop.services.baskets.basket("emilys").lines.first { $0.productID == 113 }?.quantity == 5)
        #expect(await shop.run("audit revert \(change) --force --yes").outcome == .success)
        #expect(try await shop.services.baskets.basket("emilys").lines.first { $0.productID == 113 }?.quantity == 3)
        // A line that was added goes again when its add is reverted.
        #expect(await shop.run("basket add emilys 5").outcome == .success)
        #expect(await shop.run("audit revert \(try await Self.newest(shop).id) --yes").outcome == .success)
        #expect(try await shop.services.baskets.basket("emilys").lines.contains { $0.productID == 5 } == false)
    }

    @Test func whatCannotBeUndoneSaysWhy() async throws {
        let shop = try await operatorShell()
        #expect(await shop.run("basket checkout emilys").outcome == .success)
        #expect(await shop.run("audit revert \(try await Self.newest(shop).id) --yes").outcome != .success)
        #expect(shop.stderr.contains("is a checkout: cancel the order instead"))
        #expect(await shop.run("audit revert 999999 --yes").outcome != .success)
        #expect(shop.stderr.contains("no audit entry 999999"))
        #expect(await shop.run("audit revert").outcome != .success)
    }

    @Test func aViewerMayNotRevert() async throws {
        let shop = try await operatorShell(OperatorIdentity(name: "vera", role: .viewer))
        #expect(await shop.run("audit revert 1 --yes").outcome != .success)
        #expect(shop.stderr.contains("needs the support role"))
    }

    @Test func aChangeMadeAtPsqlRevertsLikeAnyOther() async throws {
        let shop = try await operatorShell()
        guard shop.storeKind == "postgres" else { return }   // only the server audits a change made behind shopsh's back
        let before = await Self.catalogue(shop)
        _ = try shop.sql("UPDATE products SET price_minor = 12345, title = 'Renamed at psql' WHERE id = 5")
        let change = try await Self.newest(shop).id
        #expect(await shop.run("audit revert \(change) --yes").outcome == .success, "\(shop.stderr)")
        #expect(await Self.catalogue(shop) == before)
    }
}
