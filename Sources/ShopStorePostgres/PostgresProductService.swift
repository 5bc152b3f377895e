// PostgresProductService: the catalogue on PostgreSQL. Every value reaches the server as a bound
// parameter (PostgresQuery's string interpolation); the only text spliced into SQL is constant
// (sort expressions picked from a fixed table). Listings stream row by row from the server.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// Products, categories, stock and imports on a PostgreSQL server.
struct PostgresProductService: ProductService {
    let database: PostgresDatabase

    /// The columns every product query reads, in the order `product(_:)` decodes them.
    static let columns = ProductColumns.all

    /// A product as its columns decode.
    typealias ProductRow = (Int64, String, String, String, String, String?, Int64, Int, Int, Int, String, Int, String?, String, Int, Int)

    /// Output field name → SQL expression, for `--sort`. Text sorts by code point (`COLLATE "C"`) and
    /// case-insensitively where SQLite's `NOCASE` does, so both stores list in one order.
    static let sortColumns: [String: String] = [
        "id": "id", "sku": "sku COLLATE \"C\"", "title": "lower(title) COLLATE \"C\"", "category": "category COLLATE \"C\"",
        "brand": "lower(brand) COLLATE \"C\"", "price": "price_minor", "discount_percentage": "discount_hundredths",
        "stock": "stock", "rating": "rating_hundredths", "barcode": "barcode",
        "review_count": ProductColumns.reviewCount(), "reviews": ProductColumns.reviewCount(),
    ]

    // MARK: - Reading

    func listProducts(_ filter: ProductFilter, page: Page, _ body: (Product) throws -> Void) async throws {
        try await list(filter, search: try await searchCondition(filter.search), page: page, body)
    }

