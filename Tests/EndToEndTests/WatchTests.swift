// WatchTests: `watch` in the real binary — redrawing under a header in a terminal (tmux) until
// Ctrl-C, and in a batch: exactly --count clean outputs, refused without --count, stopped by a
// failing round.

import Foundation
import Testing

@Suite(.serialized) struct WatchTests {
    // MARK: - In a batch

    @Test func aBatchRunsTheCommandCountTimesAndPrintsOnlyItsOutput() async throws {
        let sandbox = try await ShopshSandbox()
        let started = Date()
        let result = try await sandbox.run(["-c", "watch -n 0.1 --count 3 products list --limit 1 -o ndjson"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 3, "stdout:\n\(result.stdout)")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect((object?["id"] as? Int) == 1, "not a product: \(line)")
        }
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("Every"))
        #expect(elapsed >= 0.2, "two waits of 0.1 s between three rounds")
    }

    @Test func aBatchWithoutCountIsAUsageError() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["-c", "watch -n 0.1 products list --limit 1 -o ndjson"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let errors = result.stderr.split(separator: "\n")
        // One line: a JSON object, as the command asked for ndjson.
        #expect(errors.count == 1 && errors.first?.contains("watch in a batch needs --count N") == true, "\(result.stderr)")
    }

    @Test func theBatchGoesOnAfterTheRounds() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run([], stdin: """
            watch -n 0.1 --count 2 products show 1 --fields sku --no-header
            products show 2 --fields sku --no-header

            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "BEA-ESS-ESS-001\nBEA-ESS-ESS-001\nBEA-GLA-EYE-002\n")
    }

    @Test func aFailingRoundStopsWatchWithOneErrorLine() async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["-c", "watch -n 0.1 --count 3 products show 99999", "-c", "products show 1"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "the batch stopped at the failure")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test(arguments: ["watch --count 2", "watch --count 2 watch products list", "watch -n 0.05 --count 2 products list",
                      "watch -n soon --count 2 products list", "watch --count 0 products list"])
    func wrongUseIsOneUsageErrorLine(line: String) async throws {
        let sandbox = try await ShopshSandbox()
        let result = try await sandbox.run(["-c", line])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// Re-running a change every few seconds is never what an operator wants: watch refuses it
    /// before the first round, and the basket stays as it was.
    @Test func watchRefusesCommandsThatChangeTheShop() async throws {
        let sandbox = try await ShopshSandbox()
        let before = try await sandbox.ok("basket show emilys -o json")
        let result = try await sandbox.run(["-c", "watch -n 0.1 --count 2 basket add emilys 1"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("changes the shop"), "\(result.stderr)")
        await #expect(try sandbox.ok("basket show emilys -o json") == before)
    }

    // MARK: - In a terminal

    @Test(.enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
    func aTerminalRedrawsUnderAHeaderUntilCtrlC() async throws {
        let sandbox = try await ShopshSandbox()
        let placed = try await sandbox.run(["-c", "basket add emilys 1", "-c", "basket checkout emilys"])
        #expect(placed.status == 0, "\(placed.stderr)")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 120)
        try await terminal.send("watch -n 1 orders list --limit 3", "Enter")
        let header = "Every 1s: orders list --limit 3"
        let first = try await terminal.waitFor { $0.hasPrefix(header) && $0.contains("emilys") }
        let firstTime = try #require(Self.time(in: first))
        // The screen was cleared: the header is the first line, its time at the right edge.
        let headerLine = first.split(separator: "\n").first.map(String.init) ?? ""
        #expect(headerLine.hasPrefix(header) && headerLine.hasSuffix(" UTC") && headerLine.count == 120, "\(headerLine)")
        #expect(first.contains("placed"), "the order's row:\n\(first)")
        try? await Task.sleep(for: .microseconds(1_500_000))
        let second = try await terminal.waitFor { screen in Self.time(in: screen).map { $0 != firstTime } ?? false }
        #expect(second.hasPrefix(header) && second.contains("emilys"))
        #expect(!second.contains("\(terminal.prompt)> watch"), "the typed line was cleared away")

        try await terminal.send("C-c")
        let stopped = try await terminal.waitFor { screen in
            screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
                .map { $0.hasSuffix("\(terminal.prompt)>") } ?? false
        }
        #expect(!stopped.contains("error"), "Ctrl-C ends watch without an error:\n\(stopped)")
        try await terminal.send("products show 1 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
    }

    /// The header's time (`2026-11-23 05:31:02 UTC`), if the screen shows one.
    static func time(in screen: String) -> String? {
        guard let match = screen.firstMatch(of: /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/) else { return nil }
        return String(match.output)
    }
}
