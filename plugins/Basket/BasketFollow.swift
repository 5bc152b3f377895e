// BasketFollow: `basket show USER --follow` and `basket list --follow` — after the basket (or
// every basket) as it is, each change as it happens: a line changed, the basket checked out, a
// coupon put on or taken off, a product in it changed or deleted (its price, its title).

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// Follows one customer's basket.
struct BasketFollower {
    let user: User
    let display: MoneyDisplay

    /// The fields of one change: which audit row, what happened, and the line after it
    /// (`quantity` null: the line is gone; a checkout empties the basket into `order`).
    static let columns = ["change", "time", "operator", "action", "user_id", "product_id", "sku", "title", "quantity_before",
                          "quantity", "unit_price", "discount_percentage", "order", "coupon"].map(Column.init)

    func run(after lastSeen: Int64, output: OutputOptions, context: CommandContext) async throws {
        let stream = try FollowOutput(columns: Self.columns, options: output, context: context)
        var held: [Int64: Int] = [:]
        for line in try await context.services.baskets.basket(String(user.id)).lines { held[line.productID] = line.quantity }
        try stream.flush()
        try await AuditFollower.follow(after: lastSeen, filter: AuditFilter(), context: context) { rows in
            for row in rows {
                guard let change = try await event(row, held: &held, context: context) else { continue }
                try stream.emit(row: change, line: "#\(row.id)  \(row.time)  \(row.operatorName)  \(user.username): \(row.entity) \(row.action)  \(row.summary)")
            }
            try stream.flush()
        }
    }

    /// The change `row` makes to this basket (nil: none), and the quantities it leaves.
    private func event(_ row: AuditEntry, held: inout [Int64: Int], context: CommandContext) async throws -> [Cell]? {
        var productID: Int64?
        var before: Int?
        var after: Int?
        var order: Int64?
        var coupon: String?
        if ShopHistory.isBasketRow(row, userID: user.id) {
            switch (row.entity, row.action) {
            case ("order", _):
                order = Int64(row.entityID)
                held = [:]
            case ("basket", "coupon add"), ("basket", "coupon remove"):
                if case .text(let code)? = (row.after ?? row.before)?["coupon"] { coupon = code }
            default:
                guard case .integer(let id)? = (row.after ?? row.before)?["product"] else { return nil }
                productID = id
                before = ShopHistory.quantity(row.before)
                after = ShopHistory.quantity(row.after)
                held[id] = after
            }
        } else if row.entity == AuditEntity.product.rawValue, ["update", "delete"].contains(row.action), let id = Int64(row.entityID),
                  let units = held[id] {
            productID = id
            before = units
            after = row.after == nil ? nil : units
            if row.after == nil { held[id] = nil }
        } else {
            return nil
        }
        let product = try? await productID.asyncMap { try await context.services.products.product(String($0)) }
        func number(_ value: Int?) -> Cell { value.map { .integer(Int64($0)) } ?? .null }
        return [.integer(row.id), .text(row.time), .text(row.operatorName), .text(row.action), .integer(user.id),
                productID.map(Cell.integer) ?? .null, product.map { .text($0.sku) } ?? .null, product.map { .text($0.title) } ?? .null,
                number(before), number(after), try product.map { try display.cell($0.price) } ?? .null,
                product.map { .decimal($0.discount.decimal) } ?? .null, order.map(Cell.integer) ?? .null, coupon.map(Cell.text) ?? .null]
    }
}
