// ProductRows: the one place where a product becomes output columns and cells.

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// Columns and cells for products, shared by every products command.
enum ProductRows {
    /// Every field a product listing can show (`--fields` picks among them).
    static let columns = (["id", "sku", "title", "category", "brand", "price", "currency", "discount_percentage",
                           "discounted_price", "stock", "rating", "minimum_order_quantity", "tags", "description"]
                          + detailFields + reviewFields).map(Column.init)

    /// The catalogue's details: every format carries them, and an import reads them back.
    static let detailFields = ["barcode", "availability", "weight", "width", "height", "depth", "warranty", "shipping",
                               "return_policy", "images"]

    /// The visible reviews' count and mean: `products show` has them; a listing with `--fields`.
    static let reviewFields = ["review_count", "review_mean"]

    /// Fields the store reads only when they are shown (ProductFilter.withLongFields; the review
    /// fields: .withReviewSummary).
    static let longFields: Set<String> = Set(["description", "tags"] + detailFields)

    /// What a listing shows without `--fields`: what `products import` reads back, so that a
    /// listing imported into an empty store lists the same.
    static let listingFields = ["id", "sku", "title", "category", "brand", "price", "currency",
                                "discount_percentage", "stock", "rating"] + detailFields

    /// What a table shows for people: what a product is, what it costs and whether it is in stock;
    /// category, brand, discount and rating while they fit.
    static let tableView = TableView(["id", "sku", "title", "category", "brand", "price", "currency", "discount_percentage",
                                      "stock", "rating"],
                                     optional: ["category", "brand", "discount_percentage", "rating"])

    /// The columns with money shown through `display` (adds `rate_date` when converting), and a
    /// search's `score` (not shown unless `--fields` names it).
    static func columns(_ display: MoneyDisplay, searching: Bool = false) -> [Column] {
        columns + display.extraColumns + (searching ? [Column("score")] : [])
    }

    /// The default listing fields for `display`.
    static func listingFields(_ display: MoneyDisplay) -> [String] { listingFields + display.extraColumns.map(\.key) }

    static func cells(_ product: Product, _ display: MoneyDisplay = .asStored) throws(ShopError) -> [Cell] {
        [.integer(product.id), .text(product.sku), .text(product.title), .text(product.category),
         product.brand.map(Cell.text) ?? .null, try display.cell(product.price), .text(display.code(product.price)),
         .decimal(product.discount.decimal), try display.cell(product.discountedPrice), .integer(Int64(product.stock)),
         .decimal(product.rating.decimal), .integer(Int64(product.minimumOrderQuantity)), .list(product.tags),
         .text(product.description)] + detailCells(product) + display.extraCells
    }

    /// The detail and review cells, in `detailFields` and `reviewFields` order.
    static func detailCells(_ product: Product) -> [Cell] {
        let details = product.details
        func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
        func number(_ value: ExactDecimal?) -> Cell { value.map(Cell.decimal) ?? .null }
        return [text(product.barcode), text(details.availability), number(details.weight), number(details.dimensions?.width),
                number(details.dimensions?.height), number(details.dimensions?.depth), text(details.warranty),
                text(details.shipping), text(details.returnPolicy), .list(details.images),
                .integer(Int64(product.reviews.count)), number(product.reviews.mean)]
    }

    /// A search's product with its score.
    static func cells(_ found: ProductSearch.Found, _ display: MoneyDisplay) throws(ShopError) -> [Cell] {
        try cells(found.product, display) + [.integer(Int64(found.score))]
    }

    static let categoryColumns = [Column("category"), Column("product_count")]

    static func cells(_ category: Category) -> [Cell] {
        [.text(category.slug), .integer(Int64(category.productCount))]
    }
}
