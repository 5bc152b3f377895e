// ProductColumns: the columns both stores read for a product, in the order their row decoding
// expects — written once, for SQLite and PostgreSQL alike (their tables have the same columns,
// and both keep reviews in `reviews`, whose key is `review_id` so that an unqualified `id` in its
// subqueries is always the product's).

import ShopCore

/// The `SELECT` list of a product row.
public enum ProductColumns {
    /// Every column of a product row (constant SQL).
    public static let all = list(withLongFields: true, withReviews: true, alias: nil)

    /// The columns of a product row for `filter`: with its description, tags and details, and its
    /// review summary, as empty values when the listing does not need them
    /// (`ProductFilter.withLongFields`, `.withReviewSummary`), so the store neither reads, sends
    /// nor decodes them. Constant SQL.
    public static func list(for filter: ProductFilter) -> String {
        list(withLongFields: filter.withLongFields, withReviews: filter.withReviewSummary, alias: nil)
    }

    /// Every column of a product row, each prefixed with a table's alias (`p.id, p.sku, …`).
    public static func all(alias: String) -> String { list(withLongFields: true, withReviews: true, alias: alias) }

    /// How many visible reviews the product of the row has (`id`: its id column), and their
    /// ratings' total: the review summary, as both stores sort and read it.
    public static func reviewCount(id: String = "id") -> String {
        "(SELECT count(*) FROM reviews WHERE product_id = \(id) AND hidden_reason IS NULL)"
    }

    public static func reviewTotal(id: String = "id") -> String {
        "(SELECT COALESCE(sum(rating), 0) FROM reviews WHERE product_id = \(id) AND hidden_reason IS NULL)"
    }

    private static func list(withLongFields long: Bool, withReviews: Bool, alias: String?) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        // No alias for the empty text: `ORDER BY description` must still sort by the column.
        let description = long ? prefix + "description" : "''"
        let tags = long ? prefix + "tags" : "''"
        let details = long ? prefix + "details" : "''"
        let reviews = withReviews ? "\(reviewCount(id: prefix + "id")), \(reviewTotal(id: prefix + "id"))" : "0, 0"
        return ["id", "sku", "title"].map { prefix + $0 }.joined(separator: ", ") + ", \(description), "
            + ["category", "brand", "price_minor", "discount_hundredths", "stock", "rating_hundredths"].map { prefix + $0 }
                .joined(separator: ", ")
            + ", \(tags), \(prefix)minimum_order_quantity, \(prefix)barcode, \(details), \(reviews)"
    }
}