    /// The products passing `filter`, with `search` (the filter's search, read against the index)
    /// in place of its text, in `page` order, streaming.
    func list(_ filter: ProductFilter, search: SearchCondition?, page: Page, _ body: (Product) throws -> Void) async throws {
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: "id")
        let parts = FilterParts(filter, search: search)
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        // Each row as one cell, its record's text (PostgresRecordText): a twelfth of the cells.
        try await database.forEachRow("listing products", query: { _ in """
            SELECT ROW(\(unescaped: ProductColumns.list(for: filter)))::text FROM products
            WHERE \(matching: parts)
            ORDER BY \(unescaped: terms)
            LIMIT \(limit) OFFSET \(offset)
            """ }) { row in
            var cells = row.makeIterator()
            try body(Self.product(record: cells.next()?.bytes))
        }
    }

    func countProducts(_ filter: ProductFilter) async throws -> Int {
        let parts = FilterParts(filter, search: try await searchCondition(filter.search))
        return try await database.read("counting products") { connection in
            let rows = try await connection.query("""
                SELECT count(*) FROM products
                WHERE \(matching: parts)
                """, logger: database.logger)
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }

    func product(_ reference: String) async throws -> Product {
        try await database.read("reading a product") { connection in
            try await Self.find(connection, reference, logger: database.logger)
        }
    }

    func categories() async throws -> [Category] {
        try await database.read("listing categories") { connection in
            var categories: [Category] = []
            let rows = try await connection.query(
                "SELECT category, count(*) FROM products GROUP BY category ORDER BY category COLLATE \"C\"",
                logger: database.logger)
            for try await (slug, count) in rows.decode((String, Int).self) {
                categories.append(Category(slug: slug, productCount: count))
            }
            return categories
        }
    }

    // MARK: - Writing

    func addProduct(_ new: NewProduct) async throws -> Product {
        try await database.write(.addProduct, action: "add") { connection in
            try await Self.insert(connection, new, stamp: database.clock.timestamp(), logger: database.logger)
        }
    }

    func updateProduct(_ reference: String, _ changes: ProductChanges) async throws -> Product {
        guard !changes.isEmpty else { throw ShopError.usage("nothing to update: no field is given") }
        return try await database.write(.updateProduct, action: "update") { connection in
            let product = try await Self.find(connection, reference, lock: true, logger: database.logger)
            try await Self.nameStockChange(connection, StockChangeNote.ofProductUpdate, logger: database.logger)
            try await Self.apply(connection, changes, to: product.id, stamp: database.clock.timestamp(), logger: database.logger)
            return try await Self.find(connection, String(product.id), logger: database.logger)
        }
    }

    func applyProductChanges(_ plans: [ProductChangePlan]) async throws -> Int64? {
        guard !plans.isEmpty else { return nil }
        return try await database.write(.updateProduct, action: "update") { connection in
            let stamp = database.clock.timestamp()
            try await Self.nameStockChange(connection, StockChangeNote.ofProductUpdate, logger: database.logger)
            if plans.contains(where: { $0.changes.sku != nil || $0.changes.barcode != nil }) {
                // SKUs and barcodes are checked against the other products one by one.
                for plan in plans {
                    let current = try await Self.find(connection, String(plan.before.id), lock: true, logger: database.logger)
                    try plan.checkUnchanged(current)
                    try await Self.apply(connection, plan.changes, to: current.id, stamp: stamp, logger: database.logger)
                }
            } else {
                try await Self.applyAtOnce(connection, plans, stamp: stamp, logger: database.logger)
            }
            for try await changeSet in try await connection.query(
                "SELECT pg_current_xact_id()::text::bigint", logger: database.logger).decode(Int64.self) {
                return changeSet
            }
            return nil
        }
    }

    func deleteProduct(_ reference: String) async throws -> Product {
        try await database.write(.deleteProduct, action: "delete") { connection in
            let product = try await Self.find(connection, reference, lock: true, logger: database.logger)
            try await connection.query("DELETE FROM products WHERE id = \(product.id)", logger: database.logger)
            return product
        }
    }

    func stockHistory(_ reference: String) async throws -> [StockMovement] {
        try await database.read("reading the stock ledger") { connection in
            let product = try await Self.find(connection, reference, logger: database.logger)
            var rows: [StockMovement] = []
            for try await row in try await connection.query("""
                SELECT id, product_id, floor(extract(epoch FROM at))::bigint, operator, change, balance, reason, order_id, note
                FROM stock_ledger WHERE product_id = \(product.id) ORDER BY id
                """, logger: database.logger).decode((Int64, Int64, Int64, String, Int64, Int64, String, Int64?, String?).self) {
                rows.append(StockMovement(id: row.0, productID: row.1, at: ShopClock.timestamp(row.2), operatorName: row.3, change: row.4,
                                          balance: row.5, reason: row.6, orderID: row.7, note: row.8))
            }
            return rows
        }
    }

    /// Names the reason (and note) of this transaction's stock changes for the ledger's trigger.
    static func nameStockChange(_ connection: PostgresConnection, _ reason: StockReason, note: String? = nil, logger: Logger) async throws {
        _ = try await connection.query("SELECT shopsh_name_stock_change(\(reason.rawValue), \(note))", logger: logger).collect()
    }

    /// Names a product update's reason and note (StockChangeNote.ofProductUpdate).
    static func nameStockChange(_ connection: PostgresConnection, _ update: StockChangeNote, logger: Logger) async throws {
        try await nameStockChange(connection, update.reason, note: update.note, logger: logger)
    }

    /// Reads the row `FOR UPDATE`, so two adjustments at once never lose one another.
    func adjustStock(_ reference: String, _ change: StockChange, reason: StockReason, note: String?) async throws -> Product {
        if let product = try await stockInOneStatement(reference, change, reason: reason, note: note) { return product }
        return try await database.write(.adjustStock, action: "stock") { connection in
            let product = try await Self.find(connection, reference, lock: true, logger: database.logger)
            let newStock = try change.applied(to: product)
            try await Self.nameStockChange(connection, reason, note: note, logger: database.logger)
            let stamp = database.clock.timestamp()
            try await connection.query("UPDATE products SET stock = \(newStock), updated_at = \(stamp)::timestamptz WHERE id = \(product.id)",
                                       logger: database.logger)
            var updated = product
            updated.stock = newStock
            return updated
        }
    }

    /// `products stock` in one statement: the product by id, else by SKU; the change applied only
    /// when the result stays in range (as `StockChange.applied`); the command named for the audit
    /// trigger in the same statement, its lock wait bounded outside a run (`oneCallLockWait`). nil
    /// when it changed nothing (the step-by-step path then says why) or when the session is not
    /// an admin's (support's refusal would end a run).
    private func stockInOneStatement(_ reference: String, _ change: StockChange, reason: StockReason,
                                     note: String?) async throws(ShopError) -> Product? {
        guard database.session.identity?.role == .admin, !database.session.isReadOnly else { return nil }
        let amount: Int, newStock: String, allowed: String
        switch change {
        case .add(let value): (amount, newStock, allowed) = (value, "p.stock + c.amount", "p.stock + c.amount <= \(ProductLimits.maxStock)")
        case .remove(let value): (amount, newStock, allowed) = (value, "p.stock - c.amount", "c.amount <= p.stock")
        case .set(let value): (amount, newStock, allowed) = (value, "c.amount", "true")
        }
        guard (0...ProductLimits.maxStock).contains(amount) else { return nil }
        let trimmed = reference.trimmingASCIISpaces
        let command = AuditContext.current?.command ?? ""
        let stamp = database.clock.timestamp()
        let changed: Product?? = try await database.change(.adjustStock) { connection, keepingReceipt -> Product? in
            for try await row in try await connection.query("""
                WITH named AS (SELECT shopsh_name_command(\(command), 'stock'), shopsh_name_stock_change(\(reason.rawValue), \(note)),
                                      CASE WHEN \(database.oneCallLockWait)::text IS NOT NULL
                                           THEN set_config('lock_timeout', \(database.oneCallLockWait), true) END),
                c AS (SELECT \(Int64(amount))::bigint AS amount,
                             COALESCE((SELECT id FROM products WHERE id = \(Int64(trimmed))::bigint),
                                      (SELECT id FROM products WHERE lower(sku) = lower(\(trimmed))),
                                      (SELECT id FROM products WHERE barcode = \(Barcode.stored(trimmed)))) AS target_id)
                UPDATE products p SET stock = \(unescaped: newStock), updated_at = \(stamp)::timestamptz
                FROM named, c
                WHERE p.id = c.target_id AND \(unescaped: allowed) AND \(unescaped: keepingReceipt)
                RETURNING ROW(\(unescaped: ProductColumns.all(alias: "p")))::text
                """, logger: database.logger) {
                var cells = row.makeIterator()
                return try Self.product(record: cells.next()?.bytes)
            }
            return nil
        }
        return changed ?? nil
    }

    func importProducts(_ products: [NewProduct]) async throws -> ImportSummary {
        try await database.write(.importProducts, action: "import") { connection in
            try await Self.nameStockChange(connection, .import, logger: database.logger)
            var summary = ImportSummary(inserted: 0, updated: 0)
            let stamp = database.clock.timestamp()
            for (offset, new) in products.enumerated() {
                do {
                    try ProductRules.check(new)
                    if let sku = new.sku, let existing = try await Self.id(connection, sku: sku, logger: database.logger) {
                        try await Self.checkBarcodeFree(connection, new.barcode, for: existing, logger: database.logger)
                        // Every field from the record, in one statement (one audit row); no brand clears it.
                        try await connection.query("""
                            UPDATE products SET title = \(new.title), description = \(new.description), category = \(new.category),
                                   brand = NULLIF(\(new.brand), ''), price_minor = \(new.price.minorUnits),
                                   discount_hundredths = \(new.discount.hundredths), stock = \(new.stock),
                                   rating_hundredths = \(new.rating.hundredths), tags = \(StoredTags.encode(new.tags)),
                                   minimum_order_quantity = \(new.minimumOrderQuantity), barcode = \(new.barcode),
                                   details = \(new.details.storedJSON), updated_at = \(stamp)::timestamptz
                            WHERE id = \(existing)
                            """, logger: database.logger)
                        summary.updated += 1
                    } else {
                        try await Self.insert(connection, new, stamp: stamp, logger: database.logger)
                        summary.inserted += 1
                    }
                } catch let error as ShopError {
                    throw ShopError.invalidInput("record \(offset + 1): \(error.message)")
                }
            }
            return summary
        }
    }

    // MARK: - Shared SQL

    /// Inserts `new` with a free id (the one asked for when free) and SKU. Ids are allocated under
    /// a lock on the `shop_meta` row `application` (no sequence: imports bring their own ids).
    @discardableResult
    static func insert(_ connection: PostgresConnection, _ new: NewProduct, stamp: String, logger: Logger) async throws -> Product {
        try ProductRules.check(new)
        if let sku = new.sku {
            try ProductRules.checkSKU(sku)
            if try await id(connection, sku: sku, logger: logger) != nil {
                throw ShopError.conflict("a product with SKU \(sku) already exists")
            }
        }
        _ = try await connection.query("SELECT key FROM shop_meta WHERE key = 'application' FOR UPDATE", logger: logger).collect()
        let id: Int64
        if let requested = new.id, try await !exists(connection, id: requested, logger: logger) {
            id = requested
        } else {
            id = try await nextID(connection, logger: logger)
        }
        let sku: String
        if let given = new.sku {
            sku = given
        } else {
            sku = try await freeSKU(connection, category: new.category, id: id, logger: logger)
        }
        try await checkBarcodeFree(connection, new.barcode, for: id, logger: logger)
        try await connection.query("""
            INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths,
                                  stock, rating_hundredths, tags, minimum_order_quantity, barcode, details, created_at, updated_at)
            VALUES (\(id), \(sku), \(new.title), \(new.description), \(new.category), \(new.brand), \(new.price.minorUnits),
                    \(new.discount.hundredths), \(new.stock), \(new.rating.hundredths), \(StoredTags.encode(new.tags)),
                    \(new.minimumOrderQuantity), \(new.barcode), \(new.details.storedJSON), \(stamp)::timestamptz, \(stamp)::timestamptz)
            """, logger: logger)
        if !new.reviews.isEmpty {
            // One statement for all of them: arrays, unnested in step.
            try await connection.query("""
                INSERT INTO reviews (product_id, rating, comment, reviewer_name, reviewer_email, created_at)
                SELECT \(id), r.rating, r.comment, r.name, r.email, r.at::timestamptz
                FROM unnest(\(new.reviews.map(\.rating))::integer[], \(new.reviews.map(\.comment))::text[],
                            \(new.reviews.map(\.reviewerName))::text[], \(new.reviews.map(\.reviewerEmail))::text[],
                            \(new.reviews.map(\.at))::text[]) WITH ORDINALITY AS r(rating, comment, name, email, at, n)
                ORDER BY r.n
                """, logger: logger)
        }
        return try await find(connection, String(id), logger: logger)
    }

    /// Applies `changes` (nil fields stay; an empty brand clears it) in one UPDATE.
    static func apply(_ connection: PostgresConnection, _ changes: ProductChanges, to id: Int64, stamp: String,
                      logger: Logger) async throws {
        try ProductRules.check(changes)
        if let sku = changes.sku, let other = try await self.id(connection, sku: sku, logger: logger), other != id {
            throw ShopError.conflict("SKU \(sku) already belongs to product \(other)")
        }
        if let barcode = changes.barcode, !barcode.isEmpty { try await checkBarcodeFree(connection, barcode, for: id, logger: logger) }
        guard !changes.isEmpty else { return }
        try await connection.query("""
            UPDATE products SET
                sku = COALESCE(\(changes.sku), sku),
                title = COALESCE(\(changes.title), title),
                description = COALESCE(\(changes.description), description),
                category = COALESCE(\(changes.category), category),
                brand = CASE WHEN \(changes.brand)::text IS NULL THEN brand
                             WHEN \(changes.brand) = '' THEN NULL ELSE \(changes.brand) END,
                price_minor = COALESCE(\(changes.price?.minorUnits), price_minor),
                discount_hundredths = COALESCE(\(changes.discount?.hundredths), discount_hundredths),
                stock = COALESCE(\(changes.stock), stock),
                barcode = CASE WHEN \(changes.barcode)::text IS NULL THEN barcode
                               WHEN \(changes.barcode) = '' THEN NULL ELSE \(changes.barcode) END,
                details = COALESCE(\(changes.details?.storedJSON), details),
                updated_at = \(stamp)::timestamptz
            WHERE id = \(id)
            """, logger: logger)
    }

    /// A bulk change that names no SKU or barcode, set-based: every product of `plans` read and
    /// locked by one statement (in id order) and checked against its plan, then every change made
    /// by one UPDATE from the plans as JSON rows — a constant number of round trips, however many
    /// products. The server's triggers audit each row under the transaction's change set.
    static func applyAtOnce(_ connection: PostgresConnection, _ plans: [ProductChangePlan], stamp: String,
                            logger: Logger) async throws {
        let ids = plans.map(\.before.id)
        var current: [Int64: Product] = [:]
        for try await row in try await connection.query(
            "SELECT \(unescaped: columns) FROM products WHERE id = ANY(\(ids)::bigint[]) ORDER BY id FOR UPDATE", logger: logger
        ) {
            let product = try product(row)
            current[product.id] = product
        }
        var rows: [[String: Any]] = []
        for plan in plans {
            guard let product = current[plan.before.id] else { throw ProductRules.noProduct(String(plan.before.id)) }
            try plan.checkUnchanged(product)
            try ProductRules.check(plan.changes)
            let changes = plan.changes
            guard !changes.isEmpty else { continue }
            var row: [String: Any] = ["id": product.id]
            row["title"] = changes.title
            row["description"] = changes.description
            row["category"] = changes.category
            row["brand"] = changes.brand
            row["price_minor"] = changes.price?.minorUnits
            row["discount_hundredths"] = changes.discount?.hundredths
            row["stock"] = changes.stock
            row["details"] = changes.details?.storedJSON
            rows.append(row)
        }
        guard !rows.isEmpty else { return }
        let data = try JSONSerialization.data(withJSONObject: rows)
        let json = String(decoding: data, as: UTF8.self)
        // Only the columns some plan changes are assigned: an assigned column fires its
        // column triggers (stock's ledger, a call per row) even where it keeps its value.
        let assignments = bulkAssignments.filter { column, _ in rows.contains { $0[column] != nil } }
            .map { column, value in "\(column) = \(value)," }.joined(separator: "\n")
        try await connection.query("""
            UPDATE products p SET
                \(unescaped: assignments)
                updated_at = \(stamp)::timestamptz
            FROM jsonb_to_recordset(\(json)::jsonb) AS v(id BIGINT, title TEXT, description TEXT, category TEXT, brand TEXT,
                                                        price_minor BIGINT, discount_hundredths INTEGER, stock INTEGER, details TEXT)
            WHERE p.id = v.id
            """, logger: logger)
    }

    /// The columns a bulk change may set (constant SQL), each from its plans' row `v`, where a
    /// row without it keeps the product's value.
    static let bulkAssignments: [(column: String, value: String)] = [
        ("title", "COALESCE(v.title, p.title)"),
        ("description", "COALESCE(v.description, p.description)"),
        ("category", "COALESCE(v.category, p.category)"),
        ("brand", "CASE WHEN v.brand IS NULL THEN p.brand WHEN v.brand = '' THEN NULL ELSE v.brand END"),
        ("price_minor", "COALESCE(v.price_minor, p.price_minor)"),
        ("discount_hundredths", "COALESCE(v.discount_hundredths, p.discount_hundredths)"),
        ("stock", "COALESCE(v.stock, p.stock)"),
        ("details", "COALESCE(v.details, p.details)"),
    ]

    /// The id after the highest one or, once that reaches the end of `ProductLimits.idRange`,
    /// the lowest free one.
    static func nextID(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var highest: Int64 = 0
        for try await value in try await connection.query("SELECT COALESCE(max(id), 0) FROM products", logger: logger)
            .decode(Int64.self) { highest = value }
        if highest < ProductLimits.idRange.upperBound { return max(highest, 0) + 1 }
        let upper = ProductLimits.idRange.upperBound
        for try await value in try await connection.query("""
            SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM products WHERE id = 1) THEN 1 ELSE
                (SELECT min(p.id) + 1 FROM products p
                 WHERE p.id >= 1 AND p.id < \(upper) AND NOT EXISTS (SELECT 1 FROM products q WHERE q.id = p.id + 1)) END
            """, logger: logger).decode(Int64?.self) {
            if let value { return value }
        }
        throw ShopError.conflict("no product id is free (ids run from 1 to \(upper))")
    }

    /// `ProductRules.makeSKU`, with `-2`, `-3`… appended while another product has it.
    static func freeSKU(_ connection: PostgresConnection, category: String, id: Int64, logger: Logger) async throws -> String {
        let base = ProductRules.makeSKU(category: category, id: id)
        var candidate = base
        var suffix = 1
        while try await self.id(connection, sku: candidate, logger: logger) != nil {
            suffix += 1
            candidate = base + "-\(suffix)"
        }
        return candidate
    }

    /// The id of the product with `sku` (compared without regard to case, as SQLite's NOCASE).
    static func id(_ connection: PostgresConnection, sku: String, logger: Logger) async throws -> Int64? {
        for try await id in try await connection.query("SELECT id FROM products WHERE lower(sku) = lower(\(sku))",
                                                       logger: logger).decode(Int64.self) {
            return id
        }
        return nil
    }

    static func exists(_ connection: PostgresConnection, id: Int64, logger: Logger) async throws -> Bool {
        for try await _ in try await connection.query("SELECT 1 FROM products WHERE id = \(id)", logger: logger) {
            return true
        }
        return false
    }

    /// Refuses `barcode` when another product than `id` has it.
    static func checkBarcodeFree(_ connection: PostgresConnection, _ barcode: String?, for id: Int64, logger: Logger) async throws {
        guard let barcode else { return }
        for try await other in try await connection.query(
            "SELECT id FROM products WHERE barcode = \(barcode) AND id <> \(id)", logger: logger).decode(Int64.self) {
            throw ShopError.conflict("barcode \(barcode) already belongs to product \(other)")
        }
    }

    /// The product whose id, SKU or barcode is `reference` (in that order); `lock` reads it `FOR UPDATE`.
    static func find(_ connection: PostgresConnection, _ reference: String, lock: Bool = false,
                     logger: Logger) async throws -> Product {
        let trimmed = reference.trimmingASCIISpaces
        let locking = lock ? " FOR UPDATE" : ""
        if let id = Int64(trimmed) {
            for try await row in try await connection.query(
                "SELECT \(unescaped: columns) FROM products WHERE id = \(id)\(unescaped: locking)", logger: logger
            ) {
                return try product(row)
            }
        }
        for try await row in try await connection.query(
            "SELECT \(unescaped: columns) FROM products WHERE lower(sku) = lower(\(trimmed))\(unescaped: locking)", logger: logger
        ) {
            return try product(row)
        }
        if let barcode = Barcode.stored(trimmed) {
            for try await row in try await connection.query(
                "SELECT \(unescaped: columns) FROM products WHERE barcode = \(barcode)\(unescaped: locking)", logger: logger
            ) {
                return try product(row)
            }
        }
        throw ProductRules.noProduct(reference)
    }

    // MARK: - Rows and filters

    /// A product from a row of `columns`, decoded cell by cell. postgres-nio's
    /// `rows.decode(ProductRow.self)` is a variadic generic that is not specialized across modules:
    /// it asks the Swift runtime for tuple and generic metadata on every row (a sixth of a 1M-row
    /// export in perf); each `PostgresCell.decode` here is inlined for its concrete type.
    static func product(_ row: PostgresRow) throws -> Product {
        var cells = Cells(row)
        return product((try cells.next(Int64.self), try cells.next(String.self), try cells.next(String.self),
                        try cells.next(String.self), try cells.next(String.self), try cells.next(String?.self),
                        try cells.next(Int64.self), try cells.next(Int.self), try cells.next(Int.self),
                        try cells.next(Int.self), try cells.next(String.self), try cells.next(Int.self),
                        try cells.next(String?.self), try cells.next(String.self), try cells.next(Int.self), try cells.next(Int.self)))
    }

    /// A product from its record's text (`ROW(columns)::text`).
    static func product(record: ByteBuffer?) throws(ShopError) -> Product {
        try PostgresRecordText.read(record) { fields throws(ShopError) in
            product((try fields.integer(), try fields.text(), try fields.text(), try fields.text(), try fields.text(),
                     try fields.nextText(), try fields.integer(), try fields.int(), try fields.int(), try fields.int(),
                     try fields.text(), try fields.int(), try fields.nextText(), try fields.text(), try fields.int(), try fields.int()))
        }
    }

    /// A row's cells, decoded one after another.
    struct Cells {
        private var iterator: PostgresRow.Iterator

        init(_ row: PostgresRow) { iterator = row.makeIterator() }

        @inline(__always)
        mutating func next<T: PostgresDecodable>(_: T.Type) throws -> T {
            guard let cell = iterator.next() else { throw ShopError.storage("the server sent a row with too few columns") }
            return try cell.decode(T.self)
        }
    }

    static func product(_ row: ProductRow) -> Product {
        Product(id: row.0, sku: row.1, title: row.2, description: row.3, category: row.4, brand: row.5,
                price: Money(minorUnits: row.6, currency: .usd), discount: Percentage(hundredths: row.7),
                stock: row.8, rating: Rating(hundredths: row.9), tags: StoredTags.decode(row.10),
                minimumOrderQuantity: row.11, barcode: row.12, details: ProductDetails(storedJSON: row.13),
                reviews: ReviewSummary(count: row.14, ratingTotal: row.15))
    }

    /// A filter's values, each nil when the filter does not use it (the SQL tests `IS NULL`).
    struct FilterParts {
        var category: String?
        /// The search's text as an id or SKU, and its words as a tsquery (nil: no search; no words).
        var reference: String?
        var referenceID: Int64
        var tsquery: String?
        var minPrice: Int64?
        var maxPrice: Int64?
        var inStockOnly: Bool
        var brand: String?
        var stockBelow: Int?
        var minRating: Int?
        /// The search's text as a barcode (nil: not one).
        var barcode: String?
        /// `--ids`' ranges as their starts and ends (nil: no such filter).
        var idStarts: [Int64]?
        var idEnds: [Int64]?

        /// Whether it filters on more than `shopsh_title_matches` takes (category, prices, stock).
        var hasFiltersBeyondTitleMatches: Bool { brand != nil || stockBelow != nil || idStarts != nil || minRating != nil }

        /// `filter`'s values, its search given as `search` (nil: none).
        init(_ filter: ProductFilter, search: SearchCondition?) {
            category = filter.category
            reference = search?.reference
            referenceID = search?.referenceID ?? 0
            tsquery = search.flatMap { $0.matches.isEmpty ? nil : PostgresProductService.tsquery($0.matches) }
            minPrice = filter.minPrice?.minorUnits
            maxPrice = filter.maxPrice?.minorUnits
            inStockOnly = filter.inStockOnly
            brand = filter.brand
            stockBelow = filter.stockBelow
            minRating = filter.minRating?.hundredths
            barcode = search.flatMap { Barcode.stored($0.reference) }
            idStarts = filter.ids?.map(\.lowerBound)
            idEnds = filter.ids?.map(\.upperBound)
        }
    }
}

