// PostgresCompletionSource: live completion values from indexed prefix queries with a LIMIT —
// byte-order ranges (`COLLATE "C"`) on the indexes of migration 2, and id ranges on primary keys.

import Logging
import PostgresNIO
import ShopCore

/// `CompletionSource` on a PostgreSQL server. Each query is a range search on an index, in the
/// order SQLite's completion source answers: text `prefix <= value < prefix + U+10FFFF` by byte
/// (without regard to case where the column is case-insensitive), ids by the ranges of
/// `integerPrefixRanges`, categories by one index seek per distinct category.
struct PostgresCompletionSource: CompletionSource {
    let database: PostgresDatabase

    /// Appended to a prefix, the exclusive upper end of the strings that start with it.
    static let upperEnd = "\u{10FFFF}"

    // MARK: - Queries (range searches on indexes; the server tests check their plans)

    /// Users whose username starts with `prefix` (any case), by username; from `users_masked`
    /// for a viewer (`masked`).
    static func usernameQuery(_ prefix: String, limit: Int, masked: Bool = false) -> PostgresQuery {
        """
        SELECT id, username, email FROM \(unescaped: masked ? "users_masked" : "users")
        WHERE lower(username) COLLATE "C" >= lower(\(prefix)) AND lower(username) COLLATE "C" < lower(\(prefix)) || \(upperEnd)
        ORDER BY lower(username) COLLATE "C" LIMIT \(limit)
        """
    }

    /// Users whose email starts with `prefix` (any case), by email.
    static func emailQuery(_ prefix: String, limit: Int) -> PostgresQuery {
        """
        SELECT id, username, email FROM users
        WHERE lower(email) COLLATE "C" >= lower(\(prefix)) AND lower(email) COLLATE "C" < lower(\(prefix)) || \(upperEnd)
        ORDER BY lower(email) COLLATE "C" LIMIT \(limit)
        """
    }

    /// SKUs starting with `prefix` (any case, as SKUs are unique), by SKU.
    static func skuQuery(_ prefix: String, limit: Int) -> PostgresQuery {
        """
        SELECT sku FROM products
        WHERE lower(sku) COLLATE "C" >= lower(\(prefix)) AND lower(sku) COLLATE "C" < lower(\(prefix)) || \(upperEnd)
        ORDER BY lower(sku) COLLATE "C" LIMIT \(limit)
        """
    }

    /// Products with ids in one range of the prefix (12, 120…129, 1200…1299, …).
    static func productRangeQuery(_ range: ClosedRange<Int64>, limit: Int) -> PostgresQuery {
        "SELECT id, title FROM products WHERE id BETWEEN \(range.lowerBound) AND \(range.upperBound) ORDER BY id LIMIT \(limit)"
    }

    /// Orders with ids in one range of the prefix.
    static func orderRangeQuery(_ range: ClosedRange<Int64>, limit: Int) -> PostgresQuery {
        "SELECT id FROM orders WHERE id BETWEEN \(range.lowerBound) AND \(range.upperBound) ORDER BY id LIMIT \(limit)"
    }

    /// The first category at or after `text` (`inclusive`) or after it: one index seek.
    static func nextCategoryQuery(after text: String, inclusive: Bool) -> PostgresQuery {
        inclusive
            ? "SELECT category FROM products WHERE category COLLATE \"C\" >= \(text) ORDER BY category COLLATE \"C\" LIMIT 1"
            : "SELECT category FROM products WHERE category COLLATE \"C\" > \(text) ORDER BY category COLLATE \"C\" LIMIT 1"
    }

    /// Currency codes starting with `prefix` (upper case already).
    static func currencyQuery(_ prefix: String, limit: Int) -> PostgresQuery {
        """
        SELECT code FROM currencies
        WHERE code COLLATE "C" >= \(prefix) AND code COLLATE "C" < \(prefix + upperEnd)
        ORDER BY code COLLATE "C" LIMIT \(limit)
        """
    }

    static let maxProductQuery: PostgresQuery = "SELECT max(id) FROM products"
    static let maxOrderQuery: PostgresQuery = "SELECT max(id) FROM orders"

    // MARK: - CompletionSource

    func users(prefix: String, limit: Int) async throws -> [UserMatch] {
        guard limit > 0 else { return [] }
        return try await database.read("completing users") { connection in
            let logger = database.logger
            var seen = Set<Int64>()
            var found: [UserMatch] = []
            // A viewer completes usernames only: the emails it may read are masked.
            let masked = database.session.readsMaskedUsers
            let byUsername = try await connection.query(Self.usernameQuery(prefix, limit: limit, masked: masked), logger: logger)
            for try await row in byUsername.decode((Int64, String, String).self) where seen.insert(row.0).inserted {
                found.append(UserMatch(id: row.0, username: row.1, email: row.2))
            }
            if masked { return found.sorted { $0.username.lowercased() < $1.username.lowercased() } }
            let byEmail = try await connection.query(Self.emailQuery(prefix, limit: limit), logger: logger)
            for try await row in byEmail.decode((Int64, String, String).self) where seen.insert(row.0).inserted {
                found.append(UserMatch(id: row.0, username: row.1, email: row.2))
            }
            return found.sorted { $0.username.lowercased() < $1.username.lowercased() }
        }
    }

