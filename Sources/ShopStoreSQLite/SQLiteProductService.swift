// SQLiteProductService: the catalogue on SQLite. Listings stream from a cursor.

import GRDB
import ShopCore
import ShopStoreKit

/// `ProductService` on a SQLite store.
struct SQLiteProductService: ProductService {
    let database: DatabaseQueue
    let clock: ShopClock

    /// The columns every product query reads, in the order `product(_:)` decodes them.
    static let columns = ProductColumns.all

    /// Output field name → SQL expression, for `--sort`.
    static let sortColumns: [String: String] = [
        "id": "id", "sku": "sku", "title": "title COLLATE NOCASE", "category": "category",
        "brand": "brand COLLATE NOCASE", "price": "price_minor", "discount_percentage": "discount_hundredths",
        "stock": "stock", "rating": "rating_hundredths", "barcode": "barcode",
        "review_count": ProductColumns.reviewCount(), "reviews": ProductColumns.reviewCount(),
    ]

    // MARK: - Reading

    func listProducts(_ filter: ProductFilter, page: Page, _ body: (Product) throws -> Void) async throws {
        try database.shopRead { db in
            try Self.list(db, filter, search: try Self.searchCondition(db, filter.search), page: page, body)
        }
    }

    /// The products passing `filter`, with `search` (the filter's search, read against the index)
    /// in place of its text, in `page` order, streaming.
    static func list(_ db: Database, _ filter: ProductFilter, search: SearchCondition?, page: Page,
                     _ body: (Product) throws -> Void) throws {
        let (where_, arguments) = try whereClause(filter, search: search)
        let sql = "SELECT \(ProductColumns.list(for: filter)) FROM products" + where_
            + (try SQLPaging.clause(page, sortColumns: sortColumns, tieBreaker: "id"))
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            try body(product(row))
        }
    }

    func countProducts(_ filter: ProductFilter) async throws -> Int {
        try database.shopRead { db in
            let (where_, arguments) = try Self.whereClause(filter, search: try Self.searchCondition(db, filter.search))
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM products" + where_, arguments: arguments) ?? 0
        }
    }

    func product(_ reference: String) async throws -> Product {
        try database.shopRead { db in try Self.find(db, reference) }
    }

    func categories() async throws -> [Category] {
        try database.shopRead { db in
            try Row.fetchAll(db, sql: "SELECT category, count(*) FROM products GROUP BY category ORDER BY category")
                .map { Category(slug: $0[0], productCount: $0[1]) }
        }
    }

    // MARK: - Writing

    func addProduct(_ new: NewProduct) async throws -> Product {
        try database.shopWrite { db in
            let now = clock.timestamp()
            let added = try SQLiteStockContext.with(.opening, at: now, in: db) { try Self.insert(db, new, now: now) }
            try audit(.product("add", before: nil, after: added), db)
            return added
        }
    }

    func updateProduct(_ reference: String, _ changes: ProductChanges) async throws -> Product {
        guard !changes.isEmpty else { throw ShopError.usage("nothing to update: no field is given") }
        return try database.shopWrite { db in
            let product = try Self.find(db, reference)
            let now = clock.timestamp()
            try SQLiteStockContext.with(StockChangeNote.ofProductUpdate, at: now, in: db) {
                try Self.apply(db, changes, to: product.id, now: now)
            }
            let updated = try Self.find(db, String(product.id))
            try audit(.product("update", before: product, after: updated), db)
            return updated
        }
    }

    func applyProductChanges(_ plans: [ProductChangePlan]) async throws -> Int64? {
        guard !plans.isEmpty else { return nil }
        return try Self.journallingInMemory(database) { try database.shopWrite { db in
            let now = clock.timestamp()
            if plans.contains(where: { $0.changes.sku != nil || $0.changes.barcode != nil }) {
                // SKUs and barcodes are checked against the other products one by one.
                for plan in plans {
                    let current = try Self.find(db, String(plan.before.id))
                    try plan.checkUnchanged(current)
                    try SQLiteStockContext.with(StockChangeNote.ofProductUpdate, at: now, in: db) {
                        try Self.apply(db, plan.changes, to: current.id, now: now)
                    }
                    try audit(.product("update", before: current, after: try Self.find(db, String(current.id))), db)
                }
            } else {
                try SQLiteAuditLog.insert(try Self.applyAtOnce(db, plans, now: now), in: db)
            }
            return try SQLiteAuditLog.changeSet(db)
        } }
    }

    /// Runs `body`, a transaction of many statements, with their statement journals in memory:
    /// each statement of a transaction keeps the pages it changes as they were, in a temp file
    /// once past 64 KiB — 145,000 writes of 4 KiB for a bulk change of 100,000 prices. Set before
    /// the transaction begins (inside an `--atomic` run's, it changes nothing).
    static func journallingInMemory<T>(_ database: DatabaseQueue, _ body: () throws -> T) throws -> T {
        try? database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        defer { try? database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = DEFAULT") } }
        return try body()
    }

    func deleteProduct(_ reference: String) async throws -> Product {
        try database.shopWrite { db in
            let product = try Self.find(db, reference)
            try db.execute(sql: "DELETE FROM products WHERE id = ?", arguments: [product.id])
            try audit(.product("delete", before: product, after: nil), db)
            return product
        }
    }

    func adjustStock(_ reference: String, _ change: StockChange, reason: StockReason, note: String?) async throws -> Product {
        try database.shopWrite { db in
            let product = try Self.find(db, reference)
            let newStock = try change.applied(to: product)
            let now = clock.timestamp()
            try SQLiteStockContext.with(reason, note: note, at: now, in: db) {
                try db.execute(sql: "UPDATE products SET stock = ?, updated_at = ? WHERE id = ?", arguments: [newStock, now, product.id])
            }
            var updated = product
            updated.stock = newStock
            try audit(.product("stock", before: product, after: updated), db)
            return updated
        }
    }

    func importProducts(_ products: [NewProduct]) async throws -> ImportSummary {
        try database.shopWrite { db in
            let now = clock.timestamp()
            return try SQLiteStockContext.with(.import, at: now, in: db) {
                try Self.importAll(db, products, now: now) { change in try audit(change, db) }
            }
        }
    }

    func stockHistory(_ reference: String) async throws -> [StockMovement] {
        try database.shopRead { db in
            let product = try Self.find(db, reference)
            return try Row.fetchAll(db, sql: """
                SELECT id, product_id, at, operator, change, balance, reason, order_id, note
                FROM stock_ledger WHERE product_id = ? ORDER BY id
                """, arguments: [product.id]).map(Self.movement)
        }
    }

    /// A stock ledger row (id, product_id, at, operator, change, balance, reason, order_id, note).
    static func movement(_ row: Row) -> StockMovement {
        StockMovement(id: row[0], productID: row[1], at: row[2], operatorName: row[3], change: row[4], balance: row[5],
                      reason: row[6], orderID: row[7], note: row[8])
    }

    private func audit(_ change: AuditChange, _ db: Database) throws {
        try SQLiteAuditLog.record(change, in: db, at: clock.timestamp())
    }

    // MARK: - Shared SQL (also used by the demo import)

    /// Inserts or updates (by SKU) every product; `record` is told each change (the demo import
    /// passes none: seeding a shop is not an operator's change).
    static func importAll(_ db: Database, _ products: [NewProduct], now: String,
                          record: ((AuditChange) throws -> Void)? = nil) throws -> ImportSummary {
        var summary = ImportSummary(inserted: 0, updated: 0)
        for (offset, new) in products.enumerated() {
            do {
                try ProductRules.check(new)
                if let sku = new.sku,
                   let existingID = try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE sku = ?", arguments: [sku]) {
                    let before = try record.map { _ in try find(db, String(existingID)) }
                    try apply(db, ProductChanges(title: new.title, description: new.description, category: new.category,
                                                 brand: new.brand ?? "", price: new.price, discount: new.discount,
                                                 stock: new.stock),   // a record without a brand clears it
                              to: existingID, now: now)
                    try noteSearchWords(db, [new.tags.joined(separator: " ")])
                    try checkBarcodeFree(db, new.barcode, for: existingID)
                    try db.execute(sql: """
                        UPDATE products SET rating_hundredths = ?, tags = ?, minimum_order_quantity = ?, barcode = ?, details = ?
                        WHERE id = ?
                        """, arguments: [new.rating.hundredths, StoredTags.encode(new.tags), new.minimumOrderQuantity,
                                         new.barcode, new.details.storedJSON, existingID])
                    summary.updated += 1
                    if let record, let before { try record(.product("import", before: before, after: try find(db, String(existingID)))) }
                } else {
                    let added = try insert(db, new, now: now)
                    summary.inserted += 1
                    try record?(.product("import", before: nil, after: added))
                }
            } catch let error as ShopError {
                throw ShopError.invalidInput("record \(offset + 1): \(error.message)")
            }
        }
        return summary
    }

    static func insert(_ db: Database, _ new: NewProduct, now: String) throws -> Product {
        try ProductRules.check(new)
        if let sku = new.sku {
            try ProductRules.checkSKU(sku)
            if try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE sku = ?", arguments: [sku]) != nil {
                throw ShopError.conflict("a product with SKU \(sku) already exists")
            }
        }
        let id: Int64
        if let requested = new.id,
           try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE id = ?", arguments: [requested]) == nil {
            id = requested
        } else {
            id = try nextID(db)
        }
        let sku = try new.sku ?? freeSKU(db, category: new.category, id: id)
        try checkBarcodeFree(db, new.barcode, for: id)
        try db.execute(sql: """
            INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths,
                                  stock, rating_hundredths, tags, minimum_order_quantity, barcode, details, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, sku, new.title, new.description, new.category, new.brand, new.price.minorUnits,
                             new.discount.hundredths, new.stock, new.rating.hundredths, StoredTags.encode(new.tags),
                             new.minimumOrderQuantity, new.barcode, new.details.storedJSON, now, now])
        let addReview = try db.cachedStatement(sql: """
            INSERT INTO reviews (product_id, rating, comment, reviewer_name, reviewer_email, created_at) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for review in new.reviews {
            try addReview.execute(arguments: [id, review.rating, review.comment, review.reviewerName, review.reviewerEmail, review.at])
        }
        try noteSearchWords(db, [new.title, new.brand, new.category, new.tags.joined(separator: " "), new.description])
        return try find(db, String(id))
    }

    static func apply(_ db: Database, _ changes: ProductChanges, to id: Int64, now: String) throws {
        var assignments: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        func set(_ column: String, _ value: (any DatabaseValueConvertible)?) {
            guard let value else { return }
            assignments.append("\(column) = ?")
            arguments.append(value)
        }
        try ProductRules.check(changes)
        if let sku = changes.sku {
            if let other = try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE sku = ? AND id <> ?", arguments: [sku, id]) {
                throw ShopError.conflict("SKU \(sku) already belongs to product \(other)")
            }
        }
        set("sku", changes.sku)
        set("title", changes.title)
        set("description", changes.description)
        set("category", changes.category)
        set("brand", changes.brand.map { $0.isEmpty ? DatabaseValue.null : $0.databaseValue })
        set("price_minor", changes.price?.minorUnits)
        set("discount_hundredths", changes.discount?.hundredths)
        set("stock", changes.stock)
        if let barcode = changes.barcode {
            try checkBarcodeFree(db, barcode.isEmpty ? nil : barcode, for: id)
            set("barcode", barcode.isEmpty ? DatabaseValue.null : barcode.databaseValue)
        }
        set("details", changes.details?.storedJSON)
        guard !assignments.isEmpty else { return }
        assignments.append("updated_at = ?")
        arguments.append(now)
        arguments.append(id)
        try noteSearchWords(db, [changes.title, changes.brand, changes.category, changes.description])
        try db.execute(sql: "UPDATE products SET \(assignments.joined(separator: ", ")) WHERE id = ?",
                       arguments: StatementArguments(arguments))
    }

    /// A bulk change that names no SKU or barcode, set-based: UPDATEs from the plans as rows of
    /// bound values (`rowsPerUpdate` a statement) change every product that still holds the values
    /// its plan was made from (ProductChangePlan.checkUnchanged); returns the audit's rows.
    static func applyAtOnce(_ db: Database, _ plans: [ProductChangePlan], now: String) throws -> [SQLiteAuditLog.Batch] {
        // Indices, not a filtered copy: 100,000 plans are 100,000 products.
        let changing = plans.indices.filter { !plans[$0].changes.isEmpty }
        guard !changing.isEmpty else { return [] }
        let used = BulkColumn.all.filter { column in changing.contains { column.sets(plans[$0].changes) } }
        // One row per product: its id, then for each column some plan sets, the value its plan
        // sets and the one it had when the plan was made (both NULL when its plan leaves it).
        var rows: [DatabaseValue] = []
        rows.reserveCapacity(changing.count * (1 + 2 * used.count))
        var words: [String?] = []
        for index in changing {
            let plan = plans[index]
            try ProductRules.check(plan.changes)
            rows.append(plan.before.id.databaseValue)
            for column in used {
                if let value = column.value(plan.changes) {
                    rows.append(value)
                    rows.append(column.was(plan.before))
                } else {
                    rows.append(.null)
                    rows.append(.null)
                }
            }
            let changes = plan.changes
            if changes.title != nil || changes.brand != nil || changes.category != nil || changes.description != nil {
                words += [changes.title, changes.brand, changes.category, changes.description]
            }
        }
        try noteSearchWords(db, words)
        // Only the columns some plan changes are set: a column in the SET list fires the triggers
        // `UPDATE OF` it (the search index's, the stock ledger's, the basket summaries'), changed or not.
        let assignments = used.map { "\($0.name) = \($0.assignment)" }.joined(separator: ", ")
        let names = ["id"] + used.flatMap { [$0.name, "was_\($0.name)"] }
        let differs = used.map { "(v.was_\($0.name) IS NOT NULL AND \($0.compared) IS NOT v.was_\($0.name) COLLATE BINARY)" }
            .joined(separator: " OR ")
        // Each product that holds still its plan's `was_` values is changed; the others (normally
        // none) are read whole and checked as a single change is (a conflict names the field and
        // ends it all, a product gone is not found), and changed when the check passes (a value
        // stored in another form than shopsh writes).
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        func update(_ rows: ArraySlice<DatabaseValue>, only condition: String) throws -> Set<Int64> {
            var changed: Set<Int64> = []
            var start = rows.startIndex
            while start < rows.endIndex {
                let chunk = rows[start..<min(start + Self.rowsPerUpdate * names.count, rows.endIndex)]
                let values = Array(repeating: row, count: chunk.count / names.count).joined(separator: ", ")
                let statement = try db.cachedStatement(sql: """
                    WITH v(\(names.joined(separator: ", "))) AS (VALUES \(values))
                    UPDATE products SET \(assignments), updated_at = ?
                    FROM v
                    WHERE products.id = v.id AND \(condition)
                    RETURNING products.id
                    """)
                try SQLiteStockContext.with(StockChangeNote.ofProductUpdate, at: now, in: db) {
                    changed.formUnion(try Int64.fetchAll(statement, arguments: StatementArguments(Array(chunk) + [now.databaseValue])))
                }
                start = chunk.endIndex
            }
            return changed
        }
        // The audit's rows, made on another core while the UPDATE runs: each product as its plan
        // found it, and after, with its plan's changes (no trigger changes a product row; read
        // again, they cost as much as the rest of the change).
        let shared = try SQLiteAuditLog.shared(in: db, at: now)
        @Sendable func audit(_ before: [Product]) -> [SQLiteAuditLog.Batch] {
            SQLiteAuditLog.batches(zip(changing, before).map { index, old in
                .product("update", before: old, after: plans[index].changes.applied(to: old))
            }, sharing: shared)
        }
        var before = changing.map { plans[$0].before }
        let planned = BesideThisThread { [before] in audit(before) }
        let updated = try update(rows[...], only: "NOT (\(differs))")
        guard updated.count < changing.count else { return planned.value() }
        var others: [DatabaseValue] = []
        for (position, index) in changing.enumerated() where !updated.contains(plans[index].before.id) {
            let current = try find(db, String(plans[index].before.id))
            try plans[index].checkUnchanged(current)
            before[position] = current
            others += rows[(position * names.count)..<((position + 1) * names.count)]
        }
        _ = try update(others[...], only: "true")
        return audit(before)
    }

    /// How many products one UPDATE of `applyAtOnce` changes (up to 17 values each: within
    /// SQLite's 32,766 variables).
    static let rowsPerUpdate = 1000

    /// A column a bulk change may set: its name (also its name in the plans' rows `v`), how the
    /// UPDATE sets it from the row `v` (which holds it only for a product whose plan changes it),
    /// whether a plan's changes set it and to what, and how a product's value of it is compared
    /// with the one its plan was made from: `compared` in SQL, `was` bound, never null.
    struct BulkColumn: Sendable {
        let name: String
        let assignment: String
        let sets: @Sendable (ProductChanges) -> Bool
        let value: @Sendable (ProductChanges) -> DatabaseValue?
        let compared: String
        let was: @Sendable (Product) -> DatabaseValue

        init<Value: DatabaseValueConvertible & SendableMetatype>(
            _ name: String, _ assignment: String, _ change: @escaping @Sendable (ProductChanges) -> Value?,
            was: @escaping @Sendable (Product) -> Value, compared: String? = nil
        ) {
            self.name = name
            self.assignment = assignment
            sets = { change($0) != nil }
            value = { change($0)?.databaseValue }
            self.was = { was($0).databaseValue }
            self.compared = compared ?? "products.\(name)"
        }

        static let all: [BulkColumn] = [
            BulkColumn("title", "coalesce(v.title, products.title)", { $0.title }, was: { $0.title }),
            BulkColumn("description", "coalesce(v.description, products.description)", { $0.description }, was: { $0.description }),
            BulkColumn("category", "coalesce(v.category, products.category)", { $0.category }, was: { $0.category }),
            // A brand is cleared by '' and compared as '' when there is none (as a plan shows it).
            BulkColumn("brand", "CASE WHEN v.brand IS NULL THEN products.brand WHEN v.brand = '' THEN NULL ELSE v.brand END",
                       { $0.brand }, was: { $0.brand ?? "" }, compared: "coalesce(products.brand, '')"),
            BulkColumn("price_minor", "coalesce(v.price_minor, products.price_minor)", { $0.price?.minorUnits },
                       was: { $0.price.minorUnits }),
            BulkColumn("discount_hundredths", "coalesce(v.discount_hundredths, products.discount_hundredths)",
                       { $0.discount?.hundredths }, was: { $0.discount.hundredths }),
            BulkColumn("stock", "coalesce(v.stock, products.stock)", { $0.stock }, was: { $0.stock }),
            BulkColumn("details", "coalesce(v.details, products.details)", { $0.details?.storedJSON },
                       was: { $0.details.storedJSON }),
        ]
    }

    /// The id after the highest one or, once that reaches the end of `ProductLimits.idRange`
    /// (an import may bring any id in it), the lowest free one.
    static func nextID(_ db: Database) throws -> Int64 {
        let highest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM products") ?? 0
        if highest < ProductLimits.idRange.upperBound { return max(highest, 0) + 1 }
        let lowestFree = try Int64.fetchOne(db, sql: """
            SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM products WHERE id = 1) THEN 1 ELSE
                (SELECT min(p.id) + 1 FROM products p
                 WHERE p.id >= 1 AND p.id < ? AND NOT EXISTS (SELECT 1 FROM products q WHERE q.id = p.id + 1)) END
            """, arguments: [ProductLimits.idRange.upperBound])
        guard let lowestFree else {
            throw ShopError.conflict("no product id is free (ids run from 1 to \(ProductLimits.idRange.upperBound))")
        }
        return lowestFree
    }

    /// `ProductRules.makeSKU` for a product added without one, with `-2`, `-3`… appended while
    /// another product has it.
    static func freeSKU(_ db: Database, category: String, id: Int64) throws -> String {
        let base = ProductRules.makeSKU(category: category, id: id)
        var candidate = base
        var suffix = 1
        while try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE sku = ?", arguments: [candidate]) != nil {
            suffix += 1
            candidate = base + "-\(suffix)"
        }
        return candidate
    }

    /// Refuses `barcode` when another product than `id` has it.
    static func checkBarcodeFree(_ db: Database, _ barcode: String?, for id: Int64) throws {
        guard let barcode,
              let other = try Int64.fetchOne(db, sql: "SELECT id FROM products WHERE barcode = ? AND id <> ?", arguments: [barcode, id]) else { return }
        throw ShopError.conflict("barcode \(barcode) already belongs to product \(other)")
    }

    /// The product whose id, SKU or barcode is `reference` (in that order).
    static func find(_ db: Database, _ reference: String) throws -> Product {
        let trimmed = reference.trimmingASCIISpaces
        if let id = Int64(trimmed),
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM products WHERE id = ?"), arguments: [id]) {
            return product(row)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM products WHERE sku = ?"), arguments: [trimmed]) {
            return product(row)
        }
        if let barcode = Barcode.stored(trimmed),
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM products WHERE barcode = ?"), arguments: [barcode]) {
            return product(row)
        }
        throw ProductRules.noProduct(reference)
    }

    // MARK: - Rows and filters

    static func product(_ row: Row) -> Product {
        Product(id: row[0], sku: row[1], title: row[2], description: row[3], category: row[4], brand: row[5],
                price: Money(minorUnits: row[6], currency: .usd), discount: Percentage(hundredths: row[7]),
                stock: row[8], rating: Rating(hundredths: row[9]), tags: StoredTags.decode(row[10]),
                minimumOrderQuantity: row[11], barcode: row[12], details: ProductDetails(storedJSON: row[13]),
                reviews: ReviewSummary(count: row[14], ratingTotal: row[15]))
    }

    /// The WHERE clause of `filter`, its search given as `search` (nil: none).
    static func whereClause(_ filter: ProductFilter, search: SearchCondition?) throws -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        SQLConditions.add("category = ?", filter.category, to: &conditions, &arguments)
        if let search {
            if search.matches.isEmpty {
                conditions.append("(id = ? OR sku = ? OR barcode = ?)")
            } else {
                conditions.append("(id = ? OR sku = ? OR barcode = ? OR id IN (SELECT rowid FROM products_search WHERE products_search MATCH ?))")
            }
            arguments.append(contentsOf: [search.referenceID, search.reference, Barcode.stored(search.reference)] as [any DatabaseValueConvertible])
            if !search.matches.isEmpty { arguments.append(matchExpression(search.matches)) }
        }
        SQLConditions.add("price_minor >= ?", filter.minPrice.map { $0.minorUnits }, to: &conditions, &arguments)
        SQLConditions.add("price_minor <= ?", filter.maxPrice.map { $0.minorUnits }, to: &conditions, &arguments)
        if filter.inStockOnly { conditions.append("stock > 0") }
        SQLConditions.add("brand = ? COLLATE NOCASE", filter.brand, to: &conditions, &arguments)
        SQLConditions.add("stock < ?", filter.stockBelow, to: &conditions, &arguments)
        SQLConditions.add("rating_hundredths >= ?", filter.minRating?.hundredths, to: &conditions, &arguments)
        if let ranges = filter.ids {
            conditions.append(ranges.isEmpty ? "0" : "(" + ranges.map { _ in "id BETWEEN ? AND ?" }.joined(separator: " OR ") + ")")
            for range in ranges { arguments.append(contentsOf: [range.lowerBound, range.upperBound]) }
        }
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, StatementArguments(arguments))
    }
}
