// ShowProduct: `products show ID|SKU`.

import ArgumentParser
import ShellKit
import ShopCommandKit

extension ProductsCommand {
    /// `products show ID|SKU`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show one product.")

        @Argument(help: "The product's id or SKU.", completion: .shop(.product))
        var product: String

        @OptionGroup var asOf: AsOfOption
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let found = if let moment = try await asOf.moment(in: context) {
                try await PastShop(services: context.services, moment: moment).product(product)
            } else {
                try await context.services.products.product(product)
            }
            let display = try await context.moneyDisplay(currency)
            try context.record(columns: ProductRows.columns(display), row: ProductRows.cells(found, display), options: output)
        }
    }
}
