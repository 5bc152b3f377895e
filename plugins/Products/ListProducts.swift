// ListProducts: `products list` and `products search TEXT`, with filters, sorting and paging.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

/// The filters of a product listing.
struct ProductFilterOptions: ParsableArguments {
    @Option(help: "Only products in this category (a slug, see products categories).", completion: .shop(.category))
    var category: String?

    @Option(parsing: .unconditional, help: "Only products matching this text, best first (as products search).")
    var search: String?

    @Option(name: .customLong("min-price"), parsing: .unconditional, help: ArgumentHelp("Only products costing at least this much (USD).", valueName: "amount"))
    var minPrice: String?

    @Option(name: .customLong("max-price"), parsing: .unconditional, help: ArgumentHelp("Only products costing at most this much (USD).", valueName: "amount"))
    var maxPrice: String?

    @Flag(name: .customLong("in-stock"), help: "Only products with stock.")
    var inStock = false

    @Option(parsing: .unconditional, help: "Only products of this brand (any case).")
    var brand: String?

    @Option(name: .customLong("stock-below"), parsing: .unconditional, help: ArgumentHelp("Only products with fewer than N in stock.", valueName: "N"))
    var stockBelow: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only these ids and ranges, e.g. 1,2,5-9.", valueName: "ids"))
    var ids: String?

    @Option(name: .customLong("min-rating"), parsing: .unconditional,
            help: ArgumentHelp("Only products the catalogue rates at least this (0 to 5, the rating column).", valueName: "rating"))
    var minRating: String?

    /// The filter; `extra` is `products search`'s words, which stand for `--search`.
    func filter(search extra: String? = nil) throws -> ProductFilter {
        ProductFilter(category: try SelectionText.check(category, for: "--category"),
                      search: try extra.map { try SelectionText.check($0, for: "the search text") }
                          ?? SelectionText.check(search, for: "--search"),
                      minPrice: try minPrice.map { try Money.parse($0, currency: .usd) },
                      maxPrice: try maxPrice.map { try Money.parse($0, currency: .usd) },
                      inStockOnly: inStock, brand: try SelectionText.check(brand, for: "--brand"), stockBelow: stockBelow,
                      ids: try SelectionText.check(ids, for: "--ids").map { try ProductFilter.parseIDs($0) },
                      minRating: try minRating.map { text throws(ShopError) in
                          guard let value = ExactDecimal.parse(text, maxScale: 2), value.units <= 500 else {
                              throw .invalidInput("invalid --min-rating \(text.quotedForMessage()): expected 0 to 5 with at most 2 decimals")
                          }
                          return Rating(hundredths: Int(value.units))
                      })
    }

    /// Whether any filter is given (a bulk change needs one).
    var selectsSome: Bool {
        category != nil || search != nil || minPrice != nil || maxPrice != nil || inStock || brand != nil
            || stockBelow != nil || ids != nil || minRating != nil
    }
}

/// Streams a product listing through the output layer; with a search text, ranked (best first,
/// `score` a field `--fields` can ask for).
func listProducts(_ filter: ProductFilter, output: OutputOptions, paging: PagingOptions, currency: CurrencyOption,
                  asOf: AsOfOption? = nil, context: CommandContext) async throws {
    let page = try context.page(paging)
    let moment = try await asOf?.moment(in: context)
    if moment != nil {
        if filter.search != nil { throw ShopError.usage("--as-of lists products by id: it cannot search (--search)") }
        if !page.sort.isEmpty { throw ShopError.usage("--as-of lists products by id: it cannot --sort") }
    }
    let display = try await context.moneyDisplay(currency)
    let searching = filter.search.map { !$0.isEmpty } ?? false
    let columns = ProductRows.columns(display, searching: searching)
    let defaultFields = ProductRows.listingFields(display)
    let tableView = ProductRows.tableView.appending(display.extraColumns.map(\.key))
    var filter = filter
    let shown = context.shownFields(output, columns: columns, defaultFields: defaultFields, tableView: tableView)
    filter.withLongFields = !shown.isDisjoint(with: ProductRows.longFields)
    filter.withReviewSummary = !shown.isDisjoint(with: ProductRows.reviewFields)
    var found = 0
    try await context.list(columns: columns, defaultFields: defaultFields, tableView: tableView,
                           options: output, page: page, emptyNote: emptyNote(filter)) { emit in
        if let moment {
            let past = try await PastShop(services: context.services, moment: moment).products(filter)
            for product in past.dropFirst(page.offset).prefix(page.limit ?? Int.max) { try emit(ProductRows.cells(product, display)) }
            return
        }
        guard searching, let text = filter.search else {
            try await context.services.products.listProducts(filter, page: page) { product in
                try emit(ProductRows.cells(product, display))
            }
            return
        }
        try await context.services.products.searchProducts(text, filter: filter, page: page) { result in
            found += 1
            try emit(ProductRows.cells(result, display))
        }
    }
    if searching, found == 0, page.offset == 0, let text = filter.search,
       case let suggestions = try await context.services.products.searchSuggestions(text), !suggestions.isEmpty {
        context.note("did you mean: \(suggestions.joined(separator: ", "))?")
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
        @OptionGroup var asOf: AsOfOption
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await listProducts(try filters.filter(), output: output, paging: paging, currency: currency, asOf: asOf, context: context)
        }
    }

    /// `products search TEXT`.
    struct Search: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find products: every word in the title, brand, category, tags or description, best first.",
            discussion: """
                The last word may be the start of a word (iph finds iPhone); a word of 3 letters or more \
                also finds words holding it (phone finds iPhone). A word the catalogue has in no form may \
                carry one typo from 4 letters, two from 8 (iphnoe, samsng galxy). The product whose id or \
                SKU is the text comes first; then matches in the title, above brand, category and tags, \
                above description (the word above its start, above a word holding it, above a typo); ties \
                by id. --sort FIELD lists every match in that order instead (ties by id; --sort score is \
                the ranking); --fields score shows the score.
                """)

        @Argument(help: ArgumentHelp("The words to look for (case-insensitive; no quotes needed).", valueName: "text"))
        var words: [String]

        @OptionGroup var filters: ProductFilterOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await listProducts(try filters.filter(search: words.joined(separator: " ")), output: output, paging: paging,
                                   currency: currency, context: context)
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
