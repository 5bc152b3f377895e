// PostgresFavoritesService: favourites on PostgreSQL. One row per (user, product); adding twice
// changes nothing; an add, remove or toggle is one call of shopsh_favorite (PostgresBasketStatements)
// when it can be, else one transaction. A user's list streams row by row from the server,
// sorted and paged in SQL; every value is a bound parameter.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// Who favourited what, and the most favourited products, on a PostgreSQL server.
struct PostgresFavoritesService: FavoritesService {
    let database: PostgresDatabase

    /// The product columns (`PostgresProductService.columns`), prefixed with the products table's alias `p`.
    static let productColumns = ProductColumns.all(alias: "p")

    /// A product's columns (as `PostgresProductService.ProductRow`) and one more: `added_at` as
    /// epoch seconds, or the favourite count.
    typealias ProductAndNumberRow = (Int64, String, String, String, String, String?, Int64, Int, Int, Int, String, Int,
                                     String?, String, Int, Int, Int64)

    /// Output field name → SQL expression, for `--sort`: the product's fields sort as
    /// `PostgresProductService.sortColumns` sorts them, on the alias `p`.
    static let sortColumns: [String: String] = [
        "product_id": "p.id", "sku": "p.sku COLLATE \"C\"", "title": "lower(p.title) COLLATE \"C\"",
        "category": "p.category COLLATE \"C\"", "brand": "lower(p.brand) COLLATE \"C\"", "price": "p.price_minor",
        "discount_percentage": "p.discount_hundredths", "stock": "p.stock", "rating": "p.rating_hundredths",
        "added_at": "f.added_at",
    ]

    func listFavorites(_ user: String, page: Page, _ body: (FavoriteProduct) throws -> Void) async throws {
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: "f.added_at, p.id")
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        try await database.forEachRow("listing favourites", query: { connection in
            let owner = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            return """
                SELECT \(unescaped: Self.productColumns), \(unescaped: PostgresTimes.epochSeconds("f.added_at"))
                FROM favorites f JOIN products p ON p.id = f.product_id
                WHERE f.user_id = \(owner.id)
                ORDER BY \(unescaped: terms)
                LIMIT \(limit) OFFSET \(offset)
                """
        }) { row in
            let decoded = try row.decode(ProductAndNumberRow.self)
            try body(FavoriteProduct(product: Self.product(decoded), addedAt: ShopClock.timestamp(decoded.16)))
        }
    }

    func addFavorite(_ user: String, product: String) async throws -> Bool {
        let stamp = database.clock.timestamp()
        if let result = try await inOneCall(.addFavorite, "add", user, product, stamp: stamp) { return result == "added" }
        return try await database.write(.addFavorite, action: "add") { connection in
            let (userID, productID) = try await Self.resolve(connection, user: user, product: product, source: database.usersSource,
                                                             logger: database.logger)
            let rows = try await connection.query("""
                INSERT INTO favorites (user_id, product_id, added_at) VALUES (\(userID), \(productID), \(stamp)::timestamptz)
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: database.logger)
            var added = false
            for try await _ in rows { added = true }
            return added
        }
    }

    func removeFavorite(_ user: String, product: String) async throws -> Bool {
        if let result = try await inOneCall(.removeFavorite, "remove", user, product, stamp: database.clock.timestamp()) {
            return result == "removed"
        }
        return try await database.write(.removeFavorite, action: "remove") { connection in
            let (userID, productID) = try await Self.resolve(connection, user: user, product: product, source: database.usersSource,
                                                             logger: database.logger)
            return try await Self.delete(connection, userID: userID, productID: productID, logger: database.logger)
        }
    }

    /// Two toggles at once of one favourite never fail: the later insert finds the row there and
    /// leaves it (the product is a favourite either way).
    func toggleFavorite(_ user: String, product: String) async throws -> Bool {
        let stamp = database.clock.timestamp()
        if let result = try await inOneCall(.toggleFavorite, "toggle", user, product, stamp: stamp) { return result != "removed" }
        return try await database.write(.toggleFavorite, action: "toggle") { connection in
            let (userID, productID) = try await Self.resolve(connection, user: user, product: product, source: database.usersSource,
                                                             logger: database.logger)
            if try await Self.delete(connection, userID: userID, productID: productID, logger: database.logger) {
                return false
            }
            // When another toggle added it meanwhile, this one changes nothing (and the server records nothing).
            try await connection.query("""
                INSERT INTO favorites (user_id, product_id, added_at) VALUES (\(userID), \(productID), \(stamp)::timestamptz)
                ON CONFLICT DO NOTHING
                """, logger: database.logger)
            return true
        }
    }

    func topFavorites(limit: Int) async throws -> [FavoriteCount] {
        guard limit >= 0 else { throw ShopError.invalidInput("the limit must be 0 or more") }
        return try await database.read("counting favourites") { connection in
            var top: [FavoriteCount] = []
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.productColumns), count(*) AS favorite_count
                FROM favorites f JOIN products p ON p.id = f.product_id
                GROUP BY p.id
                ORDER BY favorite_count DESC, p.id
                LIMIT \(limit)
                """, logger: database.logger)
            for try await row in rows.decode(ProductAndNumberRow.self) {
                top.append(FavoriteCount(product: Self.product(row), count: Int(row.16)))
            }
            return top
        }
    }

    // MARK: - Helpers

    /// `shopsh_favorite` (PostgresBasketStatements) doing `action`: what it did (`added`,
    /// `present`, `removed`, `absent`), or nil when it declined (PostgresDatabase.changeInOneCall).
    private func inOneCall(_ operation: ShopOperation, _ action: String, _ user: String, _ product: String,
                           stamp: String) async throws(ShopError) -> String? {
        try await database.changeInOneCall(operation, user: user, product: product, call: { customer, name, id, reference, lockWait, command in
            "SELECT * FROM shopsh_favorite(\(customer)::bigint, \(name), \(id)::bigint, \(reference), \(lockWait), \(action), \(stamp)::timestamptz, \(command))"
        }) { row in try row.decode(String.self) }
    }

    /// The ids of the user and product named, with the lookups' own errors.
    static func resolve(_ connection: PostgresConnection, user: String, product: String, source: String,
                        logger: Logger) async throws -> (Int64, Int64) {
        let owner = try await PostgresUserLookup.find(connection, user, source: source, logger: logger)
        let item = try await PostgresProductService.find(connection, product, logger: logger)
        return (owner.id, item.id)
    }

    /// Deletes one favourite; whether there was one.
    static func delete(_ connection: PostgresConnection, userID: Int64, productID: Int64, logger: Logger) async throws -> Bool {
        for try await _ in try await connection.query(
            "DELETE FROM favorites WHERE user_id = \(userID) AND product_id = \(productID) RETURNING 1", logger: logger
        ) {
            return true
        }
        return false
    }

    /// The product in a row's first columns.
    static func product(_ row: ProductAndNumberRow) -> Product {
        PostgresProductService.product((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11,
                                        row.12, row.13, row.14, row.15))
    }
}
