// ExamplesTests: what examples/ promises, run on a demo shop — the nightly low-stock report (its
// CSV read with a real parser against the shop's own listing, its status and its condition) and
// every alias of the support start-up file, and the review moderation queue.

import CSV
import Foundation
import Testing

@Suite struct ExamplesTests {
    static let folder = ShopshBinary.packageRoot.appendingPathComponent("examples")

    @Test func theLowStockReportListsLowStockAndFailsOnlyWhileSomethingIsOut() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        let report = Self.folder.appendingPathComponent("low-stock-report.shop").path
        let products = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        let stock = Dictionary(uniqueKeysWithValues: products.compactMap { product in
            (product["id"] as? Int).flatMap { id in (product["stock"] as? Int).map { (id, $0) } }
        })
        for limit in [10, 25] {
            let run = try await sandbox.run(["-v", "LIMIT=\(limit)", "-f", report])
            let reader = try CSVReader(string: run.stdout, hasHeaderRow: true)
            #expect(reader.headerRow == ["id", "sku", "title", "stock"])
            var rows: [(id: Int, stock: Int)] = []
            while let row = reader.next() { rows.append((Int(row[0]) ?? -1, Int(row[3]) ?? -1)) }
            let expected = stock.filter { $0.value < limit }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            #expect(rows.map(\.id) == expected.map(\.key), "LIMIT=\(limit)")
            #expect(rows.map(\.stock) == expected.map(\.value))
            let out = expected.filter { $0.value == 0 }.map(\.key)
            #expect(run.status == (out.isEmpty ? 0 : 3), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").map(String.init) == out.map { "out of stock: product \($0)" })
        }
        // Restocked: the report still lists what is low, and the job succeeds.
        for (id, count) in stock where count == 0 { _ = try await sandbox.ok("products stock \(id) =1") }
        let restocked = try await sandbox.run(["-f", report])
        #expect(restocked.status == 0, "\(restocked.stderr)")
        #expect(restocked.stdout.contains("\r\n") && restocked.stderr.isEmpty)
    }

    /// The moderation queue lists exactly the visible low-rated reviews since the day asked (counted
    /// from the shop's own listing), newest first, then one line per product they are about.
    @Test func theModerationQueueListsVisibleLowRatedReviews() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        let queue = Self.folder.appendingPathComponent("review-moderation.shop").path
        let reviews = try await #require(try sandbox.json("reviews list --all -o json") as? [[String: Any]])
        _ = try await sandbox.ok("reviews hide \(try #require(reviews.first { ($0["rating"] as? Int ?? 5) < 3 }?["id"] as? Int)) --reason spam")
        let expected = reviews.filter { ($0["rating"] as? Int ?? 5) < 3 }.count - 1
        let run = try await sandbox.run(["-v", "SINCE=2000-01-01", "-f", queue])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(lines.first?.first == "id")
        let listed = lines.dropFirst().filter { $0.count > 3 && $0[3] == "visible" }
        #expect(listed.count == expected && listed.allSatisfy { (Int($0[2]) ?? 5) < 3 })
        // Nothing that recent in the demo (its reviews are from 2025): a note, and success.
        let quiet = try await sandbox.run(["-f", queue])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.contains("no visible review below 3 stars"), "\(quiet)")
    }

    @Test func everySupportAliasRuns() async throws {
        let sandbox = try await ShellLanguageTests.sandbox()
        let source = try String(contentsOf: Self.folder.appendingPathComponent("support.shopshrc"), encoding: .utf8)
        let rc = try sandbox.file("support.shopshrc", source)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: rc)
        _ = try await sandbox.ok("basket add emilys 1")
        let order = try await sandbox.ok("basket checkout emilys --fields id --no-header -o tsv").trimmingCharacters(in: .newlines)
        let aliases = source.split(separator: "\n").filter { $0.hasPrefix("alias ") }.map { String($0.split(separator: " ")[1]) }
        #expect(aliases.count >= 5)
        let arguments = ["vip": "emilys", "where": order, "basket-of": "emilys", "low": "25"]
        for alias in aliases {
            let run = try await sandbox.run(["--rc", rc, "-c", "\(alias) \(arguments[alias] ?? "")"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(alias): \(run.stderr)")
            #expect(!run.stdout.isEmpty, "\(alias) printed nothing")
        }
        let vip = try await sandbox.run(["--rc", rc, "-o", "json", "-c", "vip emilys"])
        #expect(vip.stdout.contains("\"username\":\"emilys\"") && vip.stdout.contains("\"id\":\(order)"), "\(vip.stdout)")
    }
}
