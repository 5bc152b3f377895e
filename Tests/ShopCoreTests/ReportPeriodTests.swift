// ReportPeriodTests: the reports' calendar against Foundation's ISO calendar (a week's Monday over
// thirty years), the days people type (`7d`, `last-month`…) on fixed days, and how SalesReport
// puts a store's rows together: weeks and months added up, empty periods filled, ranks and tops.

import Foundation
import ShopCore
import Testing

@Suite struct ReportPeriodTests {
    static func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(iso: text)) }

    @Test func aWeekIsNamedByItsMondayAsFoundationsISOCalendarSays() throws {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        for number in stride(from: CalendarDay(year: 2000, month: 1, day: 1)!.dayNumber, through: 21_915, by: 3) {
            let day = try #require(CalendarDay(dayNumber: number))
            let date = try #require(formatter.date(from: day.description))
            let monday = try #require(calendar.dateInterval(of: .weekOfYear, for: date)?.start)
            #expect(ReportPeriod.label(of: day, by: .week) == formatter.string(from: monday), "\(day)")
            #expect(ReportPeriod.label(of: day, by: .month) == String(day.description.prefix(7)))
        }
    }

    @Test func periodsBetweenTwoDaysIncludeBothEnds() throws {
        #expect(ReportPeriod.labels(from: try Self.day("2024-02-27"), through: try Self.day("2024-03-02"), by: .day)
                == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
        #expect(ReportPeriod.labels(from: try Self.day("2025-12-31"), through: try Self.day("2026-01-12"), by: .week)
                == ["2025-12-29", "2026-01-05", "2026-01-12"])
        #expect(ReportPeriod.labels(from: try Self.day("2025-11-30"), through: try Self.day("2026-02-01"), by: .month)
                == ["2025-11", "2025-12", "2026-01", "2026-02"])
        #expect(ReportPeriod.labels(from: try Self.day("2026-01-02"), through: try Self.day("2026-01-01"), by: .day) == [])
        #expect(ReportPeriod.labels(from: try Self.day("1900-01-01"), through: try Self.day("2026-01-01"), by: .day, limit: 100) == nil)
    }

    @Test func daysAsTyped() throws {
        let today = try Self.day("2026-03-04")   // a Wednesday
        let cases: [(String, since: String, until: String)] = [
            ("today", "2026-03-04", "2026-03-04"), ("yesterday", "2026-03-03", "2026-03-03"),
            ("7d", "2026-02-26", "2026-02-25"), ("1d", "2026-03-04", "2026-03-03"), ("2w", "2026-02-19", "2026-02-18"),
            ("this-week", "2026-03-02", "2026-03-08"), ("last-week", "2026-02-23", "2026-03-01"),
            ("this-month", "2026-03-01", "2026-03-31"), ("last-month", "2026-02-01", "2026-02-28"),
            ("2024-02-29", "2024-02-29", "2024-02-29"), ("LAST-MONTH", "2026-02-01", "2026-02-28"),
        ]
        for (text, since, until) in cases {
            #expect(try ReportPeriod.since(text, today: today).description == since, "--since \(text)")
            #expect(try ReportPeriod.until(text, today: today).description == until, "--until \(text)")
        }
        // January's last month is December of the year before.
        #expect(try ReportPeriod.since("last-month", today: try Self.day("2026-01-15")).description == "2025-12-01")
        for (text, message) in [("0d", "a window is 1 to 36600 days"), ("36601d", "a window is"), ("-7d", "expected a day"),
                                ("+7d", "expected a day"), ("7x", "expected a day"), ("", "expected a day"),
                                ("2024-02-30", "there is no such day"), ("2024-5-1", "expected YYYY-MM-DD"),
                                ("99999999999999999999d", "a window is"), ("5229w", "a window is")] {
            #expect { try ReportPeriod.since(text, today: today) } throws: { error in
                (error as? ShopError)?.message.contains(message) == true
            }
        }
    }

    static func row(_ group: String?, id: Int64? = nil, _ orders: Int64, _ net: Int64, _ currency: Currency = .usd) -> OrderStatsRow {
        OrderStatsRow(group: group, id: id, orders: orders, items: orders * 2, gross: Money(minorUnits: net + 100, currency: currency),
                      net: Money(minorUnits: net, currency: currency))
    }

    @Test func daysAddUpIntoWeeksAndEmptyWeeksAreShown() throws {
        let days = [Self.row("2026-01-05", 1, 100), Self.row("2026-01-07", 2, 300), Self.row("2026-01-20", 1, 50)]
        let weeks = try SalesReport.assemble(days, query: OrderStatsQuery(grouping: .week), today: try Self.day("2026-03-01"),
                                             convert: nil)
        #expect(weeks == [Self.row("2026-01-05", 3, 400).with(items: 6, gross: 600),
                          OrderStatsRow.empty("2026-01-12", currency: .usd),
                          Self.row("2026-01-19", 1, 50)])
        // A window that starts earlier and runs to today shows its empty weeks too, not past today.
        let window = OrderStatsQuery(grouping: .week, filter: OrderFilter(since: "2025-12-31", until: "2026-12-31"))
        let labels = try SalesReport.assemble(days, query: window, today: try Self.day("2026-02-02"), convert: nil).map(\.group)
        #expect(labels == ["2025-12-29", "2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", "2026-02-02"])
        // A top N ranks periods and fills nothing.
        let top = try SalesReport.assemble(days, query: OrderStatsQuery(grouping: .day, top: 2), today: try Self.day("2026-03-01"),
                                           convert: nil)
        #expect(top.map(\.group) == ["2026-01-07", "2026-01-05"])
    }

    @Test func otherGroupsRankBestFirstAndMergeAfterConversion() throws {
        let eur = Currency(code: "EUR", minorUnitDigits: 2)
        let rows = [Self.row("ann", id: 1, 1, 100), Self.row("bob", id: 2, 1, 500), Self.row("ann", id: 1, 2, 200, eur),
                    Self.row(nil, 1, 100)]
        let stored = try SalesReport.assemble(rows, query: OrderStatsQuery(grouping: .customer), today: try Self.day("2026-01-01"),
                                              convert: nil)
        #expect(stored.map { "\($0.group ?? "-") \($0.net)" } == ["bob 5.00 USD", "ann 2.00 EUR", "ann 1.00 USD", "- 1.00 USD"])
        // In one currency (EUR counted double here), ann's rows are one.
        let converted = try SalesReport.assemble(rows, query: OrderStatsQuery(grouping: .customer), today: try Self.day("2026-01-01"),
                                                 convert: { money throws(ShopError) in
            money.currency == eur ? try money.scaled(by: 2, over: 1).with(currency: .usd) : money
        })
        #expect(converted.map { "\($0.group ?? "-") \($0.orders) \($0.net)" } == ["ann 3 5.00 USD", "bob 1 5.00 USD", "- 1 1.00 USD"])
        let byItems = try SalesReport.assemble(rows, query: OrderStatsQuery(grouping: .customer, rank: .items),
                                               today: try Self.day("2026-01-01"), convert: nil)
        #expect(byItems.first?.items == 4)
        let row = OrderStatsRow(group: "x", orders: 3, items: 3, gross: Money(minorUnits: 1_001, currency: .usd),
                                net: Money(minorUnits: 1_000, currency: .usd))
        #expect(try row.averageOrderValue() == Money(minorUnits: 333, currency: .usd))
        #expect(try row.discounts() == Money(minorUnits: 1, currency: .usd))
        #expect(try OrderStatsRow.empty("x", currency: .usd).averageOrderValue() == nil)
    }
}

extension OrderStatsRow {
    func with(items: Int64, gross: Int64) -> OrderStatsRow {
        var row = self
        row.items = items
        row.gross = Money(minorUnits: gross, currency: net.currency)
        return row
    }
}

extension Money {
    func with(currency: Currency) -> Money { Money(minorUnits: minorUnits, currency: currency) }
}
