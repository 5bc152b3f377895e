// ProductRows: the one place where a product becomes output columns and cells.

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// Columns and cells for products, shared by every products command.
enum ProductRows {
    /// Every field a product listing can show (`--fields` picks among them).
    static let columns = ["id", "sku", "title", "category", "brand", "price", "currency", "discount_percentage",
                          "discounted_price", "stock", "rating", "minimum_order_quantity", "tags", "description"]
        .map(Column.init)

    /// What a listing shows without `--fields`.
    static let listingFields = ["id", "sku", "title", "category", "brand", "price", "currency",
                                "discount_percentage", "stock", "rating"]

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
         .text(product.description)] + display.extraCells
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
