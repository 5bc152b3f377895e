// PostgresSeeder: ShopSeeder on PostgreSQL. The seed's rows are gathered as JSON objects, table by
// table (the seeder protocol is synchronous, the server is not), then sent in batches of ordinary
// statements — `INSERT … SELECT … FROM json_populate_recordset(…)`, the server reading each value as
// its column's type — in one transaction. Not COPY: postgres-nio 1.33's `copyFrom` hands its
// continuation to `channel.write(…, promise: nil)`, so on a connection that has just closed the
// continuation is dropped and the seed waits forever ("leaked its continuation"), which a loaded
// test run met; a failed statement, by contrast, is an error like any other, and the transaction
// leaves the database as it was.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit
import PostgresShopSchema

/// Gathers a seed's rows, table by table, in COPY's text format.
final class PostgresSeeder: ShopSeeder {
    /// The timestamp every seeded row gets (orders bring their own).
    let now: String
    private var products = JSONRecords("products", ["id", "sku", "title", "description", "category", "brand", "price_minor",
                                                    "discount_hundredths", "stock", "rating_hundredths", "tags",
                                                    "minimum_order_quantity", "barcode", "details", "created_at", "updated_at"])
    private var reviews = JSONRecords("reviews", ["product_id", "rating", "comment", "reviewer_name", "reviewer_email", "created_at"])
    private var users = JSONRecords("users", ["id", "username", "email", "first_name", "last_name", "phone", "role", "status",
                                              "password_hash", "created_at"])
    private var addresses = JSONRecords("addresses", ["user_id", "name", "line1", "line2", "city", "state", "postal_code", "country",
                                                      "phone", "default_shipping", "default_billing", "created_at"])
    private var orders = JSONRecords("orders", ["id", "user_id", "customer", "status", "currency", "total_minor",
                                                "discounted_total_minor", "created_at", "updated_at"])
    private var orderLines = JSONRecords("order_lines", ["order_id", "line_number", "product_id", "sku", "title",
                                                         "unit_price_minor", "discount_hundredths", "quantity"])
    /// Basket lines in the order they came, quantities of repeats added up.
    private var basketOrder: [BasketKey] = []
    private var basketQuantities: [BasketKey: Int] = [:]
    private var favorites = JSONRecords("favorites", ["user_id", "product_id", "added_at"])
    private var favoriteKeys = Set<BasketKey>()
    /// ISO 4217 entries: the first one of a code wins.
    private var currencies = JSONRecords("currencies", ["code", "name", "minor_units"])
    private var currencyCodes = Set<String>()
    /// Rates: the last one for a code and day wins.
    private var rateOrder: [RateKey] = []
    private var rates: [RateKey: String] = [:]
    private var notes: [(key: String, value: String)] = []
    private var refunds: [SeedRefund] = []

    private struct BasketKey: Hashable { var user, product: Int64 }
    private struct RateKey: Hashable { var date, code: String }

    init(now: String) { self.now = now }

    func addProduct(_ product: NewProduct) throws {
        guard let id = product.id else { throw ShopError.invalidInput("a seeded product has no id") }
        products.row([String(id), product.sku, product.title, product.description, product.category, product.brand,
                      String(product.price.minorUnits), String(product.discount.hundredths), String(product.stock),
                      String(product.rating.hundredths), StoredTags.encode(product.tags),
                      String(product.minimumOrderQuantity), product.barcode, product.details.storedJSON, now, now])
        for review in product.reviews {
            reviews.row([String(id), String(review.rating), review.comment, review.reviewerName, review.reviewerEmail, review.at])
        }
    }

    func addUser(_ user: SeedUser) throws {
        users.row([String(user.id), user.fields.username, user.fields.email, user.fields.firstName, user.fields.lastName,
                   user.fields.phone, user.fields.role.rawValue, user.status.rawValue, user.passwordHash, now])
        if let address = user.address {
            // A customer's one address is their default for both uses.
            addresses.row([String(user.id), address.name, address.line1, address.line2, address.city, address.state, address.postalCode,
                           address.country, address.phone, "true", "true", now])
        }
    }

    func addBasketLine(user: Int64, product: Int64, quantity: Int) throws {
        let key = BasketKey(user: user, product: product)
        if let existing = basketQuantities[key] {
            let (sum, overflow) = existing.addingReportingOverflow(quantity)
            guard !overflow else { throw ShopError.invalidInput("a seeded basket line's quantity is too large") }
            basketQuantities[key] = sum
        } else {
            basketOrder.append(key)
            basketQuantities[key] = quantity
        }
    }

    func addFavorite(user: Int64, product: Int64) throws -> Bool {
        guard favoriteKeys.insert(BasketKey(user: user, product: product)).inserted else { return false }
        favorites.row([String(user), String(product), now])
        return true
    }

