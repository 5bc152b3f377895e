// IdleTime: how long something has not been touched, as typed (`7d`, `12h`, `2w`, `30m`, `0d`) —
// `basket list --idle` — in whole seconds, bounded so that now minus it never overflows.

/// A length of time typed as a whole number and a unit: s, m, h, d or w.
public struct IdleTime: Hashable, Sendable {
    public let seconds: Int64

    /// The longest a length may be: 100 years.
    public static let maxSeconds: Int64 = 100 * 366 * 86_400

    public static func parse(_ text: String, for option: String) throws(ShopError) -> IdleTime {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        let wanted = "expected a whole number and a unit, like 30m, 12h, 7d or 2w (at most 100 years)"
        // Not shaped like a time (`12x`, `-3d`) is a usage error; too long a time is refused.
        guard let unit = text.last, let size = units[unit], text.count > 1, text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .usage("invalid \(option) \(text.quotedForMessage()): \(wanted)")
        }
        guard let count = Int64(text.dropLast()),
              case let (seconds, overflow) = count.multipliedReportingOverflow(by: size), !overflow, seconds <= maxSeconds else {
            throw .invalidInput("invalid \(option) \(text.quotedForMessage()): \(wanted)")
        }
        return IdleTime(seconds: seconds)
    }

    /// The moment this long before `now` (epoch seconds), as a UTC timestamp.
    public func before(_ now: Int64) -> String { ShopClock.timestamp(now - seconds) }
}
