// EditProducts: `products add`, `update`, `delete` and `stock`: every change is one transaction in the store.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

/// The product fields an operator can set.
struct ProductFieldOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The product's title.")
    var title: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The price in USD, e.g. 12.50.", valueName: "amount"))
    var price: String?

    @Option(parsing: .unconditional, help: "The category slug, e.g. kitchen-accessories.", completion: .shop(.category))
    var category: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Units in stock.", valueName: "N"))
    var stock: Int?

    @Option(parsing: .unconditional, help: "The stock-keeping unit (unique; made up from the category if left out).")
    var sku: String?

    @Option(parsing: .unconditional, help: "The brand.")
    var brand: String?

    @Option(parsing: .unconditional, help: "A description.")
    var description: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A discount in percent, 0 to 100, e.g. 12.5.", valueName: "percent"))
    var discount: String?

    @OptionGroup var details: ProductDetailOptions

    var changes: ProductChanges {
        get throws {
            ProductChanges(sku: sku, title: title, description: description, category: category, brand: brand,
                           price: try price.map { try Money.parse($0, currency: .usd) },
                           discount: try discount.map { try Percentage.parse($0) }, stock: stock)
        }
    }
}

extension ProductsCommand {
    /// `products add --title T --price P --category C …`.
    struct Add: ShellCommand {
        static let operation: ShopOperation? = .addProduct
        static let configuration = CommandConfiguration(abstract: "Add a product.")

        @OptionGroup var fields: ProductFieldOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            let missing = [("--title", fields.title), ("--price", fields.price), ("--category", fields.category)]
                .filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty { throw ValidationError("missing \(missing.joined(separator: ", "))") }
        }

        func run(in context: CommandContext) async throws {
            let changes = try fields.changes
            guard let title = changes.title, let price = changes.price, let category = changes.category else {
                throw ShopError.usage("products add needs --title, --price and --category")
            }
            let added = try await context.services.products.addProduct(
                NewProduct(sku: changes.sku, title: title, description: changes.description ?? "", category: category,
                           brand: changes.brand, price: price, discount: changes.discount ?? .zero, stock: changes.stock ?? 0,
                           barcode: try fields.details.checkedBarcode().flatMap { $0.isEmpty ? nil : $0 },
                           details: try fields.details.edit().applied(to: ProductDetails())))
            try context.record(columns: ProductRows.columns, row: ProductRows.cells(added), options: output)
            context.note("added product \(added.id) (\(added.sku))")
        }
    }

    /// `products delete ID`.
    struct Delete: ShellCommand {
        static let operation: ShopOperation? = .deleteProduct
        static let configuration = CommandConfiguration(abstract: "Delete a product (baskets and favourites lose it; orders keep their copy).",
            discussion: "Asks for confirmation at a terminal (--yes skips it); scripts and pipes are never asked.")

        @Argument(help: "The product's id or SKU.", completion: .shop(.product))
        var product: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation at a terminal.")
        var yes = false

        func run(in context: CommandContext) async throws {
            if !yes, context.canAsk {
                let target = try await context.services.products.product(product)
                guard try context.ask("delete product \(target.id) (\(target.sku)) \(target.title)? baskets and favourites lose it; orders keep their copy") else {
                    return context.note("product \(target.id) was not deleted")
                }
            }
            let deleted = try await context.services.products.deleteProduct(product)
            context.note("deleted product \(deleted.id) (\(deleted.sku)) \(deleted.title)")
        }
    }

    /// `products stock ID +N|-N|=N`, or `products stock +N --category C …` for a selection.
    struct Stock: ShellCommand {
        static let operation: ShopOperation? = .adjustStock
        static let configuration = CommandConfiguration(
            abstract: "Show or change a product's stock: +N adds, -N removes (never below 0), =N sets.",
            discussion: """
                Without a PRODUCT, the filters (--category, --brand, --search, --min-price, --max-price, \
                --in-stock, --stock-below, --ids) pick the products, and the change is shown and \
                applied as products update's: asked at the prompt, --yes in a batch for more than one \
                product, --dry-run to see it only, all in one transaction.
                """)

        // One argument for both words, so that a change like -5 is read as a word wherever it
        // comes (after a filter too), never as an unknown flag.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
            "The product's id or SKU (leave out to change a selection), then +N, -N or =N (leave out to show the stock).",
            valueName: "product-and-change"), completion: .shop(.product))
        var words: [String] = []

        @Option(help: ArgumentHelp("Why, for the stock ledger: \(StockChangeReason.choices).", valueName: "reason"))
        var reason: StockChangeReason = .correction

        @Option(help: ArgumentHelp("A note for the stock ledger.", valueName: "text"))
        var note: String?

        @OptionGroup var selection: ProductFilterOptions
        @OptionGroup var preview: ChangePreviewOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            var product = words.first, change = Array(words.dropFirst())
            // A lone +N, -N or =N is the change, never a product (no id starts so; Int64("+1") is 1).
            if let first = product, change.isEmpty, ["+", "-", "="].contains(first.first) {
                change = [first]
                product = nil
            }
            guard change.count <= 1 else {
                throw ShopError.usage("products stock takes one change (+N, -N or =N), got: \(change.joined(separator: " "))")
            }
            guard let product else {
                guard selection.selectsSome, let text = change.first else {
                    throw ShopError.usage("products stock needs a PRODUCT, or a change (+N, -N or =N) and a selection: --category, --brand, --search, --min-price, --max-price, --in-stock, --stock-below or --ids")
                }
                let ledger = StockChangeNote(reason: reason.stockReason, note: try checkedNote())
                return try await StockChangeNote.$current.withValue(ledger) {
                    try await BulkProductChange(edit: ProductEdit(stock: try StockChange.parse(text)), filter: try selection.filter(),
                                                preview: preview, output: output).run(in: context)
                }
            }
            guard !selection.selectsSome else { throw ShopError.usage("give a PRODUCT or a selection (filters), not both") }
            let columns = ["id", "sku", "title", "stock"]
            let result: Product
            if let text = change.first {
                result = try await context.services.products.adjustStock(product, try StockChange.parse(text),
                                                                        reason: reason.stockReason, note: try checkedNote())
            } else {
                result = try await context.services.products.product(product)
            }
            try context.record(columns: ProductRows.columns, defaultFields: columns, row: ProductRows.cells(result), options: output)
        }

        /// `--note`, checked as a refund's reason is (1–500 characters, no control characters).
        private func checkedNote() throws(ShopError) -> String? {
            try note.map { text throws(ShopError) in try RefundRules.checkReason(text, option: "--note") }
        }
    }

    /// `products import FILE`.
    struct Import: ShellCommand {
        static let operation: ShopOperation? = .importProducts
        static let configuration = CommandConfiguration(abstract: "Import products from a DummyJSON JSON file or a CSV file (all or nothing).",
            discussion: "Products whose SKU exists are updated, others are added. A bad record stops the import with its position; nothing from the file is applied.")

        @Argument(help: "A .json or .csv file.", completion: .file(extensions: ["json", "csv"]))
        var file: String

        func run(in context: CommandContext) async throws {
            let bytes = try FileInput.read(file)
            let format = ProductFileDecoder.Format.detect(path: file, bytes: bytes)
            let products: [NewProduct]
            do {
                products = try ProductFileDecoder.decode(bytes, format: format)
            } catch {
                throw ShopError.invalidInput("\(file): \(error.message)")
            }
            let summary = try await context.services.products.importProducts(products)
            context.note("imported \(products.count) products from \(file): \(summary.inserted) added, \(summary.updated) updated")
        }
    }
}
