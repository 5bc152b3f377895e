// Limits: the ranges ids, prices, stock and quantities are kept in, so that no arithmetic on
// them can overflow: every total the shop computes stays far inside 64-bit integers by construction.

/// The catalogue's ranges, checked wherever a product is added, imported or changed.
public enum ProductLimits {
    /// The largest product id: 2^53 − 1 (9 007 199 254 740 991), the largest integer a JSON
    /// reader that holds numbers as doubles (jq, JavaScript) still keeps exact.
    public static let maxID: Int64 = 9_007_199_254_740_991

    /// Every valid product id: 1 through ``maxID``.
    public static let idRange: ClosedRange<Int64> = 1...maxID

    /// The highest price: 1,000,000,000.00 in the base currency (two-digit minor units).
    public static let maxPriceMinorUnits: Int64 = 100_000_000_000

    /// The highest stock of one product.
    public static let maxStock = 1_000_000_000

    // The longest texts, in Unicode scalars (at most 4 bytes of UTF-8 each): the same on every
    // store, and a title or category stays far inside what a PostgreSQL index row may hold.

    /// The longest title.
    public static let maxTitleLength = 300
    /// The longest description.
    public static let maxDescriptionLength = 10_000
    /// The longest category slug.
    public static let maxCategoryLength = 100
    /// The longest brand.
    public static let maxBrandLength = 100
    /// The longest tag.
    public static let maxTagLength = 50
    /// The most tags of one product.
    public static let maxTags = 50
}

/// The baskets' ranges. With `ProductLimits.maxPriceMinorUnits` they bound a line's total to
/// 10^15 minor units, and a basket of `maxLines` lines to 10^18, below Int64's 9.2 × 10^18.
public enum BasketLimits {
    /// Quantities of one line are whole numbers from 1 to this.
    public static let maxQuantity = 10_000

    /// The most distinct products one basket may hold.
    public static let maxLines = 1_000
}
