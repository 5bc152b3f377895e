// ListProducts: `products list` and `products search TEXT`, with filters, sorting and paging.

import ArgumentParser
import ShellKit
import ShopCore

/// The filters of a product listing.
struct ProductFilterOptions: ParsableArguments {
    @Option(help: "Only products in this category (a slug, see products categories).", completion: .shop(.category))
    var category: String?

    @Option(parsing: .unconditional, help: "Only products whose title, description, brand or SKU contains this text.")
    var search: String?

    @Option(name: .customLong("min-price"), parsing: .unconditional, help: ArgumentHelp("Only products costing at least this much (USD).", valueName: "amount"))
    var minPrice: String?

    @Option(name: .customLong("max-price"), parsing: .unconditional, help: ArgumentHelp("Only products costing at most this much (USD).", valueName: "amount"))
    var maxPrice: String?

    @Flag(name: .customLong("in-stock"), help: "Only products with stock.")
    var inStock = false

    func filter(search extra: String? = nil) throws -> ProductFilter {
        ProductFilter(category: category, search: extra ?? search,
                      minPrice: try minPrice.map { try Money.parse($0, currency: .usd) },
                      maxPrice: try maxPrice.map { try Money.parse($0, currency: .usd) },
                      inStockOnly: inStock)
    }
}

/// Streams a product listing through the output layer.
func listProducts(_ filter: ProductFilter, output: OutputOptions, paging: PagingOptions, currency: CurrencyOption,
                  context: CommandContext) async throws {
    let page = try context.page(paging)
    let display = try await context.moneyDisplay(currency)
    let columns = ProductRows.columns(display), defaultFields = ProductRows.listingFields(display)
    let tableView = ProductRows.tableView.appending(display.extraColumns.map(\.key))
    var filter = filter
    filter.withDescriptionAndTags = !context.shownFields(output, columns: columns, defaultFields: defaultFields, tableView: tableView)
        .isDisjoint(with: ["description", "tags"])
    try await context.list(columns: columns, defaultFields: defaultFields, tableView: tableView,
                           options: output, page: page, emptyNote: emptyNote(filter)) { emit in
        try await context.services.products.listProducts(filter, page: page) { product in
            try emit(ProductRows.cells(product, display))
        }
    }
}

private func emptyNote(_ filter: ProductFilter) -> String {
    if let search = filter.search { return "no products match \"\(search)\"" }
    if let category = filter.category { return "category \"\(category)\" has no products" }
    return "no products"
}

extension ProductsCommand {
    /// `products list`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List products.")

        @OptionGroup var filters: ProductFilterOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await listProducts(try filters.filter(), output: output, paging: paging, currency: currency, context: context)
        }
    }

    /// `products search TEXT`.
    struct Search: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Find products by title, description, brand or SKU.")

        @Argument(help: "The text to look for (case-insensitive).")
        var text: String

        @OptionGroup var filters: ProductFilterOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await listProducts(try filters.filter(search: text), output: output, paging: paging, currency: currency,
                                   context: context)
        }
    }

    /// `products categories`.
    struct Categories: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List categories with their product counts.")

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let categories = try await context.services.products.categories()
            try await context.list(columns: ProductRows.categoryColumns, options: output, page: Page(),
                                   emptyNote: "no categories (the catalogue is empty)") { emit in
                for category in categories { try emit(ProductRows.cells(category)) }
            }
        }
    }
}
