// ReportPeriod: the calendar of reports — which week or month a day falls in (weeks start on
// Monday and are named by it), the periods between two days (empty ones included), and the days
// people type for `--since` and `--until`: `2026-11-01`, `today`, `yesterday`, `7d`, `12w`,
// `this-week`, `last-week`, `this-month`, `last-month`.

/// The period of a time grouping that holds a day, and the periods after it.
public enum ReportPeriod {
    /// The label of the period of `grouping` (day, week or month) that holds `day`.
    public static func label(of day: CalendarDay, by grouping: OrderStatsGrouping) -> String {
        switch grouping {
        case .week: return monday(of: day).description
        case .month: return String(day.description.prefix(7))
        default: return day.description
        }
    }

    /// The first day of the period a label names (nil when it is not one).
    public static func firstDay(of label: String, by grouping: OrderStatsGrouping) -> CalendarDay? {
        grouping == .month ? CalendarDay(iso: label + "-01") : CalendarDay(iso: label)
    }

    /// The labels of every period from the one holding `first` to the one holding `last`, in
    /// order; nil when there would be more than `limit`.
    public static func labels(from first: CalendarDay, through last: CalendarDay, by grouping: OrderStatsGrouping,
                              limit: Int = 10_000) -> [String]? {
        var labels: [String] = []
        var day: CalendarDay? = first
        while let current = day, current <= last {
            guard labels.count < limit else { return nil }
            labels.append(label(of: current, by: grouping))
            day = start(after: current, by: grouping)
        }
        return labels
    }

    /// The first day of the period after the one holding `day` (nil past year 9999).
    static func start(after day: CalendarDay, by grouping: OrderStatsGrouping) -> CalendarDay? {
        switch grouping {
        case .week: return CalendarDay(dayNumber: monday(of: day).dayNumber + 7)
        case .month:
            return day.month == 12 ? CalendarDay(year: day.year + 1, month: 1, day: 1)
                                   : CalendarDay(year: day.year, month: day.month + 1, day: 1)
        default: return CalendarDay(dayNumber: day.dayNumber + 1)
        }
    }

    /// The Monday on or before `day` (1970-01-01 was a Thursday).
    static func monday(of day: CalendarDay) -> CalendarDay {
        let number = day.dayNumber
        let sinceMonday = ((number + 3) % 7 + 7) % 7
        return CalendarDay(dayNumber: number - sinceMonday) ?? day
    }

    // MARK: - Days as typed

    /// The first day `--since TEXT` means on `today`: a window that ends today (`7d`: the last
    /// seven days, today included), or the first day of a named period, or a day itself.
    public static func since(_ text: String, today: CalendarDay, option: String = "--since") throws(ShopError) -> CalendarDay {
        try parse(text, today: today, option: option).first
    }

    /// The last day `--until TEXT` means on `today`: the day before a window that ends today
    /// (`7d`: up to eight days ago, so that `--since 14d --until 7d` is the week before the last
    /// seven days), or the last day of a named period, or a day itself.
    public static func until(_ text: String, today: CalendarDay, option: String = "--until") throws(ShopError) -> CalendarDay {
        let range = try parse(text, today: today, option: option)
        if range.isWindow, let before = CalendarDay(dayNumber: range.first.dayNumber - 1) { return before }
        return range.last
    }

    /// The longest window: 100 years of days.
    static let maxWindowDays = 36_600

    private static func parse(_ text: String, today: CalendarDay, option: String) throws(ShopError) -> (first: CalendarDay, last: CalendarDay, isWindow: Bool) {
        let word = text.trimmingASCIISpaces.lowercased()
        func day(_ number: Int) -> CalendarDay { CalendarDay(dayNumber: number) ?? today }
        let monday = monday(of: today)
        let firstOfMonth = CalendarDay(year: today.year, month: today.month, day: 1) ?? today
        switch word {
        case "today": return (today, today, false)
        case "yesterday": return (day(today.dayNumber - 1), day(today.dayNumber - 1), false)
        case "this-week": return (monday, day(monday.dayNumber + 6), false)
        case "last-week": return (day(monday.dayNumber - 7), day(monday.dayNumber - 1), false)
        case "this-month":
            return (firstOfMonth, day(firstOfMonth.dayNumber + CalendarDay.daysIn(month: today.month, year: today.year) - 1), false)
        case "last-month":
            let last = day(firstOfMonth.dayNumber - 1)
            return (CalendarDay(year: last.year, month: last.month, day: 1) ?? last, last, false)
        default: break
        }
        if let unit = word.last, unit == "d" || unit == "w", word.count > 1, word.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let count = Int(word.dropLast()), count >= 1, count <= (unit == "w" ? maxWindowDays / 7 : maxWindowDays) else {
                throw .invalidInput("invalid \(option) \(text.quotedForMessage()): a window is 1 to \(maxWindowDays) days (7d) or 1 to \(maxWindowDays / 7) weeks (12w)")
            }
            let days = unit == "w" ? count * 7 : count
            return (day(today.dayNumber - days + 1), today, true)
        }
        // What starts like a date is judged as one (`2024-5-1`: expected YYYY-MM-DD).
        guard let first = text.first, first.isASCII, first.isNumber, text.contains("-") else {
            throw .usage("invalid \(option) \(text.quotedForMessage()): expected a day (YYYY-MM-DD, today, yesterday), a window (7d, 12w) or a period (this-week, last-week, this-month, last-month)")
        }
        let exact = try CalendarDay.validate(text, for: option, typed: true)
        return (exact, exact, false)
    }
}
