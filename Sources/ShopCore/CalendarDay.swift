// CalendarDay: a real day of the proleptic Gregorian calendar written `YYYY-MM-DD`. The one
// rule for which dates exist (no Feb 31, Feb 29 only in leap years), and day arithmetic.

/// A day such as 2024-02-29, parsed strictly from `YYYY-MM-DD`.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day, or nil when there is no such day (month 13, April 31, Feb 29 of 2023…).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// 1970-01-01: what a clock outside years 1…9999 reads as today.
    public static let epoch = CalendarDay(validYear: 1970, month: 1, day: 1)

    private init(validYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `2024-02-29` → that day; nil for `2023-02-29`, `2024-2-1`, `24-01-01` or `yesterday`.
    public init?(iso text: String) {
        guard case .day(let day) = Self.parse(text) else { return nil }
        self = day
    }

    /// Parses `text` as a day, or throws one line naming `what` (e.g. `--since`) and the problem.
    /// `typed`: the text is an option's value as typed, so a text not shaped like a day is a usage
    /// error (exit status 2); a day that does not exist is refused (1) either way.
    public static func validate(_ text: String, for what: String, typed: Bool = false) throws(ShopError) -> CalendarDay {
        switch parse(text) {
        case .day(let day): return day
        case .malformed where typed: throw .usage("invalid date \"\(text)\" for \(what): expected YYYY-MM-DD, like 2024-05-31")
        case .malformed: throw .invalidInput("invalid date \"\(text)\" for \(what): expected YYYY-MM-DD, like 2024-05-31")
        case .noSuchDay: throw .invalidInput("invalid date \"\(text)\" for \(what): there is no such day (expected YYYY-MM-DD)")
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Days since 1970-01-01 (negative before it); differences give the days between two days.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil; the year range (1…9999) keeps it far from overflow.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `dayNumber` days after 1970-01-01 (Howard Hinnant's civil_from_days); nil outside years 1…9999.
    public init?(dayNumber: Int) {
        guard (-719_162...2_932_896).contains(dayNumber) else { return nil }
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// How many days from `self` to `later` (negative when `later` is earlier).
    public func days(until later: CalendarDay) -> Int { later.dayNumber - dayNumber }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// 28, 29, 30 or 31.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    // MARK: - Parsing

    private enum Parsed { case day(CalendarDay), malformed, noSuchDay }

    /// `.malformed` when `text` is not shaped `YYYY-MM-DD`, `.noSuchDay` when it is but the day does not exist.
    private static func parse(_ text: String) -> Parsed {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return .malformed }
        var fields = [0, 0, 0], field = 0
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 7 { field += 1; continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .malformed }
            fields[field] = fields[field] * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return CalendarDay(year: fields[0], month: fields[1], day: fields[2]).map(Parsed.day) ?? .noSuchDay
    }
}
