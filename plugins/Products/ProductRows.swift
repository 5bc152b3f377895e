// ProductRows: the one place where a product becomes output columns and cells.

import ShopCore
import ShopOutput

/// Columns and cells for products, shared by every products command.
enum ProductRows {
    /// Every field a product listing can show (`--fields` picks among them).
    static let columns = ["id", "sku", "title", "category", "brand", "price", "currency", "discount_percentage",
                          "discounted_price", "stock", "rating", "minimum_order_quantity", "tags", "description"]
        .map(Column.init)

    /// What a listing shows without `--fields`.
    static let listingFields = ["id", "sku", "title", "category", "brand", "price", "currency",
                                "discount_percentage", "stock", "rating"]

    static func cells(_ product: Product) -> [Cell] {
        [.integer(product.id), .text(product.sku), .text(product.title), .text(product.category),
         product.brand.map(Cell.text) ?? .null, .decimal(product.price.amount), .text(product.price.currency.code),
         .decimal(product.discount.decimal), .decimal(product.discountedPrice.amount), .integer(Int64(product.stock)),
         .decimal(product.rating.decimal), .integer(Int64(product.minimumOrderQuantity)), .list(product.tags),
         .text(product.description)]
    }

    static let categoryColumns = [Column("category"), Column("product_count")]

    static func cells(_ category: Category) -> [Cell] {
        [.text(category.slug), .integer(Int64(category.productCount))]
    }
}
