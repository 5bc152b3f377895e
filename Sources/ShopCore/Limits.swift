// Limits: ranges that ShopCore checks and that stores and importers share, kept in one place.

/// The range of product ids the shop accepts.
public enum ProductLimits {
    /// The largest product id: 2^53 − 1 (9 007 199 254 740 991), the largest integer a
    /// JSON consumer that reads numbers as IEEE doubles (JavaScript, jq) still holds exactly.
    public static let maxID: Int64 = 9_007_199_254_740_991

    /// Every valid product id: 1 through ``maxID``.
    public static let idRange: ClosedRange<Int64> = 1...maxID
}