extension PostgresQuery.StringInterpolation {
    /// A listing's filter as one WHERE condition, every value bound (listing and counting share it).
    mutating func appendInterpolation(matching parts: PostgresProductService.FilterParts) {
        appendLiteral("(")
        appendInterpolation(parts.category)
        appendLiteral("::text IS NULL OR category = ")
        appendInterpolation(parts.category)
        appendLiteral(") AND (")
        appendInterpolation(parts.reference)
        appendLiteral("::text IS NULL OR id = ")
        appendInterpolation(parts.referenceID)
        appendLiteral(" OR lower(sku) = lower(")
        appendInterpolation(parts.reference)
        appendLiteral(") OR barcode = ")
        appendInterpolation(parts.barcode)
        appendLiteral(" OR search_words @@ to_tsquery('simple', ")
        appendInterpolation(parts.tsquery)
        appendLiteral(")")
        appendLiteral(") AND (")
        appendInterpolation(parts.minPrice)
        appendLiteral("::bigint IS NULL OR price_minor >= ")
        appendInterpolation(parts.minPrice)
        appendLiteral(") AND (")
        appendInterpolation(parts.maxPrice)
        appendLiteral("::bigint IS NULL OR price_minor <= ")
        appendInterpolation(parts.maxPrice)
        appendLiteral(") AND (NOT ")
        appendInterpolation(parts.inStockOnly)
        appendLiteral(" OR stock > 0) AND (")
        appendInterpolation(parts.brand)
        appendLiteral("::text IS NULL OR lower(brand) = lower(")
        appendInterpolation(parts.brand)
        appendLiteral(")) AND (")
        appendInterpolation(parts.stockBelow)
        appendLiteral("::bigint IS NULL OR stock < ")
        appendInterpolation(parts.stockBelow)
        appendLiteral(") AND (")
        appendInterpolation(parts.minRating)
        appendLiteral("::integer IS NULL OR rating_hundredths >= ")
        appendInterpolation(parts.minRating)
        appendLiteral(") AND (")
        appendInterpolation(parts.idStarts)
        appendLiteral("::bigint[] IS NULL OR EXISTS (SELECT 1 FROM unnest(")
        appendInterpolation(parts.idStarts)
        appendLiteral("::bigint[], ")
        appendInterpolation(parts.idEnds)
        appendLiteral("::bigint[]) AS r(low, high) WHERE id BETWEEN r.low AND r.high))")
    }
}
