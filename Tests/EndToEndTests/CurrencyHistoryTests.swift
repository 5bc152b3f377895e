// CurrencyHistoryTests: the real ECB history through the binary: RUB, suspended after
// 2022-03-01, converts both ways on that day with a note on stderr, and --date before its
// first rate is one clear error line.

import Foundation
import Testing

@Suite struct CurrencyHistoryTests {
    static let archive = ShopshBinary.packageRoot.appendingPathComponent("Tests/Data/ecb-eurofxref/eurofxref-hist.csv.gz")

    /// A sandbox with the demo shop and the shipped history imported.
    func sandboxWithHistory() async throws -> ShopshSandbox {
        let sandbox = try await ShopshSandbox()
        let history = sandbox.root.appendingPathComponent("eurofxref-hist.csv")
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        unzip.arguments = ["sh", "-c", "gzip -dc \"$0\" > \"$1\"", Self.archive.path, history.path]
        try unzip.run()
        unzip.waitUntilExit()
        #expect(unzip.terminationStatus == 0)
        let imported = try await sandbox.run(["-c", "currency import \(history.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("for 6983 days, 1999-01-04 to 2026-04-13"), "\(imported.stderr)")
        return sandbox
    }

    @Test func rubleConvertsBothWaysOnItsLastDay() async throws {
        let sandbox = try await sandboxWithHistory()
        // RUB per EUR on 2022-03-01 in the ECB file.
        let rub = try #require(Decimal(string: "117.201"))
        for (from, to, expected) in [("RUB", "EUR", Decimal(100) / rub), ("EUR", "RUB", Decimal(100) * rub)] {
            let result = try await sandbox.run(["-c", "currency convert 100 \(from) \(to) -o csv"])
            #expect(result.status == 0, "\(result.stderr)")
            var exact = expected, rounded = Decimal()
            NSDecimalRound(&rounded, &exact, 2, .plain)
            let lines = result.stdout.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "amount,from,converted,to,rate,rate_date")
            let cells = lines.dropFirst().first?.split(separator: ",").map(String.init) ?? []
            #expect(cells.count == 6)
            #expect(cells.last == "2022-03-01")
            #expect(Decimal(string: cells.count > 2 ? cells[2] : "") == rounded, "\(from) → \(to): \(result.stdout)")
            #expect(result.stderr == "note: using the rates of 2022-03-01, the latest day with rates for both \(from) and \(to): "
                    + "1504 days older than the newest rates (2026-04-13)\n")
        }
        let early = try await sandbox.run(["-c", "currency convert 100 EUR RUB --date 2005-03-31"])
        #expect(early.status == 1)
        #expect(early.stdout.isEmpty)
        #expect(early.stderr == "-c:1: error: no RUB rate on or before 2005-03-31; the first RUB rate is from 2005-04-01\n")
    }
}
