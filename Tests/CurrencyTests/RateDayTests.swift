// RateDayTests: the one rule for which day's rates a conversion uses, on the real ECB history:
// the latest day (on or before --date) on which both currencies have a rate, in both directions,
// with a note when that day is old. Expected figures come from reading the file independently.

import Currency
import Foundation
import Products
import ShellKit
import Testing
import TestSupport

/// A demo shop with the whole shipped ECB history imported.
func historyShell() async throws -> ShellHarness {
    let shop = try await currencyShell()
    let (outcome, _) = await shop.run("currency import \(try ECBHistory.file().path)")
    guard outcome == .success else { throw HarnessError.failed("currency import", shop.stderr) }
    return shop
}

extension ShellHarness {
    /// Runs a line; returns its outcome, stdout and only the stderr it wrote.
    func runCapturing(_ line: String) async -> (outcome: CommandOutcome, stdout: String, stderr: String) {
        let before = stderr.utf8.count
        let (outcome, stdout) = await run(line)
        return (outcome, stdout, String(stderr.utf8.dropFirst(before)) ?? "")
    }
}

/// The exact text of a string value in one line of compact JSON.
func rawString(_ key: String, in json: String) -> String? {
    guard let start = json.range(of: "\"\(key)\":\"") else { return nil }
    return String(json[start.upperBound...].prefix { $0 != "\"" })
}

@Suite(.serialized) struct RateDayTests {
    static let minorDigits = ["EUR": 2, "USD": 2, "RUB": 2, "HKD": 2, "ISK": 0, "JPY": 0, "KRW": 0, "GBP": 2]

