// SQLiteFavoritesService: FavoritesService on SQLite. One row per (user, product); adding twice
// changes nothing; a toggle is one transaction.

import GRDB
import ShopCore
import ShopStoreKit

struct SQLiteFavoritesService: FavoritesService {
    let database: DatabaseQueue
    let clock: ShopClock

    /// The product columns, prefixed with the products table's alias `p`.
    static let productColumns = ProductColumns.all(alias: "p")

    /// Output field name → SQL expression, for `--sort`.
    static let sortColumns: [String: String] = [
        "product_id": "p.id", "sku": "p.sku", "title": "p.title COLLATE NOCASE", "category": "p.category",
        "brand": "p.brand COLLATE NOCASE", "price": "p.price_minor", "discount_percentage": "p.discount_hundredths",
        "stock": "p.stock", "rating": "p.rating_hundredths", "added_at": "f.added_at",
    ]

    func listFavorites(_ user: String, page: Page, _ body: (FavoriteProduct) throws -> Void) async throws {
        let paging = try SQLPaging.clause(page, sortColumns: Self.sortColumns, tieBreaker: "f.added_at, p.id")
        try database.shopRead { db in
            let owner = try SQLiteUserLookup.find(db, user)
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT \(Self.productColumns), f.added_at
                FROM favorites f JOIN products p ON p.id = f.product_id
                WHERE f.user_id = ?
                """ + paging, arguments: [owner.id])
            while let row = try cursor.next() {
                try body(FavoriteProduct(product: SQLiteProductService.product(row), addedAt: row[16]))
            }
        }
    }

    func addFavorite(_ user: String, product: String) async throws -> Bool {
        try database.shopWrite { db in
            let (userID, productID) = try Self.resolve(db, user: user, product: product)
            try db.execute(sql: "INSERT INTO favorites (user_id, product_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                           arguments: [userID, productID, clock.timestamp()])
            return try recorded(db.changesCount > 0, userID, productID, isFavourite: true, db)
        }
    }

    func removeFavorite(_ user: String, product: String) async throws -> Bool {
        try database.shopWrite { db in
            let (userID, productID) = try Self.resolve(db, user: user, product: product)
            try db.execute(sql: "DELETE FROM favorites WHERE user_id = ? AND product_id = ?", arguments: [userID, productID])
            return try recorded(db.changesCount > 0, userID, productID, isFavourite: false, db)
        }
    }

    func toggleFavorite(_ user: String, product: String) async throws -> Bool {
        try database.shopWrite { db in
            let (userID, productID) = try Self.resolve(db, user: user, product: product)
            try db.execute(sql: "DELETE FROM favorites WHERE user_id = ? AND product_id = ?", arguments: [userID, productID])
            if db.changesCount > 0 { return try !recorded(true, userID, productID, isFavourite: false, db) }
            try db.execute(sql: "INSERT INTO favorites (user_id, product_id, added_at) VALUES (?, ?, ?)",
                           arguments: [userID, productID, clock.timestamp()])
            return try recorded(true, userID, productID, isFavourite: true, db)
        }
    }

    /// Records the change when there was one (`changed`); returns `changed`.
    private func recorded(_ changed: Bool, _ userID: Int64, _ productID: Int64, isFavourite: Bool, _ db: Database) throws -> Bool {
        if changed {
            try SQLiteAuditLog.record(.favourite(userID: userID, productID: productID, isFavourite: isFavourite),
                                      in: db, at: clock.timestamp())
        }
        return changed
    }

    func topFavorites(limit: Int) async throws -> [FavoriteCount] {
        guard limit >= 0 else { throw ShopError.invalidInput("the limit must be 0 or more") }
        return try database.shopRead { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.productColumns), count(*) AS favorite_count
                FROM favorites f JOIN products p ON p.id = f.product_id
                GROUP BY p.id
                ORDER BY favorite_count DESC, p.id
                LIMIT ?
                """, arguments: [limit])
                .map { FavoriteCount(product: SQLiteProductService.product($0), count: $0[16]) }
        }
    }

    /// The ids of the user and product named, with the lookups' own errors.
    static func resolve(_ db: Database, user: String, product: String) throws -> (Int64, Int64) {
        let owner = try SQLiteUserLookup.find(db, user)
        let item = try SQLiteProductService.find(db, product)
        return (owner.id, item.id)
    }
}