    /// Lines are written with the product's id and quantity; `finish` copies SKU, title, price
    /// and discount from the products and computes the totals, as the SQLite seeder does.
    func addOrder(_ order: SeedOrder) throws {
        orders.row([String(order.id), String(order.userID), order.customer, order.status.rawValue, "USD", "0", "0",
                    order.placedAt, order.placedAt])
        for (index, line) in order.lines.enumerated() {
            orderLines.row([String(order.id), String(index + 1), String(line.productID), "", "", "-1", "0", String(line.quantity)])
        }
    }

    func addRefund(_ refund: SeedRefund) throws {
        refunds.append(refund)
    }

    func addCurrency(_ currency: CurrencyInfo) throws {
        guard currencyCodes.insert(currency.code).inserted else { return }
        currencies.row([currency.code, currency.name, currency.minorUnits.map(String.init)])
    }

    func addRate(_ rate: CurrencyRate) throws {
        let key = RateKey(date: rate.date, code: rate.currency)
        if rates.updateValue(rate.rate.normalized.description, forKey: key) == nil { rateOrder.append(key) }
    }

    func setNote(_ key: String, _ value: String) throws {
        notes.removeAll { $0.key == key }
        notes.append((key, value))
    }

    /// Seeds through `body` into the store behind `database`, in one transaction, unless it holds
    /// products or users (then nil, nothing written). Two seeds at once: the second waits on the
    /// lock of the `application` row, then finds the store full.
    static func seed<T>(_ database: PostgresDatabase, _ body: (any ShopSeeder) throws -> T) async throws(ShopError) -> T? {
        let seeder = PostgresSeeder(now: database.clock.timestamp())
        let value: T
        do {
            value = try body(seeder)
        } catch {
            throw (error as? ShopError) ?? .invalidInput("\(error)")
        }
        let wrote = try await database.write(.seedStore, action: nil) { connection -> Bool in
            try await seeder.write(on: connection, logger: database.logger)
        }
        return wrote ? value : nil
    }

    /// The search index's and the summaries' triggers, which a seed rests while it writes…
    private static let beforeSeed = PostgresSearchSchema.beforeSeed + PostgresSalesSummarySchema.beforeSeed
        + PostgresRefundSummarySchema.beforeSeed + PostgresBasketSummarySchema.beforeSeed
        + PostgresCategorySummarySchema.beforeSeed + PostgresRefundCategorySummarySchema.beforeSeed
    /// …then each index or summary counted once from what it wrote, and the triggers back.
    private static let afterSeed = PostgresSearchSchema.afterSeed + PostgresSalesSummarySchema.afterSeed
        + PostgresRefundSummarySchema.afterSeed + PostgresBasketSummarySchema.afterSeed
        + PostgresCategorySummarySchema.afterSeed + PostgresRefundCategorySummarySchema.afterSeed

