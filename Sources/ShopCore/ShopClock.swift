// ShopClock: where the services read the time, so that tests can fix it; and the one format of
// the shop's timestamps (UTC, `2026-04-13T10:20:30Z`).

/// The time, as whole seconds since 1970-01-01 UTC, from a source the store is given.
///
/// Stores take one at creation (`.system` in the program, `.fixed(…)` in tests) and stamp every
/// row they write (orders, favourites, basket lines, products, users) with `timestamp()`.
public struct ShopClock: Sendable {
    private let secondsSinceEpoch: @Sendable () -> Int64

    /// A clock reading `now` (seconds since 1970-01-01 UTC).
    public init(_ now: @escaping @Sendable () -> Int64) {
        secondsSinceEpoch = now
    }

    /// A clock that always says `seconds` since 1970-01-01 UTC.
    public static func fixed(_ seconds: Int64) -> ShopClock { ShopClock { seconds } }

    /// A clock that always says `timestamp` (`2026-04-13T10:20:30Z`); nil if it is not one.
    public static func fixed(_ timestamp: String) -> ShopClock? {
        parse(timestamp).map { seconds in ShopClock { seconds } }
    }

    /// Seconds since 1970-01-01 UTC.
    public func now() -> Int64 { secondsSinceEpoch() }

    /// Now as the shop writes it: `2026-04-13T10:20:30Z`.
    public func timestamp() -> String { Self.timestamp(now()) }

    /// Today (UTC) as `YYYY-MM-DD`.
    public func today() -> String { String(Self.timestamp(now()).prefix(10)) }

    /// Today (UTC) as a day: what a coupon's dates are compared with.
    public var day: CalendarDay {
        let seconds = now()
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return CalendarDay(dayNumber: Int(clamping: days)) ?? .epoch
    }

    /// `seconds` since 1970-01-01 UTC as `YYYY-MM-DDTHH:MM:SSZ` (clamped to years 1…9999).
    public static func timestamp(_ seconds: Int64) -> String {
        let bounded = min(max(seconds, -62_135_596_800), 253_402_300_799)
        let days = Int(bounded >= 0 ? bounded / 86_400 : (bounded - 86_399) / 86_400)
        let secondOfDay = Int(bounded - Int64(days) * 86_400)
        let day = CalendarDay(dayNumber: days)?.description ?? "1970-01-01"
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// The seconds of a `YYYY-MM-DDTHH:MM:SSZ` timestamp; nil if it is not one.
    public static func parse(_ timestamp: String) -> Int64? {
        let bytes = Array(timestamp.utf8)
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
              let day = CalendarDay(iso: String(decoding: bytes[0..<10], as: UTF8.self)),
              let hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)), (0..<24).contains(hour),
              let minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)), (0..<60).contains(minute),
              let second = Int(String(decoding: bytes[17..<19], as: UTF8.self)), (0..<60).contains(second)
        else { return nil }
        return Int64(day.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
