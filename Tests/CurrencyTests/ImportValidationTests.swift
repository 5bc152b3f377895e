// ImportValidationTests: `currency import` refuses days that do not exist, codes outside the
// store's ISO 4217 list and EUR rates other than 1, in one line naming the line, and stores
// nothing then; bad codes for convert and --currency are one clear line too.

import Currency
import Foundation
import Products
import ShellKit
import ShopCore
import Testing
import TestSupport

@Suite struct ImportValidationTests {
    /// Imports `contents` as `name`; expects failure with one stderr line holding every fragment,
    /// and the rates table unchanged.
    func expectRefused(_ shop: ShellHarness, _ name: String, _ contents: String, _ fragments: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try await shop.services.storedRates()
        let file = shop.folder.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        let (outcome, _, stderr) = await shop.runCapturing("currency import \(file.path)")
        #expect(outcome == .failure, "\(name) was accepted", sourceLocation: sourceLocation)
        #expect(stderr.hasPrefix("error: \(file.path): ") && stderr.split(separator: "\n").count == 1, "\(stderr)",
                sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(stderr.contains(fragment), "\(name): \(stderr)", sourceLocation: sourceLocation)
        }
        #expect(try await shop.services.storedRates() == before, "\(name) changed the rates", sourceLocation: sourceLocation)
    }

    @Test func daysThatDoNotExistAreRefused() async throws {
        let shop = try await currencyShell()
        // The good line first: all or nothing.
        for (day, line) in [("2026-02-31", 3), ("2026-04-31", 3), ("2025-02-29", 3), ("2026-00-10", 3), ("2026-4-1", 3)] {
            try await expectRefused(shop, "bad-day.csv", "Date,USD,JPY,\n2026-04-14,1.17,187,\n\(day),1.17,187,\n",
                                    ["line \(line)", "\"\(day)\"", "not a day"])
        }
        try await expectRefused(shop, "daily.csv", "Date, USD, \n31 February 2026, 1.1684, \n", ["line 2", "31 February 2026"])
        try await expectRefused(shop, "daily.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope><Cube>
            <Cube time='2026-02-30'>
            <Cube currency='USD' rate='1.1684'/>
            </Cube></Cube></gesmes:Envelope>
            """, ["line 3", "\"2026-02-30\""])
        // A real leap day is a day.
        let file = shop.folder.appendingPathComponent("leap.csv")
        try "Date,USD,\n2024-02-29,1.0813,\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await shop.run("currency import \(file.path)").outcome == .success, "\(shop.stderr)")
        let leap = try await shop.services.currencies.latestRate("USD", onOrBefore: "2024-02-29")
        #expect(leap?.date == "2024-02-29" && leap?.storedText == "1.0813", "\(String(describing: leap))")
    }

    @Test func codesOutsideTheISOListAreRefused() async throws {
        let shop = try await currencyShell()
        try await expectRefused(shop, "qqq.csv", "Date,USD,QQQ,\n2026-04-14,1.17,2.5,\n", ["line 1", "unknown currency code \"QQQ\""])
        try await expectRefused(shop, "qqq.xml", """
            <Envelope><Cube><Cube time='2026-04-14'>
              <Cube currency='USD' rate='1.17'/>
              <Cube currency='QQQ' rate='2.5'/>
            </Cube></Cube></Envelope>
            """, ["line 3", "unknown currency code \"QQQ\""])
        try await expectRefused(shop, "lower.csv", "Date,usd,\n2026-04-14,1.17,\n", ["line 1", "bad currency code \"usd\""])
        // Codes ISO has withdrawn (old ECB rates name them) are in the list, but not for pricing.
        let file = shop.folder.appendingPathComponent("cyp.csv")
        try "Date,CYP,\n2007-12-31,0.585274,\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await shop.run("currency import \(file.path)").outcome == .success, "\(shop.stderr)")
        let (outcome, _, stderr) = await shop.runCapturing("currency convert 1 EUR CYP --date 2007-12-31")
        #expect(outcome == .failure)
        #expect(stderr == "error: CYP has no minor unit (it is not a currency one can price in)\n")
    }

    @Test func euroRatesOtherThanOneAreRefused() async throws {
        let shop = try await currencyShell()
        try await expectRefused(shop, "eur.csv", "Date,USD,EUR,\n2026-04-14,1.17,1,\n2026-04-15,1.18,2,\n", ["line 3", "EUR", "only be 1"])
        try await expectRefused(shop, "eur.xml", "<Envelope><Cube><Cube time='2026-04-14'>\n<Cube currency='EUR' rate='2'/>\n</Cube></Cube></Envelope>",
                                ["line 2", "EUR", "only be 1"])
        // EUR at 1 is the base: skipped, never stored.
        let file = shop.folder.appendingPathComponent("eur-one.csv")
        try "Date,USD,EUR,\n2026-04-14,1.17,1.0000,\n".write(to: file, atomically: true, encoding: .utf8)
        let (outcome, _, stderr) = await shop.runCapturing("currency import \(file.path)")
        #expect(outcome == .success, "\(stderr)")
        #expect(stderr.contains("imported 1 rates"))
        #expect(try await shop.services.currencies.latestRate("EUR", onOrBefore: nil) == nil)
        #expect(try await shop.services.storedRates().filter { $0.currency == "EUR" }.isEmpty)
        #expect(await shop.run("currency convert 1 EUR USD -o json").stdout.contains("\"converted\":1.17"))
    }

    @Test func unknownCodesAndCodesWithoutMinorUnitsAreOneLine() async throws {
        let shop = try await currencyShell()
        let cases = [
            ("currency convert 1 USD QQQ", "error: unknown currency code \"QQQ\" (see: currency codes)\n"),
            ("currency convert 1 XAU USD", "error: XAU has no minor unit (it is not a currency one can price in)\n"),
            ("products show 1 --currency QQQ", "error: unknown currency code \"QQQ\" (see: currency codes)\n"),
            ("products list --currency XAU --limit 1", "error: XAU has no minor unit (it is not a currency one can price in)\n"),
            ("products show 1 --currency EURO", "error: invalid currency code \"EURO\": expected three letters like EUR\n"),
        ]
        for (line, message) in cases {
            let (outcome, stdout, stderr) = await shop.runCapturing(line)
            #expect(outcome == .failure, "\(line)")
            #expect(stdout.isEmpty)
            #expect(stderr == message, "\(line)")
        }
        let (outcome, _, stderr) = await shop.runCapturing("set currency QQQ")
        #expect(outcome != .success)
        #expect(stderr.split(separator: "\n").count == 1 && stderr.contains("QQQ"), "\(stderr)")
    }

    @Test func anEmptyStoreHasNoListToCheckAgainst() async throws {
        let shop = try await ShellHarness(plugins: [currencyPlugin])
        let file = shop.folder.appendingPathComponent("usd.csv")
        try "Date,USD,\n2026-04-14,1.17,\n".write(to: file, atomically: true, encoding: .utf8)
        let (outcome, _, stderr) = await shop.runCapturing("currency import \(file.path)")
        #expect(outcome == .failure)
        #expect(stderr.contains("no ISO 4217 currency list") && stderr.split(separator: "\n").count == 1, "\(stderr)")
    }
}