    /// Names the seed's next stock changes for the ledger: the demo's, at `at` (the owner writes
    /// `stock_context` itself; operations set only their reason).
    private static func setStockContext(_ connection: PostgresConnection, _ reason: StockReason, order: Int64?, note: String?, at: String,
                                        logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO stock_context (xact, step, reason, order_id, note, at, operator)
            SELECT pg_current_xact_id(), COALESCE(max(c.step), 0) + 1, \(reason.rawValue), \(order), \(note), \(at)::timestamptz, 'demo'
            FROM stock_context c WHERE c.xact = pg_current_xact_id()
            """, logger: logger)
    }

    /// Sends everything gathered; false, writing nothing, when the store is not empty.
    private func write(on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        _ = try await connection.query("SELECT value FROM shop_meta WHERE key = 'application' FOR UPDATE", logger: logger).collect()
        for try await count in try await connection.query(
            "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)", logger: logger
        ).decode(Int64.self) where count > 0 {
            return false
        }
        // A seed is not an operator's change: the owner marks the transaction so that the audit
        // triggers leave its rows out (only the owner may; PostgresServerRules).
        _ = try await connection.query("SELECT shopsh_mark_operation(true)", logger: logger).collect()
        var baskets = JSONRecords("basket_lines", ["user_id", "product_id", "quantity", "added_at"])
        for key in basketOrder {
            baskets.row([String(key.user), String(key.product), String(basketQuantities[key] ?? 0), now])
        }
        var rateRows = JSONRecords("currency_rates", ["date", "code", "rate"])
        for key in rateOrder { rateRows.row([key.date, key.code, rates[key]]) }
        for statement in Self.beforeSeed {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        // The demo's products came with their stock when its history begins (the ledger's opening rows).
        try await Self.setStockContext(connection, .opening, order: nil, note: nil, at: openingStamp, logger: logger)
        for records in [products, reviews, users, addresses, baskets, favorites, orders, orderLines, currencies, rateRows] {
            for statement in records.statements {
                try await connection.query(statement, logger: logger)
            }
        }
        if !orderLines.isEmpty {
            // Lines as sold: the product's SKU, title, price and discount; lines of unknown products
            // are dropped (as SQLite's INSERT … SELECT drops them). Totals as Money.discounted rounds.
            try await connection.query("""
                UPDATE order_lines SET sku = p.sku, title = p.title, unit_price_minor = p.price_minor,
                                       discount_hundredths = p.discount_hundredths
                FROM products p WHERE p.id = order_lines.product_id AND order_lines.unit_price_minor = -1
                """, logger: logger)
            try await connection.query("DELETE FROM order_lines WHERE unit_price_minor = -1", logger: logger)
            try await connection.query("""
                UPDATE orders SET total_minor = t.total, discounted_total_minor = t.discounted, items = t.items
                FROM (SELECT order_id, sum(unit_price_minor * quantity) AS total, sum(quantity) AS items,
                             sum(\(unescaped: LineTotalSQL.orderLine())) AS discounted
                      FROM order_lines GROUP BY order_id) t
                WHERE t.order_id = orders.id
                """, logger: logger)
            // Seeded orders have taken their stock (what cancelling them gives back).
            try await connection.query(PostgresQuery(unsafeSQL: PostgresAuditSchema.takenByOrders), logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: SeedOrderAddressSQL.copyDefaults), logger: logger)
        }
        let values = SeedRefundSQL.Values(order: "$1::bigint", line: "$2::integer", quantity: "$3::integer", restock: "$4::boolean",
                                          goodwill: "$5::bigint", reason: "$6::text", at: "$7::timestamptz")
        for refund in refunds {
            try await Self.setStockContext(connection, .return, order: refund.orderID, note: refund.reason, at: refund.at, logger: logger)
            for sql in refund.lineNumber == nil ? SeedRefundSQL.goodwill(values) : SeedRefundSQL.returning(values) {
                var bindings = PostgresBindings()
                // Each statement binds what it names: $1 … $n in order, the ones it uses.
                let all: [any PostgresEncodable & Sendable] = [refund.orderID, Int32(refund.lineNumber ?? 0), Int32(refund.quantity),
                                                               refund.restock, refund.goodwill, refund.reason, refund.at]
                let used = (1...7).last { sql.contains("$\($0)::") } ?? 0
                for value in all.prefix(used) { try bindings.append(value) }
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
            }
        }
        for statement in Self.afterSeed {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        for note in notes {
            try await connection.query("""
                INSERT INTO shop_meta (key, value) VALUES (\(note.key), \(note.value))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: logger)
        }
        // Seeding is no operator's change: the log answers from the seeded shop on (the time its
        // rows, basket lines among them, were stamped with).
        let historyStart = PostgresHistorySchema.startKey
        try await connection.query("""
            INSERT INTO shop_meta (key, value) VALUES (\(historyStart), \(now))
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
            """, logger: logger)
        _ = try await connection.query("SELECT shopsh_mark_operation(false)", logger: logger).collect()
        return true
    }
}

/// A table's rows as JSON objects (every value a string or null, which the server reads as the
/// column's type), in batches of `rowsPerBatch`: one INSERT each.
struct JSONRecords: Sendable {
    /// Rows one statement carries (a few MB of JSON for products).
    static let rowsPerBatch = 5_000
    /// The table and its columns: constant SQL of this file, never values.
    let table: String
    let columns: [String]
    private var batches: [String] = []
    private var current: [UInt8] = []
    private var rowsInCurrent = 0

    /// Whether no row was added.
    var isEmpty: Bool { batches.isEmpty && rowsInCurrent == 0 }

    init(_ table: String, _ columns: [String]) {
        self.table = table
        self.columns = columns
    }

    /// Adds a row: one value (nil for NULL) for each column, in order.
    mutating func row(_ fields: [String?]) {
        current.append(rowsInCurrent == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        current.append(UInt8(ascii: "{"))
        for (index, column) in columns.enumerated() {
            if index > 0 { current.append(UInt8(ascii: ",")) }
            Self.appendString(column, to: &current)
            current.append(UInt8(ascii: ":"))
            if index < fields.count, let field = fields[index] {
                Self.appendString(field, to: &current)
            } else {
                current.append(contentsOf: "null".utf8)
            }
        }
        current.append(UInt8(ascii: "}"))
        rowsInCurrent += 1
        if rowsInCurrent == Self.rowsPerBatch { closeBatch() }
    }

    private mutating func closeBatch() {
        guard rowsInCurrent > 0 else { return }
        current.append(UInt8(ascii: "]"))
        batches.append(String(decoding: current, as: UTF8.self))
        current = []
        rowsInCurrent = 0
    }

    /// The INSERTs that write every row, the JSON bound as a value.
    var statements: [PostgresQuery] {
        var all = self
        all.closeBatch()
        let names = columns.joined(separator: ", ")
        let sql = "INSERT INTO \(table) (\(names)) SELECT \(names) FROM json_populate_recordset(NULL::\(table), $1::json)"
        return all.batches.map { batch in
            var bindings = PostgresBindings()
            bindings.append(batch)
            return PostgresQuery(unsafeSQL: sql, binds: bindings)
        }
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
