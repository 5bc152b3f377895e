// SQLiteFavoritesService: FavoritesService on SQLite (STUB: being written).

import GRDB
import ShopCore

struct SQLiteFavoritesService: FavoritesService {
    let pool: DatabasePool

    func favorites(_ user: String) async throws -> [FavoriteProduct] { throw ShopError.storage("SQLiteFavoritesService: not implemented yet") }
    func addFavorite(_ user: String, product: String) async throws -> Bool { throw ShopError.storage("SQLiteFavoritesService: not implemented yet") }
    func removeFavorite(_ user: String, product: String) async throws -> Bool { throw ShopError.storage("SQLiteFavoritesService: not implemented yet") }
    func toggleFavorite(_ user: String, product: String) async throws -> Bool { throw ShopError.storage("SQLiteFavoritesService: not implemented yet") }
    func topFavorites(limit: Int) async throws -> [FavoriteCount] { throw ShopError.storage("SQLiteFavoritesService: not implemented yet") }
}
