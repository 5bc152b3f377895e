// ProductService: the catalogue, as every store provides it.

/// The product catalogue. PRODUCT references are an id, a SKU or a barcode (12 or 13 digits).
public protocol ProductService: Sendable {
    /// Calls `body` for each product that passes `filter`, in `page` order, streaming:
    /// a store never holds the whole listing in memory.
    func listProducts(_ filter: ProductFilter, page: Page, _ body: (Product) throws -> Void) async throws
    /// Ranked search (ProductSearch): calls `body` for each product that passes `filter` and
    /// matches every word of `text` (the last as a prefix; typos when the words as typed find
    /// nothing), best first, or in `page.sort`'s order when it names one, with its score.
    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws
    /// Words of the catalogue close to those of `text`, for a search that found nothing.
    func searchSuggestions(_ text: String) async throws -> [String]
    /// How many products pass `filter`.
    func countProducts(_ filter: ProductFilter) async throws -> Int
    /// The product with this id, SKU or barcode (with its review summary); `ProductRules.noProduct` otherwise.
    func product(_ reference: String) async throws -> Product
    /// Every category with its product count, by slug.
    func categories() async throws -> [Category]
    /// Adds a product; the SKU must be unique (one is made up from the category and id if absent).
    func addProduct(_ product: NewProduct) async throws -> Product
    /// Applies `changes` to one product and returns it as stored.
    func updateProduct(_ reference: String, _ changes: ProductChanges) async throws -> Product
    /// Applies every plan in one transaction, all or nothing: each product must still hold the
    /// values its plan was made from (`ProductChangePlan.checkUnchanged`). The audit rows share one
    /// change set, which is returned (nil when `plans` is empty).
    func applyProductChanges(_ plans: [ProductChangePlan]) async throws -> Int64?
    /// Deletes a product (and its basket and favourite lines; orders keep their copies).
    func deleteProduct(_ reference: String) async throws -> Product
    /// Adjusts stock; it never goes below zero (`-N` beyond the stock is refused).
    func adjustStock(_ reference: String, _ change: StockChange, reason: StockReason, note: String?) async throws -> Product
    /// The product's stock ledger, oldest first (StockLedger).
    func stockHistory(_ reference: String) async throws -> [StockMovement]
    /// Inserts or updates (matched by SKU) all `products` in one transaction: all or nothing. A
    /// product it adds gets its reviews; one it updates keeps those it has.
    func importProducts(_ products: [NewProduct]) async throws -> ImportSummary
}

/// Field names every store sorts a product listing by (they match the output's keys); the
/// store contract checks each, ascending and descending.
public enum ProductSortField {
    public static let all = ["id", "sku", "title", "category", "brand", "price", "discount_percentage",
                             "stock", "rating", "barcode", "review_count", "reviews"]
}

extension ProductService {
    /// A stock change an operator makes without saying why: a correction.
    public func adjustStock(_ reference: String, _ change: StockChange) async throws -> Product {
        try await adjustStock(reference, change, reason: .correction, note: nil)
    }
}
