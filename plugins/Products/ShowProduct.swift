// ShowProduct: `products show ID|SKU`.

import ArgumentParser
import ShellKit

/// `products show ID|SKU`.
struct ShowProduct: ShellCommand {
    static let completion = CompletionSpec(positionals: [.product])
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one product.")

    @Argument(help: "The product's id or SKU.")
    var product: String

    @OptionGroup var currency: CurrencyOption
    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let found = try await context.services.products.product(product)
        let display = try await context.moneyDisplay(currency)
        try context.record(columns: ProductRows.columns(display), row: ProductRows.cells(found, display), options: output)
    }
}
