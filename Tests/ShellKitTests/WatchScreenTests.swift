// WatchScreenTests: watch's header line — the command as typed (quoted, secrets masked), the time
// in UTC at the right edge of the terminal, cut to fit — and how its own words are checked.

import ArgumentParser
import Foundation
import ShopCore
import Testing
@testable import ShellKit

@Suite struct WatchScreenTests {
    private let time = Date(timeIntervalSince1970: 1_795_411_862)   // 2026-11-23 05:31:02 UTC

    @Test func theTimeSitsAtTheRightEdge() {
        let left = WatchScreen.commandText(["orders", "list", "--limit", "3"], seconds: 1)
        #expect(left == "Every 1s: orders list --limit 3")
        let header = WatchScreen.header(left, time: time, width: 80)
        #expect(header.hasPrefix("Every 1s: orders list --limit 3 "))
        #expect(header.hasSuffix(" 2026-11-23 05:31:02 UTC"))
        #expect(header.count == 80)
    }

    @Test func aLongCommandIsCutToLeaveRoomForTheTime() {
        let left = WatchScreen.commandText(["products", "list", "--search", String(repeating: "x", count: 100)], seconds: 0.5)
        let header = WatchScreen.header(left, time: time, width: 60)
        #expect(header.count == 60)
        #expect(header.hasPrefix("Every 0.5s: products list --search"))
        #expect(header.contains("…  2026-11-23 05:31:02 UTC"))
        // Too narrow for both: the command alone, cut.
        #expect(WatchScreen.header(left, time: time, width: 20) == "Every 0.5s: product…")
    }

    @Test func theCommandIsShownAsItCouldBeTypedWithSecretsMasked() {
        #expect(WatchScreen.commandText(["products", "list", "--search", "a b"], seconds: 2)
                == "Every 2s: products list --search 'a b'")
        #expect(WatchScreen.commandText(["x", "--store", "postgres://ann:pw@db/shop", "--token", "t"], seconds: 2.25)
                == "Every 2.25s: x --store postgres://ann:***@db/shop --token ***")
        #expect(WatchScreen.commandText(["x", "a\u{1B}[2Jb"], seconds: 2) == "Every 2s: x 'a\\x1B[2Jb'")
    }

    @Test func itsOwnWords() throws {
        #expect(try WatchCommand.parse(["orders", "list", "-n", "5", "--count", "1"]).command
                == ["orders", "list", "-n", "5", "--count", "1"])
        let parsed = try WatchCommand.parse(["-n", "0.5", "--count", "2", "products", "list", "-o", "json"])
        #expect(try parsed.seconds() == 0.5 && parsed.count == 2)
        #expect(try parsed.innerWords() == ["products", "list", "-o", "json"])
        #expect(try WatchCommand.parse(["products"]).seconds() == 2)
        for bad in [["-n", "0.09", "x"], ["-n", "nan", "x"], ["-n", "inf", "x"], ["-n", "1e9", "x"]] {
            #expect(throws: ShopError.self) { try WatchCommand.parse(bad).seconds() }
        }
        for bad in [[], ["watch", "x"], ["quit"], ["--"]] {
            #expect(throws: ShopError.self) { try WatchCommand.parse(bad).innerWords() }
        }
    }
}
