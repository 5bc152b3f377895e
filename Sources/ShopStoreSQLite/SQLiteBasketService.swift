// SQLiteBasketService: BasketService on SQLite. Every change is one write transaction; an
// increment is one atomic INSERT … ON CONFLICT DO UPDATE, so shells sharing a file never lose one.

import GRDB
import ShopCore

/// `BasketService` on a SQLite store.
struct SQLiteBasketService: BasketService {
    let database: DatabaseQueue
    let clock: ShopClock

    // MARK: - Reading

    func basket(_ user: String) async throws -> Basket {
        try database.shopRead { db in
            let found = try SQLiteUserLookup.find(db, user)
            return Basket(user: found, lines: try Self.lines(db, userID: found.id),
                          coupon: try SQLiteCouponService.basketCoupon(db, userID: found.id))
        }
    }

    // MARK: - Writing

    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine {
        try BasketRules.checkQuantity(quantity, allowZero: false)
        return try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let item = try SQLiteProductService.find(db, product)
            try BasketRules.checkAdd(customer, item)
            try Self.checkRoom(db, customer, item)
            // One statement: inserts the line or increments it, unless that would pass the limit.
            let stored = try Int.fetchOne(db.cachedStatement(sql: """
                INSERT INTO basket_lines (user_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = quantity + excluded.quantity, changed_at = excluded.added_at
                    WHERE basket_lines.quantity + excluded.quantity <= ?
                RETURNING quantity
                """), arguments: [customer.id, item.id, quantity, clock.timestamp(), BasketLimits.maxQuantity])
            guard let stored else {
                let current = try Int.fetchOne(db, sql: "SELECT quantity FROM basket_lines WHERE user_id = ? AND product_id = ?",
                                               arguments: [customer.id, item.id]) ?? 0
                throw BasketRules.lineFull(customer.username, sku: item.sku, adding: quantity, current: current)
            }
            try audit(.basketLine(userID: customer.id, productID: item.id, action: "add",
                                  before: stored > quantity ? stored - quantity : nil, after: stored), db)
            return Self.line(customer.id, item, quantity: stored)
        }
    }

    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? {
        try BasketRules.checkQuantity(quantity, allowZero: true)
        return try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let item = try SQLiteProductService.find(db, product)
            let current = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT quantity FROM basket_lines WHERE user_id = ? AND product_id = ?"),
                arguments: [customer.id, item.id])
            if quantity == 0 {
                guard current != nil else { throw BasketRules.notInBasket(customer.username, productID: item.id, sku: item.sku) }
                try db.execute(sql: "DELETE FROM basket_lines WHERE user_id = ? AND product_id = ?",
                               arguments: [customer.id, item.id])
                try audit(.basketLine(userID: customer.id, productID: item.id, action: "set", before: current, after: nil), db)
                return nil
            }
            if try BasketRules.checkSet(customer, item, from: current, to: quantity) {
                try Self.checkRoom(db, customer, item)
            }
            try db.cachedStatement(sql: """
                INSERT INTO basket_lines (user_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = excluded.quantity, changed_at = excluded.added_at
                """).execute(arguments: [customer.id, item.id, quantity, clock.timestamp()])
            try audit(.basketLine(userID: customer.id, productID: item.id, action: "set", before: current, after: quantity), db)
            return Self.line(customer.id, item, quantity: quantity)
        }
    }

    func removeFromBasket(_ user: String, product: String) async throws {
        try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let item = try SQLiteProductService.find(db, product)
            let removed = try Int.fetchOne(db, sql: "DELETE FROM basket_lines WHERE user_id = ? AND product_id = ? RETURNING quantity",
                                           arguments: [customer.id, item.id])
            guard let removed else { throw BasketRules.notInBasket(customer.username, productID: item.id, sku: item.sku) }
            try audit(.basketLine(userID: customer.id, productID: item.id, action: "remove", before: removed, after: nil), db)
        }
    }

    func clearBasket(_ user: String) async throws -> Int {
        try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let removed = try Row.fetchAll(db, sql: "DELETE FROM basket_lines WHERE user_id = ? RETURNING product_id, quantity",
                                           arguments: [customer.id])
            // In product id order (RETURNING's order is unspecified), as every store records a clear.
            for line in removed.sorted(by: { ($0[0] as Int64) < ($1[0] as Int64) }) {
                try audit(.basketLine(userID: customer.id, productID: line[0], action: "clear", before: line[1], after: nil), db)
            }
            return removed.count
        }
    }

    func checkout(_ user: String, shipTo: Int64?, withoutCoupon: Bool) async throws -> Order {
        try database.shopWrite { db in
            let now = clock.timestamp()
            let order = try Self.checkout(db, user, shipTo: shipTo, withoutCoupon: withoutCoupon, now: now)
            try SQLiteAuditLog.record(.checkout(order), in: db, at: now)
            return order
        }
    }

    func listBaskets(_ query: BasketListQuery, _ body: (BasketSummary) throws -> Void) async throws {
        try database.shopRead { db in
            var conditions: [String] = [], arguments: [(any DatabaseValueConvertible)?] = []
            if let before = query.changedBefore { conditions.append("s.last_change <= ?"); arguments.append(before) }
            if let minTotal = query.minTotal { conditions.append("s.total >= ?"); arguments.append(minTotal) }
            let index = try Self.fewIdle(db, query) ? " INDEXED BY basket_summaries_by_last_change" : ""
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT s.user_id, u.username, s.lines, s.items, s.total, s.discounted_total, s.last_change
                FROM basket_summaries s\(index) JOIN users u ON u.id = s.user_id
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY \(query.orderBy) LIMIT ? OFFSET ?
                """, arguments: StatementArguments(arguments + [query.page.limit ?? -1, query.page.offset]))
            while let row = try cursor.next() {
                try body(BasketSummary(userID: row[0], username: row[1], lines: row[2], items: row[3],
                                       total: Money(minorUnits: row[4], currency: .usd),
                                       discountedTotal: Money(minorUnits: row[5], currency: .usd), lastChange: row[6]))
            }
        }
    }

    /// Whether `--idle` keeps so few baskets (at most `fewIdleBaskets`) that reading them by their
    /// last change and sorting them beats walking the sort's order and skipping the others. Without
    /// statistics SQLite's planner cannot tell: it walks the order, which reads every basket when
    /// none is idle. Counting stops at the bound, so asking costs at most that many index entries.
    static func fewIdle(_ db: Database, _ query: BasketListQuery) throws -> Bool {
        guard let before = query.changedBefore, query.page.sort.first?.field != "last_change" else { return false }
        let idle = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM (SELECT 1 FROM basket_summaries WHERE last_change <= ? LIMIT ?)
            """, arguments: [before, fewIdleBaskets + 1]) ?? 0
        return idle <= fewIdleBaskets
    }

    /// See `fewIdle`: a few thousand rows sort in a millisecond or two.
    static let fewIdleBaskets = 5_000

    private func audit(_ change: AuditChange, _ db: Database) throws {
        try SQLiteAuditLog.record(change, in: db, at: clock.timestamp())
    }

    // MARK: - Checkout

    /// Checks and takes every line's stock, writes the order with its lines as sold and where it
    /// goes (the customer's address `shipTo`, or their default shipping address), applies the
    /// basket's coupon (CouponRules: refused in one line when it gives nothing now, unless
    /// `withoutCoupon`) and counts its use, and empties the basket. Runs inside the caller's
    /// transaction: any error leaves everything unchanged.
    static func checkout(_ db: Database, _ user: String, shipTo: Int64? = nil, withoutCoupon: Bool = false, now: String) throws -> Order {
        let customer = try SQLiteUserLookup.find(db, user)
        let destination = try Int64.fetchOne(db, sql: """
            SELECT id FROM addresses WHERE user_id = ? AND (id = ? OR (? IS NULL AND default_shipping = 1))
            """, arguments: [customer.id, shipTo, shipTo])
        if let shipTo, destination == nil { throw AddressLookup.notFound(shipTo, user: customer.username) }
        let rows = try Row.fetchAll(db, sql: """
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.category, p.stock
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = ? ORDER BY b.added_at, b.product_id
            """, arguments: [customer.id])
        try BasketRules.checkCheckout(customer, lines: rows.count)
        let lines = rows.map { row in
            var line = line(userID: customer.id)(row)
            line.stock = row[7]
            return line
        }
        let coupon = try SQLiteCouponService.basketCoupon(db, userID: customer.id)
        var quote: CouponQuote?
        if let coupon, !withoutCoupon {
            let applied = try CouponRules.quote(coupon, lines: lines, on: CalendarDay(iso: String(now.prefix(10))) ?? .epoch)
            if let refusal = applied.refusal {
                throw ShopError.conflict(refusal.message(code: coupon.coupon.code) + " (basket checkout --without-coupon goes without it)")
            }
            quote = applied
        }
        try BasketRules.checkStock(customer, lines)
        let ledgerBefore = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM stock_ledger") ?? 0
        try SQLiteStockContext.with(.checkout, at: now, in: db) {
            for line in lines {
                try db.execute(sql: """
                    UPDATE products SET stock = stock - ?, updated_at = ? WHERE id = ? AND stock >= ?
                    """, arguments: [line.quantity, now, line.productID, line.quantity])
                guard db.changesCount == 1 else { throw BasketRules.stockTaken(sku: line.sku, title: line.title) }
            }
        }
        let basket = Basket(user: customer, lines: lines)
        try db.execute(sql: """
            INSERT INTO orders (user_id, customer, status, currency, total_minor, discounted_total_minor, created_at, updated_at)
            VALUES (?, ?, 'placed', ?, ?, ?, ?, ?)
            """, arguments: [customer.id, customer.username, basket.currency.code, try basket.total.minorUnits,
                             try basket.discountedTotal.minorUnits - (quote?.discount.minorUnits ?? 0), now, now])
        let orderID = db.lastInsertedRowID
        // The ledger's rows of this checkout name its order (known only now).
        try db.execute(sql: "UPDATE stock_ledger SET order_id = ? WHERE id > ? AND reason = ?",
                       arguments: [orderID, ledgerBefore, StockReason.checkout.rawValue])
        for (index, line) in lines.enumerated() {
            try db.execute(sql: """
                INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor,
                                         discount_hundredths, quantity, coupon_minor)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [orderID, index + 1, line.productID, line.sku, line.title, line.unitPrice.minorUnits,
                                 line.discount.hundredths, line.quantity, quote?.shares[index] ?? 0])
        }
        if let coupon, let quote {
            try db.execute(sql: "INSERT INTO coupon_uses (order_id, coupon_id, user_id, discount_minor, used_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [orderID, coupon.coupon.id, customer.id, quote.discount.minorUnits, now])
        }
        try db.execute(sql: "DELETE FROM basket_coupons WHERE user_id = ?", arguments: [customer.id])
        if let destination {
            try db.execute(sql: """
                INSERT INTO order_addresses (order_id, name, line1, line2, city, state, postal_code, country, phone)
                SELECT ?, name, line1, line2, city, state, postal_code, country, phone FROM addresses WHERE id = ?
                """, arguments: [orderID, destination])
        }
        try db.execute(sql: "DELETE FROM basket_lines WHERE user_id = ?", arguments: [customer.id])
        return try SQLiteOrderService.find(db, orderID)
    }

    // MARK: - Rows and rules

    /// The basket lines of a user, oldest first, with the products' prices now.
    static func lines(_ db: Database, userID: Int64) throws -> [BasketLine] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.category
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = ? ORDER BY b.added_at, b.product_id
            """), arguments: [userID]).map(line(userID: userID))
    }

    private static func line(userID: Int64) -> (Row) -> BasketLine {
        { row in
            BasketLine(userID: userID, productID: row[0], sku: row[1], title: row[2],
                       unitPrice: Money(minorUnits: row[3], currency: .usd), discount: Percentage(hundredths: row[4]),
                       quantity: row[5], category: row["category"] ?? "")
        }
    }

    private static func line(_ userID: Int64, _ product: Product, quantity: Int) -> BasketLine {
        BasketLine(userID: userID, productID: product.id, sku: product.sku, title: product.title,
                   unitPrice: product.price, discount: product.discount, quantity: quantity, stock: product.stock,
                   category: product.category)
    }

    /// Counts the basket's lines for `BasketRules.checkRoom`.
    static func checkRoom(_ db: Database, _ user: User, _ product: Product) throws {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT count(*), coalesce(max(product_id = ?), 0) FROM basket_lines WHERE user_id = ?
            """), arguments: [product.id, user.id]) else { return }
        try BasketRules.checkRoom(user, lines: row[0], holdsProduct: row[1])
    }
}
