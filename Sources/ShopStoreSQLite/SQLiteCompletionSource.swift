// SQLiteCompletionSource: live completion values from indexed prefix queries with a LIMIT.

import GRDB
import ShopCore

/// `CompletionSource` on a SQLite store. Each query is a range search on an index (see the
/// SQL constants; the store tests check their query plans), so it stays instant on a big shop.
struct SQLiteCompletionSource: CompletionSource {
    let database: DatabaseQueue

    // MARK: - SQL (range searches on indexes)

    /// Text ranges: `?1 <= column < ?2` in the column's collation; `?3` is the limit.
    static let usernameSQL = "SELECT id, username, email FROM users WHERE username >= ? AND username < ? ORDER BY username LIMIT ?"
    static let emailSQL = "SELECT id, username, email FROM users WHERE email >= ? AND email < ? ORDER BY email LIMIT ?"
    static let skuSQL = "SELECT sku FROM products WHERE sku >= ? AND sku < ? ORDER BY sku LIMIT ?"
    static let barcodeSQL = "SELECT barcode, title FROM products WHERE barcode >= ? AND barcode < ? ORDER BY barcode LIMIT ?"
    static let currencySQL = "SELECT code FROM currencies WHERE code >= ? AND code < ? ORDER BY code LIMIT ?"
    static let couponSQL = "SELECT code FROM coupons WHERE code >= ? AND code < ? ORDER BY code LIMIT ?"
    /// One id range of the prefix (12, 120…129, 1200…1299, …).
    static let productRangeSQL = "SELECT id, title FROM products WHERE id BETWEEN ? AND ? ORDER BY id LIMIT ?"
    static let orderRangeSQL = "SELECT id FROM orders WHERE id BETWEEN ? AND ? ORDER BY id LIMIT ?"
    static let maxProductSQL = "SELECT max(id) FROM products"
    static let maxOrderSQL = "SELECT max(id) FROM orders"
    /// The next distinct category after `?` (one seek in products_by_category per category).
    static let nextCategorySQL = "SELECT category FROM products WHERE category > ? ORDER BY category LIMIT 1"
    static let firstCategorySQL = "SELECT category FROM products WHERE category >= ? ORDER BY category LIMIT 1"

    /// The exclusive upper end of the range of strings starting with `prefix`.
    static func upperBound(_ prefix: String) -> String { prefix + "\u{10FFFF}" }

    // MARK: - CompletionSource

    func users(prefix: String, limit: Int) async throws -> [UserMatch] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            var seen = Set<Int64>()
            var found: [UserMatch] = []
            for sql in [Self.usernameSQL, Self.emailSQL] {
                for row in try Row.fetchAll(db, sql: sql, arguments: [prefix, Self.upperBound(prefix), limit]) {
                    let match = UserMatch(id: row[0], username: row[1], email: row[2])
                    if seen.insert(match.id).inserted { found.append(match) }
                }
            }
            return found.sorted { $0.username.lowercased() < $1.username.lowercased() }
        }
    }

    func skus(prefix: String, limit: Int) async throws -> [String] {
        try textRange(Self.skuSQL, prefix: prefix, limit: limit)
    }

    func barcodes(prefix: String, limit: Int) async throws -> [(barcode: String, title: String)] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            try Row.fetchAll(db, sql: Self.barcodeSQL, arguments: [prefix, Self.upperBound(prefix), limit]).map { ($0[0], $0[1]) }
        }
    }

    func productTitles(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        let words = SearchText.words(in: prefix)
        guard limit > 0, !words.isEmpty else { return [] }
        // The title column of the search index (migration v5); in rowid order, so LIMIT stops early.
        let match = "title : (" + words.enumerated().map { index, word in
            "\"" + word + "\"" + (index == words.count - 1 ? " *" : "")
        }.joined(separator: " AND ") + ")"
        return try database.shopRead { db in
            try Row.fetchAll(db.cachedStatement(sql: Self.titleSQL), arguments: [match, limit]).map { ($0[0], $0[1]) }
        }
    }

    static let titleSQL = "SELECT rowid, title FROM products_search WHERE products_search MATCH ? ORDER BY rowid LIMIT ?"

    func currencyCodes(prefix: String, limit: Int) async throws -> [String] {
        try textRange(Self.currencySQL, prefix: prefix.uppercased(), limit: limit)
    }

    func couponCodes(prefix: String, limit: Int) async throws -> [String] {
        try textRange(Self.couponSQL, prefix: prefix.uppercased(), limit: limit)
    }

    func productIDs(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            guard let maximum = try Int64.fetchOne(db, sql: Self.maxProductSQL) else { return [] }
            var found: [(id: Int64, title: String)] = []
            for range in integerPrefixRanges(prefix, maximum: maximum) where found.count < limit {
                let rows = try Row.fetchAll(db, sql: Self.productRangeSQL,
                                            arguments: [range.lowerBound, range.upperBound, limit - found.count])
                for row in rows {
                    let id: Int64 = row[0]
                    let title: String = row[1]
                    found.append((id, title))
                }
            }
            return found
        }
    }

    func orderIDs(prefix: String, limit: Int) async throws -> [Int64] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            guard let maximum = try Int64.fetchOne(db, sql: Self.maxOrderSQL) else { return [] }
            var found: [Int64] = []
            for range in integerPrefixRanges(prefix, maximum: maximum) where found.count < limit {
                found += try Int64.fetchAll(db, sql: Self.orderRangeSQL,
                                            arguments: [range.lowerBound, range.upperBound, limit - found.count])
            }
            return found
        }
    }

    func categories(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            var found: [String] = []
            var next = try String.fetchOne(db, sql: Self.firstCategorySQL, arguments: [prefix])
            while let category = next, category.hasPrefix(prefix), found.count < limit {
                found.append(category)
                next = try String.fetchOne(db, sql: Self.nextCategorySQL, arguments: [category])
            }
            return found
        }
    }

    func auditOperators(prefix: String, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            // Distinct values by index jumps: one short query per operator, however long the log.
            var found: [String] = []
            var next = try String.fetchOne(db, sql: "SELECT operator FROM audit_log WHERE operator >= ? ORDER BY operator LIMIT 1",
                                           arguments: [prefix])
            while let name = next, name.hasPrefix(prefix), found.count < limit {
                found.append(name)
                next = try String.fetchOne(db, sql: "SELECT operator FROM audit_log WHERE operator > ? ORDER BY operator LIMIT 1",
                                           arguments: [name])
            }
            return found
        }
    }

    // MARK: - Helpers

    private func textRange(_ sql: String, prefix: String, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try database.shopRead { db in
            try String.fetchAll(db, sql: sql, arguments: [prefix, Self.upperBound(prefix), limit])
        }
    }
}
