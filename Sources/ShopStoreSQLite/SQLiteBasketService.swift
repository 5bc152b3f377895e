// SQLiteBasketService: BasketService on SQLite (STUB: being written).

import GRDB
import ShopCore

struct SQLiteBasketService: BasketService {
    let pool: DatabasePool

    func basket(_ user: String) async throws -> Basket { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
    func removeFromBasket(_ user: String, product: String) async throws { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
    func clearBasket(_ user: String) async throws -> Int { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
    func checkout(_ user: String) async throws -> Order { throw ShopError.storage("SQLiteBasketService: not implemented yet") }
}
