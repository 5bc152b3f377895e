// PostgresBasketService: baskets and checkout on PostgreSQL. An increment is one atomic
// INSERT … ON CONFLICT DO UPDATE that checks the line's limit itself, so concurrent shells never
// lose one; checkout locks its lines and their products (in id order) and takes the stock with
// conditional updates, so the last item is sold once. No advisory locks, no sequences.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// `BasketService` on a PostgreSQL server.
struct PostgresBasketService: BasketService {
    let database: PostgresDatabase

    /// How many times checkout tries the next free order id when others take it first.
    static let maxOrderIDAttempts = 20

    // MARK: - Reading

    func basket(_ user: String) async throws -> Basket {
        try await database.read("reading a basket") { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            return Basket(user: customer, lines: try await Self.lines(connection, userID: customer.id, logger: database.logger))
        }
    }

    // MARK: - Writing

    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine {
        try BasketRules.checkQuantity(quantity, allowZero: false)
        let stamp = database.clock.timestamp()
        return try await database.write("adding to a basket", needs: .support) { connection in
            let logger = database.logger
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
            let item = try await PostgresProductService.find(connection, product, logger: logger)
            try BasketRules.checkAdd(customer, item)
            try await Self.checkRoom(connection, customer, item, logger: logger)
            // One statement: inserts the line or increments it, unless that would pass the limit,
            // and records the change: the quantity before is the one stored less the one added.
            // The audit row is the builder's, with the quantities the upsert found put in.
            let change = AuditChange.basketLine(userID: customer.id, productID: item.id, action: "add", before: 0, after: 0)
            let command = AuditContext.current?.command ?? ""
            let rows = try await connection.query("""
                WITH line AS (
                    INSERT INTO basket_lines (user_id, product_id, quantity, added_at)
                    VALUES (\(customer.id), \(item.id), \(quantity), \(stamp)::timestamptz)
                    ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = basket_lines.quantity + EXCLUDED.quantity
                        WHERE basket_lines.quantity + EXCLUDED.quantity <= \(BasketLimits.maxQuantity)
                    RETURNING quantity
                ), audit AS (
                    INSERT INTO audit_log (command, entity, entity_id, action, before, after)
                    SELECT \(command), \(change.entity.rawValue), \(change.entityID), \(change.action),
                           CASE WHEN line.quantity > \(quantity)
                                THEN jsonb_set(\(change.before?.jsonText)::jsonb, '{quantity}', to_jsonb(line.quantity - \(quantity))) END,
                           jsonb_set(\(change.after?.jsonText)::jsonb, '{quantity}', to_jsonb(line.quantity))
                    FROM line
                )
                SELECT quantity FROM line
                """, logger: logger)
            for try await stored in rows.decode(Int.self) {
                return Self.line(customer.id, item, quantity: stored)
            }
            let current = try await Self.quantity(connection, customer.id, item.id, logger: logger) ?? 0
            throw BasketRules.lineFull(customer, item, adding: quantity, current: current)
        }
    }

    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? {
        try BasketRules.checkQuantity(quantity, allowZero: true)
        let stamp = database.clock.timestamp()
        return try await database.write("setting a basket quantity", needs: .support) { connection in
            let logger = database.logger
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
            let item = try await PostgresProductService.find(connection, product, logger: logger)
            if quantity == 0 {
                guard let removed = try await Self.delete(connection, customer.id, item.id, logger: logger) else {
                    throw BasketRules.notInBasket(customer, item)
                }
                try await PostgresAuditLog.record(.basketLine(userID: customer.id, productID: item.id, action: "set",
                                                              before: removed, after: nil), on: connection, logger: logger)
                return nil
            }
            let current = try await Self.quantity(connection, customer.id, item.id, logger: logger)
            if try BasketRules.checkSet(customer, item, from: current, to: quantity) {
                try await Self.checkRoom(connection, customer, item, logger: logger)
            }
            try await connection.query("""
                INSERT INTO basket_lines (user_id, product_id, quantity, added_at)
                VALUES (\(customer.id), \(item.id), \(quantity), \(stamp)::timestamptz)
                ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity
                """, logger: logger)
            try await PostgresAuditLog.record(.basketLine(userID: customer.id, productID: item.id, action: "set",
                                                          before: current, after: quantity), on: connection, logger: logger)
            return Self.line(customer.id, item, quantity: quantity)
        }
    }

