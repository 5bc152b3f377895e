// SQLiteSeeder: ShopSeeder on SQLite: cached prepared statements inside the one write transaction
// that SQLiteStore.seed opens (the fastest bulk path SQLite has).

import GRDB
import ShopCore
import ShopStoreKit

/// Writes a seed on one connection, in the caller's transaction.
struct SQLiteSeeder: ShopSeeder {
    let db: Database
    /// The timestamp every seeded row gets (orders bring their own).
    let now: String
    /// Whether the store keeps addresses (Schema v10): a store of an older schema, which only
    /// migration tests seed, gets its users without them.
    let keepsAddresses: Bool
    /// Whether the store keeps reviews, barcodes and details (Schema v12).
    let keepsReviews: Bool

    init(db: Database, now: String) {
        self.db = db
        self.now = now
        self.keepsAddresses = (try? db.tableExists("addresses")) ?? false
        self.keepsReviews = (try? db.tableExists("reviews")) ?? false
    }

    func addProduct(_ product: NewProduct) throws {
        guard keepsReviews else { return try addProductOfOldSchema(product) }
        try db.cachedStatement(sql: """
            INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths,
                                  stock, rating_hundredths, tags, minimum_order_quantity, barcode, details, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                product.id, product.sku, product.title, product.description, product.category, product.brand,
                product.price.minorUnits, product.discount.hundredths, product.stock, product.rating.hundredths,
                StoredTags.encode(product.tags), product.minimumOrderQuantity, product.barcode, product.details.storedJSON, now, now,
            ])
        let review = try db.cachedStatement(sql: """
            INSERT INTO reviews (product_id, rating, comment, reviewer_name, reviewer_email, created_at) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for each in product.reviews {
            try review.execute(arguments: [product.id, each.rating, each.comment, each.reviewerName, each.reviewerEmail, each.at])
        }
    }

    private func addProductOfOldSchema(_ product: NewProduct) throws {
        try db.cachedStatement(sql: """
            INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths,
                                  stock, rating_hundredths, tags, minimum_order_quantity, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                product.id, product.sku, product.title, product.description, product.category, product.brand,
                product.price.minorUnits, product.discount.hundredths, product.stock, product.rating.hundredths,
                StoredTags.encode(product.tags), product.minimumOrderQuantity, now, now,
            ])
    }

    func addUser(_ user: SeedUser) throws {
        try db.cachedStatement(sql: """
            INSERT INTO users (id, username, email, first_name, last_name, phone, role, status, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [user.id, user.fields.username, user.fields.email, user.fields.firstName,
                                     user.fields.lastName, user.fields.phone, user.fields.role.rawValue, user.status.rawValue,
                                     user.passwordHash, now])
        if let address = user.address, keepsAddresses {
            try db.cachedStatement(sql: """
                INSERT INTO addresses (user_id, name, line1, line2, city, state, postal_code, country, phone,
                                       default_shipping, default_billing, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?)
                """).execute(arguments: [user.id, address.name, address.line1, address.line2, address.city, address.state,
                                         address.postalCode, address.country, address.phone, now])
        }
    }

    func addBasketLine(user: Int64, product: Int64, quantity: Int) throws {
        try db.cachedStatement(sql: """
            INSERT INTO basket_lines (user_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = quantity + excluded.quantity
            """).execute(arguments: [user, product, quantity, now])
    }

    func addFavorite(user: Int64, product: Int64) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO favorites (user_id, product_id, added_at) VALUES (?, ?, ?)")
            .execute(arguments: [user, product, now])
        return db.changesCount > 0
    }

    func addOrder(_ order: SeedOrder) throws {
        try db.cachedStatement(sql: """
            INSERT INTO orders (id, user_id, customer, status, currency, total_minor, discounted_total_minor, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'USD', 0, 0, ?, ?)
            """).execute(arguments: [order.id, order.userID, order.customer, order.status.rawValue, order.placedAt, order.placedAt])
        for (index, line) in order.lines.enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor, discount_hundredths, quantity)
                SELECT ?, ?, id, sku, title, price_minor, discount_hundredths, ? FROM products WHERE id = ?
                """).execute(arguments: [order.id, index + 1, line.quantity, line.productID])
        }
        // Totals from the lines as sold, each discounted line rounded once, half away from zero
        // (the amounts are never negative), as Money.discounted does.
        try db.cachedStatement(sql: """
            UPDATE orders SET
                total_minor = (SELECT coalesce(sum(unit_price_minor * quantity), 0) FROM order_lines WHERE order_id = orders.id),
                discounted_total_minor = (SELECT coalesce(sum(\(LineTotalSQL.orderLine())), 0)
                                          FROM order_lines WHERE order_id = orders.id)
            WHERE id = ?
            """).execute(arguments: [order.id])
    }

    /// The refund statements (goodwill, returning), each with the placeholders it names: built once,
    /// since a generated shop adds a refund for one order in fifty.
    private static let refundStatements: (goodwill: [(sql: String, names: [String])], returning: [(sql: String, names: [String])]) = {
        let names = ["order", "line", "quantity", "restock", "goodwill", "reason", "at"]
        let values = SeedRefundSQL.Values(order: ":order", line: ":line", quantity: ":quantity", restock: ":restock",
                                          goodwill: ":goodwill", reason: ":reason", at: ":at")
        func named(_ statements: [String]) -> [(sql: String, names: [String])] {
            statements.map { sql in (sql, names.filter { sql.contains(":" + $0) }) }
        }
        return (named(SeedRefundSQL.goodwill(values)), named(SeedRefundSQL.returning(values)))
    }()

    func addRefund(_ refund: SeedRefund) throws {
        let arguments: [String: (any DatabaseValueConvertible)?] = [
            "order": refund.orderID, "line": refund.lineNumber, "quantity": refund.quantity, "restock": refund.restock,
            "goodwill": refund.goodwill, "reason": refund.reason, "at": refund.at,
        ]
        try SQLiteStockContext.with(.return, order: refund.orderID, note: refund.reason, at: refund.at, operator: "demo", in: db) {
            for (sql, names) in refund.lineNumber == nil ? Self.refundStatements.goodwill : Self.refundStatements.returning {
                // Each statement takes the values it names.
                var named: [String: (any DatabaseValueConvertible)?] = [:]
                for name in names { named[name] = arguments[name] ?? nil }
                try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(named))
            }
        }
    }

    func addCurrency(_ currency: CurrencyInfo) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO currencies (code, name, minor_units) VALUES (?, ?, ?)")
            .execute(arguments: [currency.code, currency.name, currency.minorUnits])
    }

    func addRate(_ rate: CurrencyRate) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO currency_rates (date, code, rate) VALUES (?, ?, ?)")
            .execute(arguments: [rate.date, rate.currency, rate.rate.normalized.description])
    }

    func setNote(_ key: String, _ value: String) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO shop_meta (key, value) VALUES (?, ?)").execute(arguments: [key, value])
    }
}

extension SQLiteStore {
    /// Seeds in one transaction (see `ShopStore.seed`); SQLite does it at once, on this thread.
    public func seed<T>(_ body: (any ShopSeeder) throws -> T) async throws(ShopError) -> T? {
        try seedNow(body)
    }

    /// One write transaction with a `SQLiteSeeder`, into a store with no products and no users.
    public func seedNow<T>(_ body: (any ShopSeeder) throws -> T) throws(ShopError) -> T? {
        let now = clock.timestamp()
        // A seed is one transaction that can outgrow the page cache many times over (5M orders:
        // gigabytes). In WAL mode every page it spills and reads again is looked up in the WAL's
        // index, newest frame tables first, which grows with the transaction (5M orders: > 9 min
        // instead of 3). With a rollback journal the spilled pages go to their place in the file
        // (a new store's pages need no journal) and are read back from there. When the mode cannot
        // change (another connection has the store open), the seed runs in WAL mode all the same.
        // The secondary indexes (orders by customer and day, lines by product…) take rows in no
        // order: 256 MiB of page cache keeps their pages in memory instead of 8 (a cache grows only
        // as far as it is used: the demo seed's stays small).
        let journal = try? database.writeWithoutTransaction { db -> String? in
            try db.execute(sql: "PRAGMA cache_size = -262144")
            return try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        defer {
            _ = try? database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = \(SQLiteStore.cacheSizePragma)")
                if journal == "delete" { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            }
        }
        return try write { db -> T? in
            guard try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)") == 0 else {
                return nil
            }
            // The search index and the sales days are built once at the end, not row by row (a
            // million products: 2 s instead of 40).
            for trigger in Schema.searchTriggers + Schema.summaryTriggers {
                try db.execute(sql: "DROP TRIGGER \(trigger.name)")
            }
            // Every product's stock comes with an opening ledger row, set once for the whole seed
            // (a seed's returns name their own).
            let seeder = SQLiteSeeder(db: db, now: now)
            let seeded = try SQLiteStockContext.with(.opening, at: seeder.openingStamp, operator: "demo", in: db) { try body(seeder) }
            if seeder.keepsAddresses { try db.execute(sql: SeedOrderAddressSQL.copyDefaults) }
            // Seeding is no operator's change: the log answers from the seeded shop on.
            try seeder.setNote(SQLiteHistoryService.startKey, now)
            try db.execute(sql: Schema.refillSummaries)
            for trigger in Schema.summaryTriggers { try db.execute(sql: trigger.sql) }
            try db.execute(sql: "INSERT INTO products_search(products_search) VALUES ('rebuild')")
            for trigger in Schema.searchTriggers { try db.execute(sql: trigger.sql) }
            try SQLiteProductService.refillSearchWords(db)
            return seeded
        }
    }
}
