// SalesReportOutput: the one way a sales report reaches the screen — `orders stats`, `products top`
// and `users top` — its days as people type them (`--since 7d`), its columns, and its chart in a
// table (bars beside the rows, a sparkline under periods of time), never in json/ndjson/csv/tsv.

import ArgumentParser
import ShopCore
import ShopOutput
import ShellKit
import LineEditor

/// `--since` and `--until`, as days or as windows and periods relative to today.
public struct DayRangeOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("From this day on: YYYY-MM-DD, today, yesterday, 7d (the last 7 days), 12w, this-week, last-week, this-month or last-month.",
                               valueName: "day"),
            completion: .list(["today", "yesterday", "7d", "30d", "12w", "this-week", "last-week", "this-month", "last-month"]))
    public var since: String?

    @Option(help: ArgumentHelp("Up to and including this day (the same words; 7d: up to the day before the last 7 days).",
                               valueName: "day"),
            completion: .list(["today", "yesterday", "7d", "this-week", "last-week", "this-month", "last-month"]))
    public var until: String?

    public init() {}

    /// The days meant on `today` (`YYYY-MM-DD`), checked in order.
    public func days(today: CalendarDay) throws(ShopError) -> (since: String?, until: String?) {
        let first = try since.map { text throws(ShopError) in try ReportPeriod.since(text, today: today).description }
        let last = try until.map { text throws(ShopError) in try ReportPeriod.until(text, today: today).description }
        try OrderFilter.check(since: (first, "--since"), until: (last, "--until"))
        return (first, last)
    }
}

/// `--no-chart`.
public struct ChartOptions: ParsableArguments, Sendable {
    @Flag(name: .customLong("no-chart"), help: "No chart beside a table (other formats never carry one).")
    public var noChart = false

    public init() {}
}

extension CommandContext {
    /// Today as the store's clock reads it (UTC).
    public func today() throws(ShopError) -> CalendarDay {
        guard let day = CalendarDay(iso: services.clock.today()) else { throw .storage("the clock reads no day") }
        return day
    }

    /// Runs `query` (`OrderService.salesReport`) and renders it: the grouping's columns, then
    /// orders, items, gross, discounts, net, average order value and currency, in `currency`
    /// when asked. In a table, unless `chart` is off, a bar beside each row (net sales, or units
    /// when the report ranks by them) and under periods of time a sparkline.
    public func showSalesReport(_ query: OrderStatsQuery, currency: CurrencyOption, output: OutputOptions,
                                chart: ChartOptions) async throws {
        let display = try await moneyDisplay(currency)
        let rows = try await services.orders.salesReport(query, today: try today(),
                                                         convert: display.target == nil ? nil : { money throws(ShopError) in
            try display.convert(money)
        })
        let columns = SalesReportRows.columns(query.grouping) + display.extraColumns
        let options = renderOptions(output, tableView: SalesReportRows.tableView(query.grouping, rank: query.rank).appending(display.extraColumns.map(\.key)))
        let writer = try Renderer.report(columns: columns, options: options,
                                         chart: chart.noChart ? nil : reportChart(rows, query: query, options: options), sink: sink)
        for row in rows {
            if Interrupt.isRequested { throw ShopError.interrupted }
            try writer.write(try SalesReportRows.cells(row, query.grouping) + display.extraCells)
        }
        if try writer.finish() == 0 && terminal.stderrIsTerminal { note("no orders match") }
    }

    /// The chart of `rows` for a table as `options` render it: as wide as the terminal (never
    /// with --wide off a terminal, where there is no width to keep to).
    private func reportChart(_ rows: [OrderStatsRow], query: OrderStatsQuery, options: RenderOptions) -> ReportChart? {
        guard options.format == .table, sinkIsTerminal || !options.wide, let first = rows.first else { return nil }
        let width = Terminal.width(environment: environment)
        let periods = query.grouping.isTime && query.top == nil ? rows.map { $0.group ?? "" } : nil
        if query.rank == .items {
            return ReportChart(values: rows.map(\.items), caption: "units", periods: periods, width: width)
        }
        guard rows.allSatisfy({ $0.net.currency == first.net.currency }) else {
            return ReportChart(values: rows.map(\.orders), caption: "orders", periods: periods, width: width)
        }
        return ReportChart(values: rows.map(\.net.minorUnits), caption: "net \(first.net.currency.code)", periods: periods,
                           width: width)
    }
}

/// The one place where a report's rows become columns and cells.
public enum SalesReportRows {
    /// The figures every report shows after its grouping's columns.
    static let figures = ["orders", "items", "gross", "discounts", "refunds", "net", "average_order_value", "currency"]

    /// The columns naming a group.
    static func groupColumns(_ grouping: OrderStatsGrouping) -> [String] {
        switch grouping {
        case .product: return ["product_id", "sku", "title"]
        case .customer: return ["user_id", "customer"]
        default: return [grouping.rawValue]
        }
    }

    public static func columns(_ grouping: OrderStatsGrouping) -> [Column] {
        (groupColumns(grouping) + figures).map(Column.init)
    }

    /// A table for people: units (unless they rank the rows), gross and discounts (together) and
    /// the average give way to the chart first.
    static func tableView(_ grouping: OrderStatsGrouping, rank: OrderStatsRank) -> TableView {
        TableView(groupColumns(grouping) + figures,
                  optional: Set(["gross", "discounts", "refunds", "average_order_value"] + (rank == .items ? [] : ["items"])),
                  headers: ["average_order_value": "avg order", "product_id": "id", "user_id": "id"])
    }

    public static func cells(_ row: OrderStatsRow, _ grouping: OrderStatsGrouping) throws(ShopError) -> [Cell] {
        let group: [Cell]
        switch grouping {
        case .product: group = [row.id.map(Cell.integer) ?? .null, row.group.map(Cell.text) ?? .null, row.title.map(Cell.text) ?? .null]
        case .customer: group = [row.id.map(Cell.integer) ?? .null, row.group.map(Cell.text) ?? .null]
        default: group = [row.group.map(Cell.text) ?? .null]
        }
        return group + [.integer(row.orders), .integer(row.items), .decimal(row.gross.amount), .decimal(try row.discounts().amount),
                        .decimal(row.refunds.amount), .decimal(row.net.amount), try row.averageOrderValue().map { Cell.decimal($0.amount) } ?? .null,
                        .text(row.net.currency.code)]
    }
}

/// `--by revenue|units`, `--top N` and the days of a best-of list (`products top`, `users top`).
public struct TopOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Rank by revenue (net sales) or units.", valueName: "revenue|units"))
    public var by: TopRanking = .revenue

    @Option(parsing: .unconditional, help: ArgumentHelp("How many to show (default 10).", valueName: "N"))
    public var top = 10

    @OptionGroup public var days: DayRangeOptions

    public init() {}

    /// The report of the best `top` groups by `by` over the days asked for.
    public func query(_ grouping: OrderStatsGrouping, today: CalendarDay) throws(ShopError) -> OrderStatsQuery {
        let (since, until) = try days.days(today: today)
        return OrderStatsQuery(grouping: grouping, filter: OrderFilter(since: since, until: until),
                               top: try OrderStatsQuery.checkTop(top), rank: by.rank)
    }
}
