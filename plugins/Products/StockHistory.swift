// StockHistory: `products stock-history PRODUCT`: the product's stock ledger — every movement
// with when, who, the change, the balance after it, why and the order — or, with --on, the
// balance at the end of one day.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

extension ProductsCommand {
    /// `products stock-history PRODUCT [--since DAY] [--until DAY] [--on DAY]`.
    struct StockHistory: ShellCommand {
        static let configuration = CommandConfiguration(
            commandName: "stock-history",
            abstract: "A product's stock ledger: every movement, when, who, why, the change and the balance after it.",
            discussion: """
                Checkouts, cancels, restocking returns, products stock (with its --reason and --note), bulk updates, \
                imports, reverts, and changes made outside shopsh (reason outside). --on DAY gives the stock at the end \
                of that day instead.
                """)

        @Argument(help: "The product's id or SKU.", completion: .shop(.product))
        var product: String

        @OptionGroup var days: DayRangeOptions

        @Option(help: ArgumentHelp("The stock at the end of this day (YYYY-MM-DD, today, yesterday).", valueName: "day"),
                completion: .list(["today", "yesterday"]))
        var on: String?

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let today = try context.today()
            let rows = try await context.services.products.stockHistory(product)
            if let on {
                guard days.since == nil && days.until == nil else {
                    throw ShopError.invalidInput("--on gives one day's closing stock; it does not go with --since or --until")
                }
                let day = try ReportPeriod.until(on, today: today, option: "--on").description
                let balance = rows.balance(atEndOf: day)
                let columns = ["product_id", "day", "stock"].map(Column.init)
                return try context.record(columns: columns, row: [rows.first.map { .integer($0.productID) } ?? .null, .text(day),
                                                                  balance.map(Cell.integer) ?? .null], options: output)
            }
            let (since, until) = try days.days(today: today)
            let columns = ["id", "at", "operator", "change", "balance", "reason", "order_id", "note"].map(Column.init)
            // At a terminal the note is cut first; who and why always show.
            try await context.list(columns: columns, tableView: TableView(["at", "change", "balance", "reason", "order_id", "operator", "note"]),
                                   options: output, page: Page(), emptyNote: "no stock movements") { emit in
                for row in rows where since.map({ String(row.at.prefix(10)) >= $0 }) ?? true
                                        && until.map({ String(row.at.prefix(10)) <= $0 }) ?? true {
                    try emit([.integer(row.id), .text(row.at), .text(row.operatorName), .integer(row.change), .integer(row.balance),
                              .text(row.reason), row.orderID.map(Cell.integer) ?? .null, row.note.map(Cell.text) ?? .null])
                }
            }
        }
    }
}