    func productIDs(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        guard limit > 0 else { return [] }
        return try await database.read("completing product ids") { connection in
            let logger = database.logger
            guard let maximum = try await Self.maximum(connection, Self.maxProductQuery, logger: logger) else { return [] }
            var found: [(id: Int64, title: String)] = []
            for range in integerPrefixRanges(prefix, maximum: maximum) where found.count < limit {
                let rows = try await connection.query(Self.productRangeQuery(range, limit: limit - found.count), logger: logger)
                for try await (id, title) in rows.decode((Int64, String).self) {
                    found.append((id, title))
                }
            }
            return found
        }
    }

    func skus(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        return try await database.read("completing SKUs") { connection in
            try await Self.strings(connection.query(Self.skuQuery(prefix, limit: limit), logger: database.logger))
        }
    }

    func barcodes(prefix: String, limit: Int) async throws -> [(barcode: String, title: String)] {
        guard limit > 0 else { return [] }
        return try await database.read("completing barcodes") { connection in
            var found: [(barcode: String, title: String)] = []
            for try await row in try await connection.query("""
                SELECT barcode, title FROM products
                WHERE barcode COLLATE "C" >= \(prefix) AND barcode COLLATE "C" < \(prefix) || \(Self.upperEnd)
                ORDER BY barcode COLLATE "C" LIMIT \(limit)
                """, logger: database.logger).decode((String, String).self) {
                found.append(row)
            }
            return found
        }
    }

    func productTitles(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        let words = SearchText.words(in: prefix)
        guard limit > 0, !words.isEmpty else { return [] }
        let titleWords = words.enumerated().map { index, word in ([word], index == words.count - 1) }
        return try await PostgresProductService.titleMatches(database, words: titleWords, limit: limit,
                                                             parts: .init(ProductFilter(), search: nil))
            .map { ($0.id, $0.title) }
    }

    func orderIDs(prefix: String, limit: Int) async throws -> [Int64] {
        guard limit > 0 else { return [] }
        return try await database.read("completing order ids") { connection in
            let logger = database.logger
            guard let maximum = try await Self.maximum(connection, Self.maxOrderQuery, logger: logger) else { return [] }
            var found: [Int64] = []
            for range in integerPrefixRanges(prefix, maximum: maximum) where found.count < limit {
                let rows = try await connection.query(Self.orderRangeQuery(range, limit: limit - found.count), logger: logger)
                for try await id in rows.decode(Int64.self) { found.append(id) }
            }
            return found
        }
    }

    func categories(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        return try await database.read("completing categories") { connection in
            let logger = database.logger
            var found: [String] = []
            var next = try await Self.strings(connection.query(Self.nextCategoryQuery(after: prefix, inclusive: true),
                                                               logger: logger)).first
            // One index seek per distinct category, never a scan of the products.
            while let category = next, category.hasPrefix(prefix), found.count < limit {
                found.append(category)
                next = try await Self.strings(connection.query(Self.nextCategoryQuery(after: category, inclusive: false),
                                                               logger: logger)).first
            }
            return found
        }
    }

    func currencyCodes(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        let upper = prefix.uppercased()
        return try await database.read("completing currency codes") { connection in
            try await Self.strings(connection.query(Self.currencyQuery(upper, limit: limit), logger: database.logger))
        }
    }

    /// Coupon codes (upper case) starting with `prefix`, through coupons_code_prefix.
    func couponCodes(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        let upper = prefix.uppercased()
        let query: PostgresQuery = """
            SELECT code FROM coupons
            WHERE code COLLATE "C" >= \(upper) AND code COLLATE "C" < \(upper + Self.upperEnd)
            ORDER BY code COLLATE "C" LIMIT \(limit)
            """
        return try await database.read("completing coupon codes") { connection in
            try await Self.strings(connection.query(query, logger: database.logger))
        }
    }

    /// From the masking view, which every shopsh role may read (the operator column is not masked).
    func auditOperators(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        let query: PostgresQuery = """
            SELECT DISTINCT operator FROM audit_log_masked
            WHERE operator COLLATE "C" >= \(prefix) AND operator COLLATE "C" < \(prefix + Self.upperEnd)
            ORDER BY operator LIMIT \(limit)
            """
        return try await database.read("completing operators") { connection in
            try await Self.strings(connection.query(query, logger: database.logger))
        }
    }

    // MARK: - Helpers

    /// Every value of a one-column text result.
    private static func strings(_ rows: PostgresRowSequence) async throws -> [String] {
        var values: [String] = []
        for try await value in rows.decode(String.self) { values.append(value) }
        return values
    }

    /// The value of a `SELECT max(id) …` (one index seek); nil on an empty table.
    private static func maximum(_ connection: PostgresConnection, _ sql: PostgresQuery, logger: Logger) async throws -> Int64? {
        for try await value in try await connection.query(sql, logger: logger).decode(Int64?.self) { return value }
        return nil
    }
}