    /// Converts `amount` both ways between `a` and `b` and checks the day and the figures
    /// against the file; returns the two runs' stderr.
    func checkBothWays(_ shop: ShellHarness, _ amount: String, _ a: String, _ b: String, date: String?,
                       table: [(date: String, rates: [String: Decimal])],
                       sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let expectedRow = try #require(ECBHistory.commonDay(a, b, onOrBefore: date, in: table), sourceLocation: sourceLocation)
        var notes: [String] = []
        for (from, to) in [(a, b), (b, a)] {
            let line = "currency convert \(amount) \(from) \(to) -o json" + (date.map { " --date \($0)" } ?? "")
            let (outcome, json, stderr) = await shop.runCapturing(line)
            #expect(outcome == .success, "\(line): \(stderr)", sourceLocation: sourceLocation)
            #expect(rawString("rate_date", in: json) == expectedRow.date, "\(line)", sourceLocation: sourceLocation)
            let fromRate = try #require(expectedRow.rates[from], sourceLocation: sourceLocation)
            let toRate = try #require(expectedRow.rates[to], sourceLocation: sourceLocation)
            let digits = try #require(Self.minorDigits[to], sourceLocation: sourceLocation)
            let expected = ECBHistory.converted(try #require(Decimal(string: amount)), from: fromRate, to: toRate, digits: digits)
            #expect(rawNumber("converted", in: json) == expected, "\(line)", sourceLocation: sourceLocation)
            notes.append(stderr)
        }
        return notes
    }

    @Test func eitherDirectionUsesTheLatestDayBothCurrenciesHave() async throws {
        let shop = try await historyShell()
        let table = try ECBHistory.table()
        #expect(table.first?.date == "2026-04-13")

        // RUB was suspended after 2022-03-01: both directions use that day, and say it is old.
        let notes = try await checkBothWays(shop, "100", "RUB", "EUR", date: nil, table: table)
        let age = try #require(ECBHistory.days(from: "2022-03-01", to: "2026-04-13"))
        #expect(age == 1504)
        for note in notes {
            #expect(note.contains("2022-03-01") && note.contains("\(age) days older") && note.contains("2026-04-13"), "\(note)")
            #expect(note.split(separator: "\n").count == 1)
        }
        // The two directions use mutually consistent rates: RUB→EUR × EUR→RUB is 1 (to 6 digits).
        let there = await shop.run("currency convert 1 RUB EUR -o json").stdout
        let back = await shop.run("currency convert 1 EUR RUB -o json").stdout
        let product = try #require(Decimal(string: rawNumber("rate", in: there) ?? "")) * (try #require(Decimal(string: rawNumber("rate", in: back) ?? "")))
        #expect(abs((product - 1 as Decimal) as Decimal) < Decimal(string: "0.0001")!)

        // RUB against another currency, and against one with a nine-year gap (ISK 2008-12 … 2018-02).
        _ = try await checkBothWays(shop, "250.50", "RUB", "USD", date: nil, table: table)
        _ = try await checkBothWays(shop, "1000", "RUB", "ISK", date: "2015-06-30", table: table)
        #expect(ECBHistory.commonDay("RUB", "ISK", onOrBefore: "2015-06-30", in: table)?.date == "2008-12-09")
        _ = try await checkBothWays(shop, "123456", "JPY", "KRW", date: "2001-09-11", table: table)
        _ = try await checkBothWays(shop, "12.34", "GBP", "HKD", date: "2024-02-29", table: table)

        // A --date a few days after RUB's last rate: the same day, and no note (3 days old).
        let recent = try await checkBothWays(shop, "100", "EUR", "RUB", date: "2022-03-04", table: table)
        #expect(recent.allSatisfy { $0.isEmpty }, "\(recent)")
        // Currencies quoted every day: the newest day, no note.
        let fresh = try await checkBothWays(shop, "100", "USD", "HKD", date: nil, table: table)
        #expect(fresh.allSatisfy { $0.isEmpty }, "\(fresh)")
    }

    @Test func datesBeforeTheFirstRatesAreClearErrors() async throws {
        let shop = try await historyShell()
        // RUB's first ECB rate is 2005-04-01.
        for line in ["currency convert 100 EUR RUB --date 2005-03-31", "currency convert 100 RUB USD --date 2005-03-31"] {
            let (outcome, _, stderr) = await shop.runCapturing(line)
            #expect(outcome == .failure)
            #expect(stderr == "error: no RUB rate on or before 2005-03-31; the first RUB rate is from 2005-04-01\n", "\(stderr)")
        }
        #expect(await shop.run("currency convert 100 EUR RUB --date 2005-04-01 -o json").stdout.contains("\"rate_date\":\"2005-04-01\""))
        let (outcome, _, stderr) = await shop.runCapturing("currency convert 1 USD EUR --date 1998-12-31")
        #expect(outcome == .failure)
        #expect(stderr == "error: no exchange rates on or before 1998-12-31; the first are from 1999-01-04\n", "\(stderr)")
        // Days that do not exist are usage errors.
        for date in ["2026-02-31", "2025-02-29", "2026-04-31"] {
            let (outcome, _, stderr) = await shop.runCapturing("currency convert 1 USD EUR --date \(date)")
            #expect(outcome == .usageError)
            #expect(stderr.contains("invalid date \"\(date)\"") && stderr.contains("no such day"), "\(stderr)")
        }
    }

    @Test func ratesShowEachCurrencysLatestRateWithItsOwnDate() async throws {
        let shop = try await historyShell()
        let table = try ECBHistory.table()
        for date in [nil, "2022-03-02", "2010-06-15"] as [String?] {
            let rows = try #require(try await shop.json("currency rates -o json" + (date.map { " --date \($0)" } ?? "")) as? [[String: Any]])
            // Independently: each code's first row (newest first) on or before the date.
            var expected: [String: String] = [:]
            for row in table where date.map({ row.date <= $0 }) ?? true {
                for code in row.rates.keys where code != "EUR" && expected[code] == nil { expected[code] = row.date }
            }
            let shown = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                (row["currency"] as? String).map { ($0, row["date"] as? String ?? "") }
            })
            #expect(shown == expected, "--date \(date ?? "none")")
        }
        let latest = try #require(try await shop.json("currency rates -o json") as? [[String: Any]])
        let dates = Dictionary(uniqueKeysWithValues: latest.compactMap { row in (row["currency"] as? String).map { ($0, row["date"] as? String) } })
        #expect(dates["RUB"] == "2022-03-01")
        #expect(dates["BGN"] == "2025-12-31")
        #expect(dates["USD"] == "2026-04-13")
        #expect(dates["CYP"] == "2007-12-31")
    }

    @Test func aNewerDayWithFewCurrenciesLeavesTheOthersOnTheOlderCommonDay() async throws {
        let shop = try await historyShell()
        let table = try ECBHistory.table()
        let april13 = try #require(table.first)
        // A newer day, eleven days later, that has only USD and KWD.
        let file = shop.folder.appendingPathComponent("usd-kwd.csv")
        try "Date,USD,KWD,\n2026-04-24,1.1700,0.35871,\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(await shop.run("currency import \(file.path)").outcome == .success, "\(shop.stderr)")

        // EUR → HKD, HKD → USD and USD (prices) → HKD: all on 2026-04-13, with a note saying so.
        for (from, to) in [("EUR", "HKD"), ("HKD", "EUR"), ("HKD", "USD"), ("USD", "HKD")] {
            let (outcome, json, stderr) = await shop.runCapturing("currency convert 1 \(from) \(to) -o json")
            #expect(outcome == .success, "\(from) → \(to): \(stderr)")
            #expect(rawString("rate_date", in: json) == "2026-04-13", "\(from) → \(to)")
            let expected = ECBHistory.converted(1, from: try #require(april13.rates[from]), to: try #require(april13.rates[to]), digits: 2)
            #expect(rawNumber("converted", in: json) == expected, "\(from) → \(to)")
            #expect(stderr.contains("2026-04-13") && stderr.contains("11 days older") && stderr.contains("(2026-04-24)"), "\(stderr)")
        }
        let (outcome, json, stderr) = await shop.runCapturing("products show 1 --currency HKD -o json")
        #expect(outcome == .success, "\(stderr)")
        #expect(rawString("rate_date", in: json) == "2026-04-13")
        // Product 1 costs 9.99 USD.
        let price = ECBHistory.converted(Decimal(string: "9.99")!, from: try #require(april13.rates["USD"]),
                                         to: try #require(april13.rates["HKD"]), digits: 2)
        #expect(rawNumber("price", in: json) == price)
        #expect(stderr.contains("2026-04-13") && stderr.contains("11 days older"), "\(stderr)")

        // USD and KWD have the new day; EUR has a rate (1) on every day with rates.
        for line in ["currency convert 1 EUR USD -o json", "currency convert 1 KWD USD -o json", "products show 1 --currency KWD -o json"] {
            let (outcome, json, stderr) = await shop.runCapturing(line)
            #expect(outcome == .success, "\(line): \(stderr)")
            #expect(rawString("rate_date", in: json) == "2026-04-24", "\(line)")
            #expect(stderr.isEmpty, "\(line): \(stderr)")
        }
        // 9.99 USD in KWD at 0.35871 / 1.1700, three decimals.
        let kwd = await shop.run("products show 1 --currency KWD -o json").stdout
        #expect(rawNumber("price", in: kwd) == ECBHistory.converted(Decimal(string: "9.99")!, from: Decimal(string: "1.17")!,
                                                                      to: Decimal(string: "0.35871")!, digits: 3))
    }
}
