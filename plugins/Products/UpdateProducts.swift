// UpdateProducts: `products update PRODUCT …` and `products update SELECTION …` — one product's
// fields, or every product a selection picks, with relative values (ProductEdit). A selection
// shows its diff first, asks at the prompt, needs --yes in a batch when it changes more than one
// product, and applies everything in one transaction: one change set in the audit log.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// The values `products update` sets; price, discount and stock also relative.
struct ProductEditOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The title.")
    var title: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The price in USD: 19.99 sets it, *0.9 multiplies it, +5% or -10% changes it by a percentage, +2.50 or -2.50 adds or takes an amount. A changed price is rounded once to the cent, half away from zero, and stays above 0.",
        valueName: "price"))
    var price: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The stock: N or =N sets it, +N adds, -N removes (never below 0).", valueName: "N"))
    var stock: String?

    @Option(parsing: .unconditional, help: "The stock-keeping unit (one product only).")
    var sku: String?

    @Option(parsing: .unconditional, help: "A description.")
    var description: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The discount in percent: 15 sets it, +5 or -2.5 changes it by points.", valueName: "percent"))
    var discount: String?

    @Option(name: .customLong("set-category"), parsing: .unconditional, help: ArgumentHelp("Move to this category (with a PRODUCT, --category does the same).", valueName: "slug"), completion: .shop(.category))
    var setCategory: String?

    @Option(name: .customLong("set-brand"), parsing: .unconditional, help: ArgumentHelp("Set the brand (with a PRODUCT, --brand does the same).", valueName: "brand"))
    var setBrand: String?

    @OptionGroup var details: ProductDetailOptions

    /// The edit, with `category` and `brand` as well when they set rather than select.
    func edit(category: String?, brand: String?) throws -> ProductEdit {
        ProductEdit(sku: sku, title: title, description: description, category: setCategory ?? category,
                    brand: setBrand ?? brand, price: try price.map { try PriceEdit.parse($0, currency: .usd) },
                    discount: try discount.map { try DiscountEdit.parse($0) },
                    stock: try stock.map { text throws(ShopError) in
                        try StockChange.parse(text.first?.isNumber == true ? "=" + text : text)
                    }, barcode: try details.checkedBarcode(), details: try details.edit())
    }
}

extension ProductsCommand {
    /// `products update ID …` or `products update --category C … --price -10%`.
    struct Update: ShellCommand {
        static let operation: ShopOperation? = .updateProduct
        static let configuration = CommandConfiguration(
            abstract: "Change a product's fields, or those of every product a selection picks.",
            discussion: """
                With a PRODUCT, --category and --brand set those fields. Without one, the filters \
                (--category, --brand, --search, --min-price, --max-price, --in-stock, --stock-below, \
                --ids) pick the products, --set-category and --set-brand set them, and the command \
                shows each change (id, sku, title, field, before, after) before it applies them: at \
                the prompt it asks, in a batch a change to more than one product needs --yes, and \
                --dry-run shows the changes only. All of them apply in one transaction, or none (the \
                line names the first product a change cannot apply to), with one change set in the \
                audit log.
                """)

        @Argument(help: "The product's id or SKU (leave out to change a selection).", completion: .shop(.product))
        var product: String?

        @OptionGroup var values: ProductEditOptions
        @OptionGroup var selection: ProductFilterOptions

