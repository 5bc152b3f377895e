// ProductColumns: the columns both stores read for a product, in the order their row decoding
// expects — written once, for SQLite and PostgreSQL alike (their tables have the same columns).

import ShopCore

/// The `SELECT` list of a product row.
public enum ProductColumns {
    /// Every column of a product row (constant SQL).
    public static let all = list(withDescriptionAndTags: true)

    /// The columns of a product row for `filter`: with its description and tags as empty text
    /// when the listing does not need them (`ProductFilter.withDescriptionAndTags`), so the store
    /// neither sends nor decodes them. Constant SQL.
    public static func list(for filter: ProductFilter) -> String {
        filter.withDescriptionAndTags ? all : list(withDescriptionAndTags: false)
    }

    /// Every column of a product row, each prefixed with a table's alias (`p.id, p.sku, …`).
    public static func all(alias: String) -> String {
        all.split(separator: ",").map { "\(alias)." + $0.filter { !$0.isWhitespace } }.joined(separator: ", ")
    }

    private static func list(withDescriptionAndTags: Bool) -> String {
        // No alias for the empty text: `ORDER BY description` must still sort by the column.
        let description = withDescriptionAndTags ? "description" : "''"
        let tags = withDescriptionAndTags ? "tags" : "''"
        return "id, sku, title, \(description), category, brand, price_minor, discount_hundredths, stock, "
            + "rating_hundredths, \(tags), minimum_order_quantity"
    }
}
