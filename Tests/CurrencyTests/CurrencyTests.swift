// CurrencyTests: rates, conversion and rounding to minor units, imports of the three ECB
// shapes, and --currency on product output, on the demo shop.

import Currency
import Foundation
import Products
import ShellKit
import ShopCore
import Testing
import TestSupport

func currencyShell() async throws -> ShellHarness {
    try await ShellHarness(plugins: [currencyPlugin, productsPlugin], demo: true)
}

/// The exact decimal text of a key in one line of compact JSON (what jq would print).
func rawNumber(_ key: String, in json: String) -> String? {
    guard let start = json.range(of: "\"\(key)\":") else { return nil }
    return String(json[start.upperBound...].prefix { "0123456789.-".contains($0) })
}

@Suite struct CurrencyConversionTests {
    @Test func currenciesWithoutMinorUnitsGetNoDecimals() async throws {
        let shop = try await currencyShell()
        for (code, rate) in [("JPY", "186.75"), ("KRW", "1740.86")] {
            let (outcome, json) = await shop.run("currency convert 100 USD \(code) -o json")
            #expect(outcome == .success, "\(shop.stderr)")
            let converted = try #require(rawNumber("converted", in: json))
            #expect(!converted.contains("."))
            // 100 USD at the 2026-04-13 ECB rates (USD 1.1684 per EUR), rounded half away from zero.
            let expected = (Decimal(string: "100")! * Decimal(string: rate)! / Decimal(string: "1.1684")!)
            var rounded = Decimal()
            var value = expected
            NSDecimalRound(&rounded, &value, 0, .plain)
            #expect(converted == "\(rounded)")
            #expect(json.contains("\"rate_date\":\"2026-04-13\""))
        }
    }

    @Test func importedKWDRatesConvertWithThreeDecimals() async throws {
        let shop = try await currencyShell()
        #expect(await shop.run("currency convert 1 EUR KWD").outcome == .failure)
        #expect(shop.stderr.contains("no exchange rate for KWD"))
        let file = shop.folder.appendingPathComponent("kwd.csv")
        try "Date,USD,KWD,\n2026-04-14,1.1700,0.35871,\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await shop.run("currency import \(file.path)").outcome == .success)
        let (_, json) = await shop.run("currency convert 1 EUR KWD -o json")
        #expect(rawNumber("converted", in: json) == "0.359")
        #expect(json.contains("\"rate_date\":\"2026-04-14\""))
    }

    @Test func productPricesConvertExactly() async throws {
        let shop = try await currencyShell()
        let (outcome, json) = await shop.run("products show 1 --currency EUR -o json")
        #expect(outcome == .success, "\(shop.stderr)")
        // 9.99 USD / 1.1684 = 8.5501… EUR.
        #expect(rawNumber("price", in: json) == "8.55")
        #expect(json.contains("\"currency\":\"EUR\""))
        #expect(json.contains("\"rate_date\":\"2026-04-13\""))
        // `set currency` makes it the session default.
        #expect(await shop.run("set currency JPY").outcome == .success)
        let yen = await shop.run("products show 1 -o json").stdout
        #expect(rawNumber("price", in: yen).map { !$0.contains(".") } == true)
    }

    @Test func badCodesAndDatesAreClearErrors() async throws {
        let shop = try await currencyShell()
        #expect(await shop.run("currency convert 1 USD XYZ").outcome == .failure)
        #expect(shop.stderr.contains("unknown currency code \"XYZ\""))
        #expect(await shop.run("currency convert 1 USD JPY --date 1990-01-01").outcome == .failure)
        #expect(shop.stderr.contains("1990-01-01"))
        #expect(await shop.run("currency convert 1.234 USD JPY").outcome == .failure)
        #expect(await shop.run("currency rates --date 2026-13-01").outcome == .usageError)
        #expect(await shop.run("products list --currency EURO").outcome != .success)
    }

    @Test func ratesOfADayOrTheDayBefore() async throws {
        let shop = try await currencyShell()
        // The demo shop has the 2025-05-09 XML (30 rates, BGN among them) and the 2026-04-13 CSV (29).
        let latest = try #require(try await shop.json("currency rates -o json") as? [[String: Any]])
        #expect(latest.count == 30)
        let dates = Dictionary(uniqueKeysWithValues: latest.compactMap { row in (row["currency"] as? String).map { ($0, row["date"] as? String) } })
        #expect(dates["BGN"] == "2025-05-09")
        #expect(dates.filter { $0.value == "2026-04-13" }.count == 29)
        let older = try #require(try await shop.json("currency rates --date 2025-12-31 -o json") as? [[String: Any]])
        #expect(Set(older.compactMap { $0["date"] as? String }) == ["2025-05-09"])
        #expect(older.count == 30)
    }
}

/// The three ECB shapes shipped with the project agree once imported.
@Suite struct ECBImportAgreementTests {
    static let demoData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ShopStoreKit/DemoData")

    @Test func dailyXMLDailyCSVAndHistoryAgree() async throws {
        let history = try ECBHistory.file().path
        let shop = try await currencyShell()
        for file in [history, Self.demoData.appendingPathComponent("eurofxref-daily.xml").path,
                     Self.demoData.appendingPathComponent("eurofxref.csv").path] {
            #expect(await shop.run("currency import \(file)").outcome == .success, "\(file): \(shop.stderr)")
        }
        let fromHistory = try await currencyShell()
        #expect(await fromHistory.run("currency import \(history)").outcome == .success)
        // Importing the daily files over the history changed nothing. Through the services: each
        // daily import wrote its rates on its file's one day only (the audit log's row of it), and
        // on that day the very same rates are stored as from the history alone; each currency's
        // first day and latest rate are the same too. (Reading all 217,555 rates back, one service
        // call each, takes over a minute in a debug build; a walk of every day with `latestRateDay`
        // some 17 s a store on SQLite.)
        let (merged, historyOnly) = (shop.services, fromHistory.services)
        let imports = try await merged.allAuditEntries().filter { $0.entity == "currency" && $0.action == "import" }
        let historyImports = try await historyOnly.allAuditEntries().filter { $0.entity == "currency" && $0.action == "import" }
        #expect(imports.count == 3 && historyImports.count == 1)
        #expect(imports.last?.after == historyImports.first?.after, "the history's import")
        for date in ["2025-05-09", "2026-04-13"] {
            let stored = try await merged.rates(storedOn: date), fromFile = try await historyOnly.rates(storedOn: date)
            #expect(!stored.isEmpty && stored == fromFile, "\(date)")
            let daily = imports.filter { $0.after?["from"] == .text(date) && $0.after?["to"] == .text(date) }
            #expect(daily.count == 1 && daily.first?.after?["rates"] == .integer(Int64(stored.count)), "\(daily)")
        }
        let latest = try await merged.currencies.latestRates(onOrBefore: nil)
        #expect(latest == (try await historyOnly.currencies.latestRates(onOrBefore: nil)))
        for code in latest.map(\.currency) {
            let first = try await merged.currencies.firstRateDay(code)
            #expect(first == (try await historyOnly.currencies.firstRateDay(code)), "\(code)")
        }
        for date in ["2025-05-09", "2026-04-13"] {
            let listed = await shop.run("currency rates --date \(date) -o csv").stdout
            #expect(listed == (await fromHistory.run("currency rates --date \(date) -o csv").stdout))
            #expect(listed.contains(date))
        }
    }
}
