// ShopClockTests: the shop's timestamps agree with Foundation's ISO 8601 formatter over the
// whole range, read back to the same second, and a fixed clock stays fixed.

import Foundation
import PropertyBased
import ShopCore
import Testing

@Suite struct ShopClockTests {
    /// Foundation's reading of `seconds` (a new formatter per call: the type is not Sendable).
    static func foundationTimestamp(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test func timestampsMatchFoundationAndReadBack() async {
        // Years 1970 to 9999 (Foundation's formatter writes earlier years differently).
        await propertyCheck(count: 2000, input: Gen.int64(in: 0...253_402_300_799)) { seconds in
            let text = ShopClock.timestamp(seconds)
            #expect(text == Self.foundationTimestamp(seconds))
            #expect(ShopClock.parse(text) == seconds)
        }
    }

    @Test func dayNumbersRoundTrip() async {
        await propertyCheck(count: 2000, input: Gen.int(in: -719_162...2_932_896)) { number in
            #expect(CalendarDay(dayNumber: number)?.dayNumber == number)
        }
        #expect(CalendarDay(dayNumber: 0)?.description == "1970-01-01")
        #expect(CalendarDay(dayNumber: -1)?.description == "1969-12-31")
        #expect(CalendarDay(dayNumber: 2_932_897) == nil)
    }

    @Test func aFixedClockSaysItsTime() throws {
        let clock = try #require(ShopClock.fixed("2024-02-29T23:59:59Z"))
        #expect(clock.timestamp() == "2024-02-29T23:59:59Z")
        #expect(clock.today() == "2024-02-29")
        for bad in ["2023-02-29T00:00:00Z", "2024-02-29 23:59:59", "2024-02-29T24:00:00Z", ""] {
            #expect(ShopClock.fixed(bad) == nil, "\(bad)")
        }
    }
}
