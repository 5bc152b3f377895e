// IdleTime: how long something has not been touched, as typed (`7d`, `12h`, `2w`, `30m`, `0d`) —
// `basket list --idle` — in whole seconds, bounded so that now minus it never overflows.

/// A length of time typed as a whole number and a unit: s, m, h, d or w.
public struct IdleTime: Hashable, Sendable {
    public let seconds: Int64

    /// The longest a length may be: 100 years.
    public static let maxSeconds: Int64 = 100 * 366 * 86_400

    public static func parse(_ text: String, for option: String) throws(ShopError) -> IdleTime {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let unit = text.last, let size = units[unit], text.dropLast().allSatisfy(\.isASCII),
              let count = Int64(text.dropLast()), count >= 0, !text.hasPrefix("+"),
              case let (seconds, overflow) = count.multipliedReportingOverflow(by: size), !overflow, seconds <= maxSeconds else {
            throw .invalidInput("invalid \(option) \(text.quotedForMessage()): expected a whole number and a unit, like 30m, 12h, 7d or 2w (at most 100 years)")
        }
        return IdleTime(seconds: seconds)
    }

    /// The moment this long before `now` (epoch seconds), as a UTC timestamp.
    public func before(_ now: Int64) -> String { ShopClock.timestamp(now - seconds) }
}
