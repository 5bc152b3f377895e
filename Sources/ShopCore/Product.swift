// Product and Category: the catalogue's domain types.

/// A product in the catalogue. Prices are in the shop's base currency.
public struct Product: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var sku: String
    public var title: String
    public var description: String
    public var category: String
    public var brand: String?
    public var price: Money
    public var discount: Percentage
    public var stock: Int
    public var rating: Rating
    public var tags: [String]
    /// DummyJSON's minimum order quantity: shown, not enforced.
    public var minimumOrderQuantity: Int
    /// The barcode as stored (Barcode): 13 digits; nil when it has none.
    public var barcode: String?
    /// Images, weight and dimensions, warranty, shipping, return policy, availability.
    public var details: ProductDetails
    /// Its visible reviews' count and rating total.
    public var reviews: ReviewSummary

    public init(id: Int64, sku: String, title: String, description: String = "", category: String,
                brand: String? = nil, price: Money, discount: Percentage = .zero, stock: Int = 0,
                rating: Rating = Rating(hundredths: 0), tags: [String] = [], minimumOrderQuantity: Int = 1,
                barcode: String? = nil, details: ProductDetails = ProductDetails(), reviews: ReviewSummary = .none) {
        self.id = id
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.brand = brand
        self.price = price
        self.discount = discount
        self.stock = stock
        self.rating = rating
        self.tags = tags
        self.minimumOrderQuantity = minimumOrderQuantity
        self.barcode = barcode
        self.details = details
        self.reviews = reviews
    }

    /// The price after the product's discount, rounded once to the minor unit.
    public var discountedPrice: Money { price.discounted(by: discount) }
}

/// A new product as an operator describes it; the store assigns the id (and a SKU if none is given).
public struct NewProduct: Hashable, Sendable {
    /// The id to use if it is free (imports keep a file's ids); nil lets the store choose.
    public var id: Int64?
    public var sku: String?
    public var title: String
    public var description: String
    public var category: String
    public var brand: String?
    public var price: Money
    public var discount: Percentage
    public var stock: Int
    public var rating: Rating
    public var tags: [String]
    public var minimumOrderQuantity: Int
    /// The stored form (Barcode.parse, or parseShape for a file's).
    public var barcode: String?
    public var details: ProductDetails
    /// Its reviews (a file's; a store adds them with the product).
    public var reviews: [NewReview]

    public init(id: Int64? = nil, sku: String? = nil, title: String, description: String = "", category: String,
                brand: String? = nil, price: Money, discount: Percentage = .zero, stock: Int = 0,
                rating: Rating = Rating(hundredths: 0), tags: [String] = [], minimumOrderQuantity: Int = 1,
                barcode: String? = nil, details: ProductDetails = ProductDetails(), reviews: [NewReview] = []) {
        self.id = id
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.brand = brand
        self.price = price
        self.discount = discount
        self.stock = stock
        self.rating = rating
        self.tags = tags
        self.minimumOrderQuantity = minimumOrderQuantity
        self.barcode = barcode
        self.details = details
        self.reviews = reviews
    }
}

/// Changes to a product: nil fields stay as they are.
public struct ProductChanges: Hashable, Sendable {
    public var sku: String?
    public var title: String?
    public var description: String?
    public var category: String?
    public var brand: String?
    public var price: Money?
    public var discount: Percentage?
    public var stock: Int?
    /// The stored form; empty clears it.
    public var barcode: String?
    /// Every detail at once (an edit works out the whole from the product's and its options).
    public var details: ProductDetails?

    public init(sku: String? = nil, title: String? = nil, description: String? = nil, category: String? = nil,
                brand: String? = nil, price: Money? = nil, discount: Percentage? = nil, stock: Int? = nil,
                barcode: String? = nil, details: ProductDetails? = nil) {
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.brand = brand
        self.price = price
        self.discount = discount
        self.stock = stock
        self.barcode = barcode
        self.details = details
    }

    public var isEmpty: Bool { self == ProductChanges() }

    /// `product` with these changes made, as the stores make them: a field left nil stays, an
    /// empty brand or barcode clears it.
    public func applied(to product: Product) -> Product {
        var changed = product
        if let sku { changed.sku = sku }
        if let title { changed.title = title }
        if let description { changed.description = description }
        if let category { changed.category = category }
        if let brand { changed.brand = brand.isEmpty ? nil : brand }
        if let price { changed.price = price }
        if let discount { changed.discount = discount }
        if let stock { changed.stock = stock }
        if let barcode { changed.barcode = barcode.isEmpty ? nil : barcode }
        if let details { changed.details = details }
        return changed
    }
}

/// A category: a slug and how many products carry it.
public struct Category: Hashable, Sendable {
    public var slug: String
    public var productCount: Int

    public init(slug: String, productCount: Int) {
        self.slug = slug
        self.productCount = productCount
    }
}