    func removeFromBasket(_ user: String, product: String) async throws {
        try await database.write("removing from a basket", needs: .support) { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            let item = try await PostgresProductService.find(connection, product, logger: database.logger)
            guard let removed = try await Self.delete(connection, customer.id, item.id, logger: database.logger) else {
                throw BasketRules.notInBasket(customer, item)
            }
            try await PostgresAuditLog.record(.basketLine(userID: customer.id, productID: item.id, action: "remove",
                                                          before: removed, after: nil), on: connection, logger: database.logger)
        }
    }

    func clearBasket(_ user: String) async throws -> Int {
        try await database.write("clearing a basket", needs: .support) { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            var removed: [(productID: Int64, quantity: Int)] = []
            for try await line in try await connection.query(
                "DELETE FROM basket_lines WHERE user_id = \(customer.id) RETURNING product_id, quantity", logger: database.logger
            ).decode((Int64, Int).self) {
                removed.append(line)
            }
            // One row per line, in product order (as the SQLite store records them).
            let changes = removed.sorted { $0.productID < $1.productID }.map { line in
                AuditChange.basketLine(userID: customer.id, productID: line.productID, action: "clear", before: line.quantity, after: nil)
            }
            try await PostgresAuditLog.record(changes, on: connection, logger: database.logger)
            return changes.count
        }
    }

    func checkout(_ user: String) async throws -> Order {
        let stamp = database.clock.timestamp()
        return try await database.write("checking out", needs: .support) { connection in
            let order = try await Self.checkout(connection, user, usersSource: database.usersSource, stamp: stamp, logger: database.logger)
            try await PostgresAuditLog.record(.checkout(order), on: connection, logger: database.logger)
            return order
        }
    }

    // MARK: - Checkout

    /// A basket line as checkout reads it: the line with its product's stock, and when it was added.
    typealias CheckoutRow = (Int64, String, String, Int64, Int, Int, Int, Date)

    /// Locks the basket's lines and their products (in product id order, so two checkouts never
    /// wait on each other in a circle), checks every line's stock, takes it, writes the order with
    /// its lines as sold and removes exactly the lines it sold. Runs inside the caller's
    /// transaction: any error leaves everything unchanged.
    static func checkout(_ connection: PostgresConnection, _ user: String, usersSource: String, stamp: String,
                         logger: Logger) async throws -> Order {
        let customer = try await PostgresUserLookup.find(connection, user, source: usersSource, logger: logger)
        var locked: [(line: BasketLine, addedAt: Date)] = []
        // A concurrent checkout of the same basket waits here, then finds its lines gone.
        for try await row in try await connection.query("""
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.stock, b.added_at
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = \(customer.id)
            ORDER BY p.id
            FOR UPDATE OF b
            """, logger: logger).decode(CheckoutRow.self) {
            let line = BasketLine(userID: customer.id, productID: row.0, sku: row.1, title: row.2,
                                  unitPrice: Money(minorUnits: row.3, currency: .usd), discount: Percentage(hundredths: row.4),
                                  quantity: row.5, stock: row.6)
            locked.append((line, row.7))
        }
        try BasketRules.checkCheckout(customer, lines: locked.count)
        // The order lists its lines as the basket does: oldest first.
        let lines = locked.sorted { ($0.addedAt, $0.line.productID) < ($1.addedAt, $1.line.productID) }.map(\.line)
        try BasketRules.checkStock(customer, lines)
        let basket = Basket(user: customer, lines: lines)
        let orderID = try await insertOrder(connection, customer, total: try basket.total, discountedTotal: try basket.discountedTotal,
                                            stamp: stamp, logger: logger)
        for (index, line) in lines.enumerated() {
            try await connection.query("""
                INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor,
                                         discount_hundredths, quantity)
                VALUES (\(orderID), \(index + 1), \(line.productID), \(line.sku), \(line.title), \(line.unitPrice.minorUnits),
                        \(line.discount.hundredths), \(line.quantity))
                """, logger: logger)
        }
        // The stock, with the order that takes it (the server lets nobody but an admin move stock
        // otherwise); a line another checkout emptied meanwhile undoes everything.
        for try await short in try await connection.query("""
            SELECT shopsh_take_order_stock(\(orderID), \(stamp)::timestamptz)
            """, logger: logger).decode(Int64?.self) {
            if let short, let line = lines.first(where: { $0.productID == short }) { throw BasketRules.stockTaken(line) }
        }
        try await connection.query("""
            DELETE FROM basket_lines WHERE user_id = \(customer.id) AND product_id = ANY(\(lines.map(\.productID)))
            """, logger: logger)
        return try await PostgresOrderService.find(connection, orderID, logger: logger)
    }

