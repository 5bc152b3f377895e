// TopUsers: `users top` — the best customers by revenue or units over a window of days, with the
// same figures and chart as `orders stats --by customer` (ShellKit's sales report).

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

extension UsersCommand {
    /// `users top [--by revenue|units] [--top N] [--since DAY] [--until DAY]`.
    struct Top: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Best customers by revenue or units, with a chart.",
            discussion: """
                The customers who bought most over the days asked for (all of them by default): their orders, units, \
                gross, discounts, net and average order value. Cancelled orders are no sales. The same figures as \
                `orders stats --by customer --top N`.
                """)

        @OptionGroup var ranking: TopOptions
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var chart: ChartOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await context.showSalesReport(try ranking.query(.customer, today: try context.today()),
                                              currency: currencyOption, output: output, chart: chart)
        }
    }
}
