// CompletionSource: live values for Tab completion (users, products, orders, categories,
// currencies), answered from indexed prefix queries with a bounded number of results.

/// Live values a store offers to the completion engine.
///
/// Every method returns at most `limit` values that start with `prefix` (case-insensitively
/// where the column is case-insensitive), in ascending order, and must stay fast on a big shop:
/// an implementation uses indexed range queries, never a scan of a table.
public protocol CompletionSource: Sendable {
    /// Users whose username or email starts with `prefix`: at most `limit` of each kind of
    /// match, each user once, ordered by username.
    func users(prefix: String, limit: Int) async throws -> [UserMatch]
    /// Product ids whose decimal form starts with `prefix` (digits only), with their titles.
    func productIDs(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)]
    /// SKUs starting with `prefix`.
    func skus(prefix: String, limit: Int) async throws -> [String]
    /// Barcodes starting with `prefix` (digits only), with their products' titles.
    func barcodes(prefix: String, limit: Int) async throws -> [(barcode: String, title: String)]
    /// Products whose title holds every word of `prefix` (the last as the start of a word, as
    /// search reads them), by id, with their titles: Tab on a PRODUCT typed as words. Through the
    /// search index, never a scan.
    func productTitles(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)]
    /// Order ids whose decimal form starts with `prefix` (digits only).
    func orderIDs(prefix: String, limit: Int) async throws -> [Int64]
    /// Category slugs starting with `prefix`.
    func categories(prefix: String, limit: Int) async throws -> [String]
    /// Currency codes starting with `prefix` (upper case).
    func currencyCodes(prefix: String, limit: Int) async throws -> [String]
    /// Coupon codes starting with `prefix` (any case; codes are upper case).
    func couponCodes(prefix: String, limit: Int) async throws -> [String]
    /// Operators named in the audit log starting with `prefix`.
    func auditOperators(prefix: String, limit: Int) async throws -> [String]
}

/// A user found by a completion prefix.
public struct UserMatch: Sendable, Equatable {
    public var id: Int64
    public var username: String
    public var email: String

    public init(id: Int64, username: String, email: String) {
        self.id = id
        self.username = username
        self.email = email
    }
}

/// The ranges of positive integers whose decimal form starts with `prefix`: for "12", the
/// ranges 12…12, 120…129, 1200…1299, … up to `maximum`. Empty for a prefix that is not digits
/// or starts with 0 (ids have no leading zeros); for "" the single range 1…maximum.
public func integerPrefixRanges(_ prefix: String, maximum: Int64 = Int64.max) -> [ClosedRange<Int64>] {
    if prefix.isEmpty { return maximum >= 1 ? [1...maximum] : [] }
    guard prefix.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
          prefix.utf8.first != UInt8(ascii: "0"),
          let start = Int64(prefix), start <= maximum else { return [] }
    var ranges: [ClosedRange<Int64>] = []
    var low = start
    var width: Int64 = 1  // how many numbers share this prefix at this length
    while low <= maximum {
        let (span, spanOverflow) = width.subtractingReportingOverflow(1)
        let (high, highOverflow) = low.addingReportingOverflow(span)
        let upper = spanOverflow || highOverflow ? maximum : min(high, maximum)
        ranges.append(low...upper)
        let (nextLow, lowOverflow) = low.multipliedReportingOverflow(by: 10)
        let (nextWidth, widthOverflow) = width.multipliedReportingOverflow(by: 10)
        if lowOverflow || widthOverflow { break }
        low = nextLow
        width = nextWidth
    }
    return ranges
}