        @OptionGroup var preview: ChangePreviewOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let services = context.services.products
            if let product {
                let others = selection.selectsSome && (selection.search != nil || selection.minPrice != nil || selection.maxPrice != nil
                                                       || selection.inStock || selection.stockBelow != nil || selection.ids != nil
                                                       || selection.minRating != nil)
                guard !others else { throw ShopError.usage("give a PRODUCT or a selection (filters), not both") }
                let edit = try values.edit(category: selection.category, brand: selection.brand)
                guard !edit.isEmpty else { throw Self.nothingToUpdate }
                let current = try await services.product(product)
                let plan = ProductChangePlan(before: current, changes: try edit.changes(for: current))
                if preview.dryRun {
                    try await BulkProductChange.show([plan], in: context, output: output)
                    return context.note("dry run: nothing was applied")
                }
                _ = try await services.applyProductChanges(plan.changes.isEmpty ? [] : [plan])
                let updated = try await services.product(String(current.id))
                try context.record(columns: ProductRows.columns, row: ProductRows.cells(updated), options: output)
                context.note(plan.changes.isEmpty ? "product \(updated.id) (\(updated.sku)) already had those values"
                                                  : "updated product \(updated.id) (\(updated.sku))")
                return
            }
            guard selection.selectsSome else {
                throw ShopError.usage("products update needs a PRODUCT, or a selection: --category, --brand, --search, --min-price, --max-price, --in-stock, --stock-below or --ids")
            }
            let edit = try values.edit(category: nil, brand: nil)
            guard !edit.isEmpty else { throw Self.nothingToUpdate }
            try await BulkProductChange(edit: edit, filter: try selection.filter(), preview: preview, output: output).run(in: context)
        }

        static let nothingToUpdate = ShopError.usage(
            "nothing to update: give at least one of --title, --price, --stock, --sku, --description, --discount, --set-category, --set-brand, --barcode, --images, --weight, --dimensions, --warranty, --shipping, --return-policy, --availability (with a PRODUCT also --category, --brand)")
    }
}

/// A change to every product a selection picks: pick them, plan the change (ShopCore), show it,
/// ask or not (`proceed`), apply it in one transaction.
struct BulkProductChange {
    var edit: ProductEdit
    var filter: ProductFilter
    var preview: ChangePreviewOptions
    var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let services = context.services.products
        var picked: [Product] = []
        // Descriptions, tags and details are read only for an edit that changes some (a plan
        // compares only the fields it changes); review summaries never.
        var filter = filter
        filter.withLongFields = edit.description != nil || edit.details != ProductDetailEdit()
        filter.withReviewSummary = false
        try await services.listProducts(filter, page: Page(sort: [SortKey(field: "id")])) { picked.append($0) }
        if edit.sku != nil, picked.count > 1 {
            throw ShopError.invalidInput("--sku sets one product's SKU; this selection picks \(picked.count) products")
        }
        if let barcode = edit.barcode, !barcode.isEmpty, picked.count > 1 {
            throw ShopError.invalidInput("--barcode sets one product's barcode; this selection picks \(picked.count) products")
        }
        let plans = try ProductChangePlan.plan(edit, over: picked)
        guard !plans.isEmpty else {
            context.note("nothing to change: \(picked.count) product\(picked.count == 1 ? "" : "s") selected, none would change")
            return
        }
        // Each plan's rows, worked out once (100,000 of them are counted, then shown).
        let rows = plans.map(\.fieldChanges)
        let count = rows.reduce(0) { $0 + $1.count }
        let summary = "\(count) change\(count == 1 ? "" : "s") to \(plans.count) product\(plans.count == 1 ? "" : "s")"
        let decision = try await context.proceed(with: summary, affecting: plans.count, things: "products", preview) {
            try await Self.show(plans, rows: rows, in: context, output: output)
        }
        guard decision.apply else { return }
        let changeSet = try await services.applyProductChanges(plans)
        if !decision.shown { try await Self.show(plans, rows: rows, in: context, output: output) }
        context.note("applied \(summary)" + (changeSet.map { " (change set \($0): audit list --change-set \($0))" } ?? ""))
    }

    /// The changes as rows, one per field: id, sku, title, field, before, after (`rows`: each
    /// plan's `fieldChanges`, when worked out already).
    static func show(_ plans: [ProductChangePlan], rows: [[(field: String, before: String, after: String)]]? = nil,
                     in context: CommandContext, output: OutputOptions) async throws {
        let columns = ["id", "sku", "title", "field", "before", "after"].map(Column.init)
        try await context.list(columns: columns, options: output, page: Page(), emptyNote: "no changes") { emit in
            for (index, plan) in plans.enumerated() {
                for change in rows?[index] ?? plan.fieldChanges {
                    try emit([.integer(plan.before.id), .text(plan.before.sku), .text(plan.before.title),
                              .text(change.field), .text(change.before), .text(change.after)])
                }
            }
        }
    }
}
