// PostgresSeeder: ShopSeeder on PostgreSQL. The seed's rows are gathered as COPY text (the seeder
// protocol is synchronous, the server is not), then sent with `COPY … FROM STDIN` in one
// transaction — the demo shop in well under a second, a million products in a minute or so.

import Logging
import NIOCore
import PostgresNIO
import ShopCore

/// Gathers a seed's rows, table by table, in COPY's text format.
final class PostgresSeeder: ShopSeeder {
    /// The timestamp every seeded row gets (orders bring their own).
    private let now: String
    private var products = CopyText()
    private var users = CopyText()
    private var orders = CopyText()
    private var orderLines = CopyText()
    /// Basket lines in the order they came, quantities of repeats added up.
    private var basketOrder: [BasketKey] = []
    private var basketQuantities: [BasketKey: Int] = [:]
    private var favorites = CopyText()
    private var favoriteKeys = Set<BasketKey>()
    /// ISO 4217 entries: the first one of a code wins.
    private var currencies = CopyText()
    private var currencyCodes = Set<String>()
    /// Rates: the last one for a code and day wins.
    private var rateOrder: [RateKey] = []
    private var rates: [RateKey: String] = [:]
    private var notes: [(key: String, value: String)] = []

    private struct BasketKey: Hashable { var user, product: Int64 }
    private struct RateKey: Hashable { var date, code: String }

    init(now: String) { self.now = now }

    func addProduct(_ product: NewProduct) throws {
        guard let id = product.id else { throw ShopError.invalidInput("a seeded product has no id") }
        products.row([String(id), product.sku, product.title, product.description, product.category, product.brand,
                      String(product.price.minorUnits), String(product.discount.hundredths), String(product.stock),
                      String(product.rating.hundredths), StoredTags.encode(product.tags),
                      String(product.minimumOrderQuantity), now, now])
    }

    func addUser(_ user: SeedUser) throws {
        users.row([String(user.id), user.fields.username, user.fields.email, user.fields.firstName, user.fields.lastName,
                   user.fields.phone, user.fields.role.rawValue, user.status.rawValue, user.passwordHash, now])
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
        let wrote = try await database.write("writing the seed", action: nil) { connection -> Bool in
            try await seeder.write(on: connection, logger: database.logger)
        }
        return wrote ? value : nil
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
        try await connection.query("INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id())", logger: logger)
        var baskets = CopyText()
        for key in basketOrder {
            baskets.row([String(key.user), String(key.product), String(basketQuantities[key] ?? 0), now])
        }
        var rateRows = CopyText()
        for key in rateOrder { rateRows.row([key.date, key.code, rates[key]]) }
        let tables: [(String, [String], CopyText)] = [
            ("products", ["id", "sku", "title", "description", "category", "brand", "price_minor", "discount_hundredths", "stock",
                          "rating_hundredths", "tags", "minimum_order_quantity", "created_at", "updated_at"], products),
            ("users", ["id", "username", "email", "first_name", "last_name", "phone", "role", "status", "password_hash",
                       "created_at"], users),
            ("basket_lines", ["user_id", "product_id", "quantity", "added_at"], baskets),
            ("favorites", ["user_id", "product_id", "added_at"], favorites),
            ("orders", ["id", "user_id", "customer", "status", "currency", "total_minor", "discounted_total_minor",
                        "created_at", "updated_at"], orders),
            ("order_lines", ["order_id", "line_number", "product_id", "sku", "title", "unit_price_minor",
                             "discount_hundredths", "quantity"], orderLines),
            ("currencies", ["code", "name", "minor_units"], currencies),
            ("currency_rates", ["date", "code", "rate"], rateRows),
        ]
        for (table, columns, text) in tables where !text.isEmpty {
            try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                try await text.send(to: writer)
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
                UPDATE orders SET total_minor = t.total, discounted_total_minor = t.discounted
                FROM (SELECT order_id, sum(unit_price_minor * quantity) AS total,
                             sum((unit_price_minor * quantity * (10000 - discount_hundredths) + 5000) / 10000) AS discounted
                      FROM order_lines GROUP BY order_id) t
                WHERE t.order_id = orders.id
                """, logger: logger)
            // Seeded orders have taken their stock (what cancelling them gives back).
            try await connection.query(PostgresQuery(unsafeSQL: PostgresAuditSchema.takenByOrders), logger: logger)
        }
        for note in notes {
            try await connection.query("""
                INSERT INTO shop_meta (key, value) VALUES (\(note.key), \(note.value))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """, logger: logger)
        }
        try await connection.query("DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id()", logger: logger)
        return true
    }
}

/// Rows in COPY's text format: tab-separated, `\N` for NULL, backslash escapes for the rest.
struct CopyText: Sendable {
    /// Sent in pieces of about this many bytes.
    static let chunkSize = 1 << 20
    private var chunks: [ByteBuffer] = []
    private var current = ByteBuffer()

    var isEmpty: Bool { chunks.isEmpty && current.readableBytes == 0 }

    mutating func row(_ fields: [String?]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { current.writeInteger(UInt8(ascii: "\t")) }
            guard let field else {
                current.writeStaticString("\\N")
                continue
            }
            // Most fields need no escape: written whole.
            guard field.utf8.contains(where: Self.needsEscape) else {
                current.writeString(field)
                continue
            }
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): current.writeStaticString("\\\\")
                case UInt8(ascii: "\t"): current.writeStaticString("\\t")
                case UInt8(ascii: "\n"): current.writeStaticString("\\n")
                case UInt8(ascii: "\r"): current.writeStaticString("\\r")
                default: current.writeInteger(byte)
                }
            }
        }
        current.writeInteger(UInt8(ascii: "\n"))
        if current.readableBytes >= Self.chunkSize {
            chunks.append(current)
            current = ByteBuffer()
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    func send(to writer: PostgresCopyFromWriter) async throws {
        for chunk in chunks { try await writer.write(chunk) }
        if current.readableBytes > 0 { try await writer.write(current) }
    }
}