/// Which products a listing shows.
public struct ProductFilter: Hashable, Sendable {
    public var category: String?
    /// Search text, as `products search` reads it (`SearchCondition`): the product whose id or
    /// SKU it is, and those holding every word in a searched field.
    public var search: String?
    public var minPrice: Money?
    public var maxPrice: Money?
    public var inStockOnly: Bool
    /// Only this brand (any case).
    public var brand: String?
    /// Only products with less stock than this.
    public var stockBelow: Int?
    /// Only products whose id is in one of these ranges (`--ids 1,2,5-9`).
    public var ids: [ClosedRange<Int64>]?
    /// Only products the catalogue rates at least this (`--min-rating`).
    public var minRating: Rating?
    /// Whether the listing needs each product's long fields: description, tags and details.
    /// False: the store leaves them out (they come back empty), so a listing that does not show
    /// them reads and decodes a third less. Filters and sorting on them work the same.
    public var withLongFields: Bool
    /// Whether the listing needs each product's review summary (two subqueries a row). False: it
    /// comes back as none; sorting by it works the same.
    public var withReviewSummary: Bool

    public init(category: String? = nil, search: String? = nil, minPrice: Money? = nil,
                maxPrice: Money? = nil, inStockOnly: Bool = false, brand: String? = nil, stockBelow: Int? = nil,
                ids: [ClosedRange<Int64>]? = nil, minRating: Rating? = nil, withLongFields: Bool = true,
                withReviewSummary: Bool = true) {
        self.category = category
        self.search = search
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.inStockOnly = inStockOnly
        self.brand = brand
        self.stockBelow = stockBelow
        self.ids = ids
        self.minRating = minRating
        self.withLongFields = withLongFields
        self.withReviewSummary = withReviewSummary
    }

    /// The most ranges `--ids` may name.
    public static let maxIDRanges = 1_000

    /// Parses `--ids`: ids and ranges separated by commas (`1,2,5-9`), each within the product
    /// id bounds, a range's start not after its end.
    public static func parseIDs(_ text: String) throws(ShopError) -> [ClosedRange<Int64>] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxIDRanges else {
            throw .invalidInput("too many ids and ranges in --ids: \(parts.count), at most \(maxIDRanges)")
        }
        var ranges: [ClosedRange<Int64>] = []
        for part in parts {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = ends.map { $0.allSatisfy(\.isASCII) ? Int64($0) : nil }
            guard (1...2).contains(numbers.count), let low = numbers.first ?? nil, let high = numbers.last ?? nil,
                  ProductLimits.idRange.contains(low), ProductLimits.idRange.contains(high), low <= high else {
                throw .invalidInput("invalid --ids \(text.quotedForMessage()): expected ids and ranges like 1,2,5-9")
            }
            ranges.append(low...high)
        }
        return ranges
    }

    /// The same filter reading every field (a search's score needs them all).
    public var withEveryField: ProductFilter {
        var filter = self
        filter.withLongFields = true
        filter.withReviewSummary = true
        return filter
    }
}

/// A stock adjustment: `+N`, `-N` or `=N`.
public enum StockChange: Hashable, Sendable {
    case add(Int)
    case remove(Int)
    case set(Int)

    /// Parses `+5`, `-3` or `=10`.
    public static func parse(_ text: String) throws(ShopError) -> StockChange {
        let body = String(text.dropFirst())
        guard let first = text.first, let amount = Int(body), amount >= 0, amount <= ProductLimits.maxStock,
              body.allSatisfy(\.isASCII), body.first != "+", body.first != "-" else {
            throw .invalidInput("invalid stock change \"\(text)\": expected +N, -N or =N with a whole number N")
        }
        switch first {
        case "+": return .add(amount)
        case "-": return .remove(amount)
        case "=": return .set(amount)
        default: throw .invalidInput("invalid stock change \"\(text)\": expected +N, -N or =N with a whole number N")
        }
    }
}

extension StockChange {
    /// The stock `product` has after this change. Amounts are whole numbers from 0 to
    /// `ProductLimits.maxStock`, and so is the result; taking more than there is is a conflict.
    public func applied(to product: Product) throws(ShopError) -> Int {
        let amount: Int
        switch self {
        case .add(let value), .remove(let value), .set(let value): amount = value
        }
        guard (0...ProductLimits.maxStock).contains(amount) else {
            throw .invalidInput("invalid stock change \(amount): expected a whole number from 0 to \(ProductLimits.maxStock)")
        }
        let result: Int
        switch self {
        case .add: result = product.stock + amount
        case .set: result = amount
        case .remove:
            guard amount <= product.stock else {
                throw .conflict("cannot remove \(amount) from product \(product.id) (\(product.sku)): only \(product.stock) in stock")
            }
            result = product.stock - amount
        }
        guard result <= ProductLimits.maxStock else { throw .invalidInput("stock would exceed \(ProductLimits.maxStock)") }
        return result
    }
}

/// The outcome of importing a file of products.
public struct ImportSummary: Hashable, Sendable {
    public var inserted: Int
    public var updated: Int

    public init(inserted: Int, updated: Int) {
        self.inserted = inserted
        self.updated = updated
    }
}
