// CalendarDayTests: which YYYY-MM-DD days exist, and day counts checked against Foundation's calendar.

import Foundation
import ShopCore
import Testing

@Suite struct CalendarDayTests {
    @Test func onlyRealDaysParse() {
        for text in ["2024-02-29", "2000-02-29", "2026-04-30", "1999-01-04", "2026-12-31"] {
            #expect(CalendarDay(iso: text)?.description == text)
        }
        for text in ["2026-02-31", "2026-04-31", "2025-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-01-00",
                     "0000-01-01", "2026-4-1", "26-04-01", "2026/04/01", "yesterday", "", "２０２６-04-01"] {
            #expect(CalendarDay(iso: text) == nil, "\(text)")
        }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(throws: ShopError.invalidInput("invalid date \"2023-02-29\" for --until: there is no such day (expected YYYY-MM-DD)")) {
            try CalendarDay.validate("2023-02-29", for: "--until")
        }
        #expect(throws: ShopError.invalidInput("invalid date \"soon\" for --date: expected YYYY-MM-DD, like 2024-05-31")) {
            try CalendarDay.validate("soon", for: "--date")
        }
    }

    @Test func dayCountsAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let epoch = try #require(calendar.date(from: DateComponents(year: 1970, month: 1, day: 1)))
        for text in ["1970-01-01", "1969-12-31", "2000-02-29", "2000-03-01", "2022-03-01", "2026-04-13", "1600-03-01", "9999-12-31"] {
            let day = try #require(CalendarDay(iso: text))
            let date = try #require(calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)))
            #expect(day.dayNumber == calendar.dateComponents([.day], from: epoch, to: date).day, "\(text)")
        }
        let rubLast = try #require(CalendarDay(iso: "2022-03-01")), newest = try #require(CalendarDay(iso: "2026-04-13"))
        #expect(rubLast.days(until: newest) == 1504)
        #expect(newest.days(until: rubLast) == -1504)
    }

    @Test func theECBDecoderUsesIt() {
        #expect(ECBRatesDecoder.isoDate(from: "29 February 2024") == "2024-02-29")
        #expect(ECBRatesDecoder.isoDate(from: "29 February 2025") == nil)
        #expect(ECBRatesDecoder.isoDate(from: "31 April 2026") == nil)
        #expect(ECBRatesDecoder.isoDate(from: "2026-02-31") == nil)
    }
}
