// UserCard: `users show USER --all` — the one view of a customer an operator opens first:
// who they are and how to reach them, their addresses, the team's notes, their basket, how many
// favourites, their last orders and where those went, and what they spent in all (net of
// refunds, cancelled orders left out). One record with its sections, in every format.

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// A customer's card, read through the services.
struct UserCard {
    var user: User
    var addresses: [CustomerAddress]
    var notes: [Note]
    var basket: Basket
    var favorites: Int
    /// Every order of theirs, newest first.
    var orders: [Order]

    /// How many of the last orders the card lists.
    static let lastOrders = 5

    static func read(_ reference: String, _ services: ShopServices) async throws -> UserCard {
        let user = try await services.users.user(reference)
        let key = String(user.id)
        var orders: [Order] = []
        try await services.orders.listOrders(OrderFilter(user: key), page: .all) { orders.append($0) }
        return UserCard(user: user, addresses: try await services.addresses.addresses(key),
                        notes: try await services.notes.notes(on: .user(key)), basket: try await services.baskets.basket(key),
                        favorites: try await services.favorites.favorites(key).count, orders: orders)
    }

    /// What they paid in all, less refunds; cancelled orders are no sales.
    var lifetimeSpend: Money {
        get throws(ShopError) {
            try Money.sum(orders.filter { $0.status != .cancelled }.map(\.net), currency: basket.currency)
        }
    }

    static let recordColumns = UserRows.columns + ["basket_lines", "basket_items", "basket_total", "favorites",
                                                   "orders", "lifetime_spend", "currency"].map(Column.init)

    func recordCells() throws -> [Cell] {
        UserRows.cells(user) + [.integer(Int64(basket.lines.count)),
                                .integer(Int64(basket.totalQuantity)), .decimal(try basket.discountedTotal.amount),
                                .integer(Int64(favorites)), .integer(Int64(orders.count)), .decimal(try lifetimeSpend.amount),
                                .text(basket.currency.code)]
    }

    static let orderColumns = ["id", "status", "total", "refunded", "currency", "created_at", "ship_city", "ship_country"]
        .map(Column.init)

    static func orderCells(_ order: Order) -> [Cell] {
        [.integer(order.id), .text(order.status.rawValue), .decimal(order.discountedTotal.amount), .decimal(order.refunded.amount), .text(order.total.currency.code),
         .text(order.createdAt), order.shipTo.map { .text($0.city) } ?? .null, order.shipTo.map { .text($0.country) } ?? .null]
    }

    /// What a table of the last orders shows.
    static let orderTableView = TableView(["id", "status", "total", "refunded", "currency", "created_at", "ship_city", "ship_country"],
                                          optional: ["refunded", "ship_city"],
                                          headers: ["created_at": "placed", "ship_city": "city", "ship_country": "to"])

    /// The card as one record with the last orders under `orders`, then addresses and notes.
    func view() throws -> NestedView {
        var view = NestedView(record: (Self.recordColumns, try recordCells()), key: "last_orders",
                              rows: (Self.orderColumns, orders.prefix(Self.lastOrders).map(Self.orderCells)))
        view.sections = [("addresses", AddressRows.columns, addresses.map(AddressRows.cells), AddressRows.tableView.fields),
                         ("notes", NoteRows.columns, notes.map(NoteRows.cells), NoteRows.tableView.fields)]
        return view
    }
}
