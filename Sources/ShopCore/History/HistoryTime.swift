// HistoryTime: what `--as-of TIME` accepts — an instant (`2026-11-27T12:00:00Z`), a day (its last
// second), or a span ago (`90s`, `30m`, `2h`, `3d`, `1w`) — as the moment it means, and the one
// line for a moment the audit log cannot answer for.

/// The moment an `--as-of` asks about, in whole seconds (the audit log's resolution).
public struct HistoryMoment: Hashable, Sendable, CustomStringConvertible {
    /// Seconds since 1970, UTC: the state after every change up to the end of this second.
    public var seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    /// `2026-11-27T12:00:00Z`.
    public var description: String { ShopClock.timestamp(seconds) }

    /// The first moment after this one (what "changes after it" starts from).
    public var next: String { ShopClock.timestamp(seconds &+ 1) }

    /// The spans a relative time may name, in seconds.
    static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// `text` as a moment, relative to `now`: an instant, a day (up to its last second) or a
    /// span ago (`2h`, `3d`). A moment after `now` is refused.
    public static func parse(_ text: String, now: Int64, for name: String = "--as-of") throws(ShopError) -> HistoryMoment {
        let usage = "expected an instant (2026-11-27T12:00:00Z), a day (2026-11-27) or a time ago (30m, 2h, 3d, 1w)"
        var moment: Int64
        if let unit = text.last, let size = units[unit], text.count >= 2, text.count <= 10,
           text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int64(text.dropLast()) {
            let (span, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, span <= now else { throw .invalidInput("\(name) \(text.quotedForMessage()) reaches back before 1970") }
            moment = now - span
        } else if let instant = ShopClock.parse(text) {
            moment = instant
        } else if let day = CalendarDay(iso: text), text.count == 10 {
            moment = Int64(day.dayNumber) * 86_400 + 86_399
        } else {
            throw .invalidInput("invalid \(name) \(text.quotedForMessage()): \(usage)")
        }
        if moment > now { throw .invalidInput("\(name) \(text.quotedForMessage()) is in the future (it is \(ShopClock.timestamp(now)) now)") }
        return HistoryMoment(seconds: moment)
    }

    /// The line for a moment before the log's first answerable one.
    public func beforeHistory(since start: String) -> ShopError {
        .invalidInput("the audit log answers from \(start) on, not \(description) (it was started or trimmed then); nothing was read")
    }

    /// The line that says a view is of the past (on stderr).
    public var note: String { "as of \(description), rebuilt from the audit log" }
}