    /// Inserts the order row under the id after the highest one and returns that id. Two checkouts
    /// at once may pick the same id: the second waits for the first, finds the id taken (`ON
    /// CONFLICT DO NOTHING` returns no row) and tries the next; under snapshot isolation the server
    /// reports a serialization failure instead, and the whole transaction runs again.
    static func insertOrder(_ connection: PostgresConnection, _ customer: User, total: Money, discountedTotal: Money,
                            stamp: String, logger: Logger) async throws -> Int64 {
        for _ in 0..<maxOrderIDAttempts {
            for try await id in try await connection.query("""
                INSERT INTO orders (id, user_id, customer, status, currency, total_minor, discounted_total_minor,
                                    created_at, updated_at)
                SELECT COALESCE(max(id), 0) + 1, \(customer.id), \(customer.username), 'placed', \(total.currency.code),
                       \(total.minorUnits), \(discountedTotal.minorUnits), \(stamp)::timestamptz, \(stamp)::timestamptz
                FROM orders
                ON CONFLICT (id) DO NOTHING
                RETURNING id
                """, logger: logger).decode(Int64.self) {
                return id
            }
        }
        throw ShopError.conflict("checking out: other checkouts kept taking the next order id; try again")
    }

    // MARK: - Rows and rules

    /// The basket lines of a user, oldest first, with the products' prices now.
    static func lines(_ connection: PostgresConnection, userID: Int64, logger: Logger) async throws -> [BasketLine] {
        var lines: [BasketLine] = []
        for try await row in try await connection.query("""
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = \(userID) ORDER BY b.added_at, b.product_id
            """, logger: logger).decode((Int64, String, String, Int64, Int, Int).self) {
            lines.append(BasketLine(userID: userID, productID: row.0, sku: row.1, title: row.2,
                                    unitPrice: Money(minorUnits: row.3, currency: .usd), discount: Percentage(hundredths: row.4),
                                    quantity: row.5))
        }
        return lines
    }

    private static func line(_ userID: Int64, _ product: Product, quantity: Int) -> BasketLine {
        BasketLine(userID: userID, productID: product.id, sku: product.sku, title: product.title,
                   unitPrice: product.price, discount: product.discount, quantity: quantity, stock: product.stock)
    }

    /// The quantity of the line, or nil when the basket does not hold the product.
    static func quantity(_ connection: PostgresConnection, _ userID: Int64, _ productID: Int64,
                         logger: Logger) async throws -> Int? {
        for try await quantity in try await connection.query(
            "SELECT quantity FROM basket_lines WHERE user_id = \(userID) AND product_id = \(productID)", logger: logger
        ).decode(Int.self) {
            return quantity
        }
        return nil
    }

    /// Deletes the line; its quantity, or nil when there was none.
    static func delete(_ connection: PostgresConnection, _ userID: Int64, _ productID: Int64,
                       logger: Logger) async throws -> Int? {
        for try await quantity in try await connection.query(
            "DELETE FROM basket_lines WHERE user_id = \(userID) AND product_id = \(productID) RETURNING quantity", logger: logger
        ).decode(Int.self) {
            return quantity
        }
        return nil
    }

    /// Counts the basket's lines for `BasketRules.checkRoom`. A new line is counted with the user's
    /// row locked, so that two shells adding different products at once cannot pass the limit
    /// together; an increment of a line the basket holds needs no lock.
    static func checkRoom(_ connection: PostgresConnection, _ user: User, _ product: Product, logger: Logger) async throws {
        if try await count(connection, user, product, logger: logger).holdsProduct { return }
        // Through a function of the owner's: a row lock needs UPDATE on users, which support lacks.
        _ = try await connection.query("SELECT shopsh_lock_basket(\(user.id))", logger: logger).collect()
        let (recounted, holdsNow) = try await count(connection, user, product, logger: logger)
        try BasketRules.checkRoom(user, lines: recounted, holdsProduct: holdsNow)
    }

    private static func count(_ connection: PostgresConnection, _ user: User, _ product: Product,
                              logger: Logger) async throws -> (lines: Int, holdsProduct: Bool) {
        for try await row in try await connection.query("""
            SELECT count(*), COALESCE(bool_or(product_id = \(product.id)), false) FROM basket_lines WHERE user_id = \(user.id)
            """, logger: logger).decode((Int, Bool).self) {
            return row
        }
        return (0, false)
    }
}
