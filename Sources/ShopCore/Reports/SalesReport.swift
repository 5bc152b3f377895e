// SalesReport: a store's order figures made into the report people read — days added up into
// weeks and months, amounts converted and merged into one currency, periods in time order with
// the empty ones shown, other groups ranked best first and cut to a top N.

extension OrderService {
    /// The report `query` asks for: the store's figures (`orderStats`) put together by
    /// `SalesReport.assemble`. `convert` turns amounts into the report's currency (nil: as stored).
    public func salesReport(_ query: OrderStatsQuery, today: CalendarDay,
                            convert: ((Money) throws(ShopError) -> Money)? = nil) async throws -> [OrderStatsRow] {
        var stored = query
        stored.grouping = query.grouping.stored
        let refunds = try await refundStats(stored)
        // A top N across currencies needs their amounts converted first, and one net of refunds
        // the refunds taken away first.
        if convert != nil || !refunds.isEmpty { stored.top = nil }
        return try SalesReport.assemble(try await orderStats(stored) + refunds, query: query, today: today, convert: convert)
    }
}

/// How store rows become a report.
public enum SalesReport {
    /// Puts a store's rows (grouped by `query.grouping.stored`) together as `query` asks:
    /// 1. days added up into weeks or months;
    /// 2. amounts converted by `convert`, and rows of one group merged;
    /// 3. periods in time order; other groups, and periods cut to a top N, best first by
    ///    `query.rank`, then by label;
    /// 4. cut to `query.top`;
    /// 5. periods without sales added as empty rows, from the filter's first day (else the first
    ///    row's) to its last day (else today when it has a first day, else the last row's), when
    ///    there is no top and the rows share one currency.
    public static func assemble(_ rows: [OrderStatsRow], query: OrderStatsQuery, today: CalendarDay,
                                convert: ((Money) throws(ShopError) -> Money)?) throws(ShopError) -> [OrderStatsRow] {
        var rows = rows
        if query.grouping.isTime && query.grouping != .day {
            rows = try rows.map { row throws(ShopError) in
                guard let text = row.group, let day = CalendarDay(iso: text) else {
                    throw .storage("the store gave \((row.group ?? "nothing").quotedForMessage()) for a day")
                }
                var period = row
                period.group = ReportPeriod.label(of: day, by: query.grouping)
                return period
            }
        }
        if let convert {
            rows = try rows.map { row throws(ShopError) in
                var converted = row
                converted.gross = try convert(row.gross)
                converted.net = try convert(row.net)
                converted.refunds = try convert(row.refunds)
                return converted
            }
        }
        rows = try merged(rows)
        if query.grouping.isTime && query.top == nil {
            rows.sort { ($0.group ?? "", $0.net.currency.code) < ($1.group ?? "", $1.net.currency.code) }
        } else {
            rows.sort { ranksBefore($0, $1, by: query.rank) }
        }
        if let top = query.top {
            return Array(rows.prefix(max(0, top)))
        }
        guard query.grouping.isTime, let first = rows.first, rows.allSatisfy({ $0.net.currency == first.net.currency }) else {
            return rows
        }
        return filled(rows, query: query, today: today, currency: first.net.currency)
    }

    /// Rows of the same group and currency added up, in the order each group first came.
    static func merged(_ rows: [OrderStatsRow]) throws(ShopError) -> [OrderStatsRow] {
        var result: [OrderStatsRow] = []
        var index: [MergeKey: Int] = [:]
        for row in rows {
            let key = MergeKey(group: row.key, currency: row.net.currency.code)
            if let at = index[key] {
                var sum = try result[at].adding(row)
                if sum.title == nil { sum.title = row.title }
                result[at] = sum
            } else {
                index[key] = result.count
                result.append(row)
            }
        }
        return result
    }

    private struct MergeKey: Hashable {
        var group: OrderStatsRow.GroupKey
        var currency: String
    }

    /// Best first by `rank`; ties by label (none last), then id, then currency.
    static func ranksBefore(_ lhs: OrderStatsRow, _ rhs: OrderStatsRow, by rank: OrderStatsRank) -> Bool {
        let (left, right) = rank == .items ? (lhs.items, rhs.items) : (lhs.net.minorUnits, rhs.net.minorUnits)
        if left != right { return left > right }
        if lhs.group != rhs.group {
            guard let leftGroup = lhs.group else { return false }
            guard let rightGroup = rhs.group else { return true }
            return leftGroup < rightGroup
        }
        if lhs.id != rhs.id { return (lhs.id ?? .max) < (rhs.id ?? .max) }
        return lhs.net.currency.code < rhs.net.currency.code
    }

    /// `rows` (periods in time order) with an empty row for every period between the first and
    /// the last without one.
    static func filled(_ rows: [OrderStatsRow], query: OrderStatsQuery, today: CalendarDay, currency: Currency) -> [OrderStatsRow] {
        let grouping = query.grouping
        let since = query.filter.since.flatMap { CalendarDay(iso: $0) }
        let until = query.filter.until.flatMap { CalendarDay(iso: $0) }
        guard let firstRow = rows.first.flatMap({ $0.group }).flatMap({ ReportPeriod.firstDay(of: $0, by: grouping) }),
              let lastRow = rows.last.flatMap({ $0.group }).flatMap({ ReportPeriod.firstDay(of: $0, by: grouping) }) else {
            return rows
        }
        let first = min(since ?? firstRow, firstRow)
        // Not past today (a window such as this-month ends in the future), nor before the last sale.
        let end = until.map { min($0, max(today, lastRow)) } ?? (since != nil ? max(today, lastRow) : lastRow)
        guard let labels = ReportPeriod.labels(from: first, through: max(end, lastRow), by: grouping) else { return rows }
        var byLabel: [String: OrderStatsRow] = [:]
        for row in rows { if let group = row.group { byLabel[group] = row } }
        return labels.map { byLabel[$0] ?? .empty($0, currency: currency) }
    }
}
