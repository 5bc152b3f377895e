// TopProducts: `products top` — the best sellers by revenue or units over a window of days, with
// the same figures and chart as `orders stats --by product` (ShellKit's sales report).

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

extension ProductsCommand {
    /// `products top [--by revenue|units] [--top N] [--since DAY] [--until DAY]`.
    struct Top: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Best sellers by revenue or units, with a chart.",
            discussion: """
                The products sold most over the days asked for (all of them by default): orders holding them, units \
                (less the units returned in those days), gross, discounts, refunds (for returned units), net (paid less \
                refunds), average per order. Cancelled orders are no sales. The same figures as \
                `orders stats --by product --top N`.
                """)

        @OptionGroup var ranking: TopOptions
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var chart: ChartOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await context.showSalesReport(try ranking.query(.product, today: try context.today()),
                                              currency: currencyOption, output: output, chart: chart)
        }
    }
}
