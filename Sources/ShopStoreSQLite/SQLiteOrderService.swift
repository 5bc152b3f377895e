// SQLiteOrderService: OrderService on SQLite (STUB: being written).

import GRDB
import ShopCore

struct SQLiteOrderService: OrderService {
    let pool: DatabasePool

    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws { throw ShopError.storage("SQLiteOrderService: not implemented yet") }
    func order(_ id: Int64) async throws -> Order { throw ShopError.storage("SQLiteOrderService: not implemented yet") }
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order { throw ShopError.storage("SQLiteOrderService: not implemented yet") }
    func orderStats(_ grouping: OrderStatsGrouping, filter: OrderFilter) async throws -> [OrderStatsRow] { throw ShopError.storage("SQLiteOrderService: not implemented yet") }
}
