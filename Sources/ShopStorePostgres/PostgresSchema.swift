// PostgresSchema: the PostgreSQL tables of a shop store (the SQLite schema's tables in PostgreSQL
// types) and the migrations that make them: versioned, idempotent, and safe when several shells
// start at once on a new database (one migrates, the others wait on a row lock, then find it done).

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit
import PostgresShopSchema

/// One step of the schema: constant DDL (no values in it), run in order in one transaction.
struct PostgresMigration: Sendable {
    var version: Int
    var name: String
    /// The DDL, made when the migration is applied: many of these texts are built with
    /// Foundation's string replacing, and building all of them at every connection was most of a
    /// one-shot command's start-up on PostgreSQL (37 ms against psql's 12).
    let statements: @Sendable () -> [String]

    init(version: Int, name: String, statements: @autoclosure @escaping @Sendable () -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}

/// The store's migrations and the code that applies them.
enum PostgresSchema {
    /// The tables a store has, besides `schema_migrations`.
    static let tableNames = ["shop_meta", "products", "users", "basket_lines", "favorites", "orders", "order_lines",
                             "order_refunds", "stock_ledger", "stock_context", "addresses", "order_addresses", "shipments", "shipment_lines", "notes", "coupons", "basket_coupons", "coupon_uses", "reviews", "currencies", "currency_rates", "audit_log", "order_stock",
                             "operation_in_progress", "search_vocabulary", "sales_days", "command_names", "command_receipts", "sales_day_products", "sales_day_customers", "basket_summaries",
                             "refund_days", "refund_day_products", "refund_day_customers", "sales_day_categories",
                             "refund_day_categories"]

    /// The views a store has: what a viewer reads instead of `users` and `audit_log` (PostgresRoles).
    static let viewNames = ["users_masked", "audit_log_masked", "addresses_masked", "order_addresses_masked", "reviews_masked"]

    /// The migrations, oldest first; `version` counts from 1 (0 is the lock row).
    static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 1, name: "v1: shop", statements: [
            """
            CREATE TABLE shop_meta (
                key   TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )
            """,
            "INSERT INTO shop_meta (key, value) VALUES ('application', 'shopsh')",
            // Ids are given by the store (max + 1 under a lock) or imported: no sequence to keep in step.
            """
            CREATE TABLE products (
                id                     BIGINT PRIMARY KEY CHECK (id BETWEEN \(ProductLimits.idRange.lowerBound) AND \(ProductLimits.idRange.upperBound)),
                sku                    TEXT NOT NULL,
                title                  TEXT NOT NULL,
                description            TEXT NOT NULL DEFAULT '',
                category               TEXT NOT NULL,
                brand                  TEXT,
                price_minor            BIGINT NOT NULL CHECK (price_minor >= 0),
                discount_hundredths    INTEGER NOT NULL DEFAULT 0 CHECK (discount_hundredths BETWEEN \(Percentage.hundredthsRange.lowerBound) AND \(Percentage.hundredthsRange.upperBound)),
                stock                  BIGINT NOT NULL DEFAULT 0 CHECK (stock >= 0),
                rating_hundredths      INTEGER NOT NULL DEFAULT 0 CHECK (rating_hundredths BETWEEN 0 AND 500),
                tags                   TEXT NOT NULL DEFAULT '',
                minimum_order_quantity INTEGER NOT NULL DEFAULT 1,
                created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
                updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """,
            // SQLite's `COLLATE NOCASE` uniqueness, as unique indexes on lower().
            "CREATE UNIQUE INDEX products_sku_nocase ON products (lower(sku))",
            "CREATE INDEX products_by_category ON products (category, id)",
            "CREATE INDEX products_by_price ON products (price_minor, id)",
            "CREATE INDEX products_by_title ON products (lower(title))",
            """
            CREATE TABLE users (
                id            BIGINT PRIMARY KEY CHECK (id >= 1),
                username      TEXT NOT NULL,
                email         TEXT NOT NULL,
                first_name    TEXT NOT NULL DEFAULT '',
                last_name     TEXT NOT NULL DEFAULT '',
                phone         TEXT,
                role          TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'moderator', 'user')),
                status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
                password_hash TEXT,
                created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """,
            "CREATE UNIQUE INDEX users_username_nocase ON users (lower(username))",
            "CREATE UNIQUE INDEX users_email_nocase ON users (lower(email))",
            """
            CREATE TABLE basket_lines (
                user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                product_id BIGINT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                quantity   INTEGER NOT NULL CHECK (quantity > 0),
                added_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
                PRIMARY KEY (user_id, product_id)
            )
            """,
            "CREATE INDEX basket_lines_by_product ON basket_lines (product_id)",
            """
            CREATE TABLE favorites (
                user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                product_id BIGINT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                added_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
                PRIMARY KEY (user_id, product_id)
            )
            """,
            "CREATE INDEX favorites_by_product ON favorites (product_id)",
            """
            CREATE TABLE orders (
                id                     BIGINT PRIMARY KEY CHECK (id >= 1),
                user_id                BIGINT REFERENCES users(id) ON DELETE SET NULL,
                customer               TEXT NOT NULL,
                status                 TEXT NOT NULL DEFAULT 'placed'
                                       CHECK (\(OrderStatusSQL.check())),
                currency               TEXT NOT NULL,
                total_minor            BIGINT NOT NULL,
                discounted_total_minor BIGINT NOT NULL,
                created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
                updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX orders_by_user ON orders (user_id, created_at)",
            "CREATE INDEX orders_by_status ON orders (status, created_at)",
            "CREATE INDEX orders_by_created ON orders (created_at)",
            """
            CREATE TABLE order_lines (
                order_id            BIGINT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                line_number         INTEGER NOT NULL,
                product_id          BIGINT REFERENCES products(id) ON DELETE SET NULL,
                sku                 TEXT NOT NULL,
                title               TEXT NOT NULL,
                unit_price_minor    BIGINT NOT NULL,
                discount_hundredths INTEGER NOT NULL,
                quantity            INTEGER NOT NULL CHECK (quantity > 0),
                PRIMARY KEY (order_id, line_number)
            )
            """,
            "CREATE INDEX order_lines_by_product ON order_lines (product_id)",
            """
            CREATE TABLE currencies (
                code        TEXT PRIMARY KEY,
                name        TEXT NOT NULL,
                minor_units SMALLINT
            )
            """,
            // Rates are exact decimals (NUMERIC), as the SQLite store keeps them as decimal text.
            """
            CREATE TABLE currency_rates (
                date DATE NOT NULL,
                code TEXT NOT NULL,
                rate NUMERIC NOT NULL,
                PRIMARY KEY (code, date)
            )
            """,
            "CREATE INDEX currency_rates_by_date ON currency_rates (date)",
        ]),
        // Tab completion's prefix searches are range conditions on byte order (`COLLATE "C"`),
        // which the database's default collation's indexes cannot serve (unless it is C itself).
        PostgresMigration(version: 2, name: "v2: completion indexes", statements: [
            "CREATE INDEX products_sku_prefix ON products ((lower(sku)) COLLATE \"C\")",
            "CREATE INDEX products_category_prefix ON products (category COLLATE \"C\")",
            "CREATE INDEX users_username_prefix ON users ((lower(username)) COLLATE \"C\")",
            "CREATE INDEX users_email_prefix ON users ((lower(email)) COLLATE \"C\")",
            "CREATE INDEX currencies_code_prefix ON currencies (code COLLATE \"C\")",
        ]),
        PostgresMigration(version: 3, name: "v3: audit log", statements: PostgresAuditSchema.statements),
        PostgresMigration(version: 4, name: "v4: the server holds the shop's rules", statements: PostgresServerRules.statements),
        PostgresMigration(version: 5, name: "v5: one round trip for a basket change and for start-up",
                          statements: PostgresBasketStatements.statements + versionsCommentStatements),
        PostgresMigration(version: 6, name: "v6: product search index", statements: PostgresSearchSchema.statements),
        PostgresMigration(version: 7, name: "v7: title words index; search words noted per statement",
                          statements: PostgresSearchSchema.titleIndexStatements),
        PostgresMigration(version: 8, name: "v8: audit change sets; basket lines' last change", statements: PostgresAuditSchema.changeSetStatements),
        PostgresMigration(version: 9, name: "v9: orders' units; an index for sales reports", statements: PostgresSalesSchema.statements),
        PostgresMigration(version: 10, name: "v10: basket times and command names only the server sets; no status move to NULL",
                          statements: PostgresHardeningSchema.statements),
        PostgresMigration(version: 11, name: "v11: basket, favourite and checkout refusals with their own codes; checkout's line rule shared",
                          statements: PostgresRefusingSchema.statements),
        PostgresMigration(version: 12, name: "v12: returns and refunds", statements: PostgresRefundSchema.statements),
        PostgresMigration(version: 13, name: "v13: stock ledger", statements: PostgresStockLedgerSchema.statements),
        PostgresMigration(version: 14, name: "v14: addresses, shipments and notes", statements: PostgresAddressSchema.statements + PostgresShipmentSchema.statements),
        PostgresMigration(version: 15, name: "v15: coupons", statements: PostgresCouponSchema.statements),
        PostgresMigration(version: 16, name: "v16: reviews, barcodes and product details", statements: PostgresReviewSchema.statements),
        PostgresMigration(version: 17, name: "v17: audit notifications; the history's start", statements: PostgresHistorySchema.statements),
        PostgresMigration(version: 18, name: "v18: command receipts (exactly once across a broken COMMIT)", statements: PostgresReceiptSchema.statements),
        PostgresMigration(version: 19, name: "v19: day summaries per product and customer; sales kept per statement; basket summaries",
                          statements: PostgresSalesSummarySchema.statements + PostgresBasketSummarySchema.statements),
        // Migration 19 granted its summaries to admins only (the viewer's list was typed apart from
        // the table list): a store set up at 19 gets the grants again, which now derive it.
        PostgresMigration(version: 20, name: "v20: every role reads the day and basket summaries", statements: []),
        PostgresMigration(version: 21, name: "v21: refund summaries per day, product and customer",
                          statements: PostgresRefundSummarySchema.statements),
        PostgresMigration(version: 22, name: "v22: the audit trigger skips rows an UPDATE left as they were",
                          statements: PostgresAuditUnchangedSchema.statements),
        PostgresMigration(version: 23, name: "v23: old command receipts are cleared without reading the new ones",
                          statements: PostgresReceiptSchema.clearingStatements),
        PostgresMigration(version: 24, name: "v24: a row per command naming; checkout names only its own stock movements",
                          statements: PostgresLongRunSchema.statements),
        PostgresMigration(version: 25, name: "v25: the server's operations mark themselves a row per mark",
                          statements: PostgresOperationMarkSchema.statements),
        PostgresMigration(version: 26, name: "v26: the functions every audited statement calls keep their plans",
                          statements: PostgresCachedPlanSchema.statements),
        PostgresMigration(version: 27, name: "v27: an UPDATE of many rows is audited set-based (products) or paired by id",
                          statements: PostgresBulkAuditSchema.statements),
        PostgresMigration(version: 28, name: "v28: day summaries per category (an order counted once in each)",
                          statements: PostgresCategorySummarySchema.statements),
        PostgresMigration(version: 29, name: "v29: refund summaries per category",
                          statements: PostgresRefundCategorySummarySchema.statements),
        PostgresMigration(version: 30, name: "v30: an UPDATE of orders moves the sales and refund summaries in one statement each",
                          statements: PostgresOrderUpdateSummarySchema.statements),
    ]

    /// The schema version of a store with every migration of this binary.
    static var version: Int { migrations.map(\.version).max() ?? 0 }

    /// Brings the database up to `version`.
    ///
    /// First, outside any transaction, `schema_migrations` and its lock row (version 0) are made if
    /// missing (a race between two `CREATE TABLE IF NOT EXISTS` can fail with a duplicate: retried).
    /// Then one transaction locks that row (`SELECT … FOR UPDATE`), reads which versions are in,
    /// applies the missing ones and records them. A second process blocks on the lock until the
    /// first commits, then sees every version applied and does nothing. No advisory lock: engines
    /// that speak PostgreSQL's protocol but lack them work the same.
    ///
    /// A database whose newest version is beyond this binary's is refused, changing nothing.
    /// Returns the versions applied by this call (empty when the schema was up to date).
    /// `lastVersion`: migrate only that far (tests of an upgrade from an older schema).
    /// `known`: the versions a connection's greeting read from `versionsComment`, if any.
    @discardableResult
    static func migrate(_ database: PostgresDatabase, through lastVersion: Int = version,
                        known: Set<Int>? = nil) async throws(ShopError) -> [Int] {
        let logger = database.logger
        // Up to date already — the usual case: the greeting saw it (no round trip of its own), or
        // one read sees it, the only case an operator's role without rights to create tables may
        // meet: nothing is created or locked. (The read fails when there is no table yet; the
        // locked path below then makes it.)
        let needed = migrations.filter { $0.version <= lastVersion }.map(\.version)
        if let known, known.isSuperset(of: needed), (known.max() ?? 0) <= version { return [] }
        let applied = try? await database.read("reading the schema version") { connection -> Set<Int> in
            var versions = Set<Int>()
            for try await version in try await connection.query(
                "SELECT version FROM schema_migrations WHERE version > 0", logger: logger
            ).decode(Int.self) { versions.insert(version) }
            return versions
        }
        if let applied {
            try checkNotNewer(applied)
            if applied.isSuperset(of: needed) { return [] }
        }
        var attempt = 0
        while true {
            do {
                try await database.connections.withConnection { leased in try await prepare(leased.connection, logger: logger) }
                break
            } catch let error as PSQLError where attempt < 3 && PostgresErrors.isDuplicateObject(error) {
                attempt += 1
            } catch {
                throw PostgresErrors.shopError(error, doing: "preparing the schema")
            }
        }
        return try await database.write(.migrateSchema, action: nil) { connection in try await apply(connection, through: lastVersion, logger: logger) }
    }

    /// For a read-only session, which never migrates: one line unless the schema is current.
    static func checkCurrent(_ database: PostgresDatabase, readOnlyReason reason: String,
                             known: Set<Int>? = nil) async throws(ShopError) {
        let logger = database.logger
        if let known, known == Set(migrations.map(\.version)) { return }
        let applied = try await database.read("reading the schema version") { connection -> Set<Int>? in
            var exists = false
            for try await found in try await connection.query(
                "SELECT pg_catalog.to_regclass('schema_migrations') IS NOT NULL", logger: logger
            ).decode(Bool.self) { exists = found }
            guard exists else { return nil }
            var versions = Set<Int>()
            for try await version in try await connection.query(
                "SELECT version FROM schema_migrations WHERE version > 0", logger: logger
            ).decode(Int.self) { versions.insert(version) }
            return versions
        }
        guard let applied else {
            throw .storage("this database holds no shop, and this session is read-only (\(reason)): create one with shopsh init as the store's owner, on the primary")
        }
        try checkNotNewer(applied)
        let missing = Set(migrations.map(\.version)).subtracting(applied)
        if !missing.isEmpty {
            throw .storage("this database's shop schema is version \(applied.max() ?? 0), older than this shopsh's (\(version)), and this session is read-only (\(reason)): open it once as the store's owner, on the primary, to migrate it")
        }
    }

    /// Makes `schema_migrations` and its lock row when missing.
    private static func prepare(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """, logger: logger)
        try await connection.query("""
            INSERT INTO schema_migrations (version, name) VALUES (0, 'lock row: migrations lock it')
            ON CONFLICT (version) DO NOTHING
            """, logger: logger)
    }

    /// Under the lock row, applies the migrations not yet in (up to `lastVersion`) and, when any
    /// was, re-applies the roles' grants if the roles exist; returns their versions.
    private static func apply(_ connection: PostgresConnection, through lastVersion: Int, logger: Logger) async throws -> [Int] {
        _ = try await connection.query("SELECT version FROM schema_migrations WHERE version = 0 FOR UPDATE",
                                       logger: logger).collect()
        var applied = Set<Int>()
        for try await version in try await connection.query(
            "SELECT version FROM schema_migrations WHERE version > 0", logger: logger
        ).decode(Int.self) {
            applied.insert(version)
        }
        try checkNotNewer(applied)
        var done: [Int] = []
        for migration in migrations where migration.version <= lastVersion && !applied.contains(migration.version) {
            for statement in migration.statements() {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                logger: logger)
            done.append(migration.version)
        }
        // The grants name this version's objects: only once the schema is this version's.
        if lastVersion == version && !done.isEmpty {
            try await connection.query(PostgresQuery(unsafeSQL: PostgresRoles.reapplyWhenSetUp), logger: logger)
        }
        return done
    }

    /// What begins the comment on `schema_migrations` that lists its versions.
    static let versionsCommentPrefix = "shopsh schema versions: "

    /// Keeps the versions `schema_migrations` holds in its comment (`shopsh schema versions:
    /// 1,2,3`), by a trigger, in the transaction that changes them (a migration, or an edit by
    /// hand), so that a new connection's greeting reads them without naming the table (which may
    /// not exist yet): one round trip fewer at start-up. Only the table's owner may comment on it.
    static let versionsCommentStatements: [String] = [
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_comment_versions() RETURNS trigger
            LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
                EXECUTE format('COMMENT ON TABLE schema_migrations IS %%L', '\(versionsCommentPrefix)'
                    || (SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations WHERE version > 0));
                RETURN NULL;
            END
            $body$
            """),
        """
        CREATE TRIGGER shopsh_versions_comment AFTER INSERT OR UPDATE OR DELETE ON schema_migrations
        FOR EACH STATEMENT EXECUTE FUNCTION shopsh_comment_versions()
        """,
    ]

    /// The versions a `schema_migrations` comment lists; nil when it is not one of `writeVersionsComment`'s.
    static func versions(fromComment comment: String) -> Set<Int>? {
        guard comment.hasPrefix(versionsCommentPrefix) else { return nil }
        let list = comment.dropFirst(versionsCommentPrefix.count).split(separator: ",")
        let versions = list.compactMap { Int($0) }
        guard !versions.isEmpty, versions.count == list.count else { return nil }
        return Set(versions)
    }

    /// Refuses a database migrated by a newer shopsh (changing nothing).
    private static func checkNotNewer(_ applied: Set<Int>) throws(ShopError) {
        if let newest = applied.max(), newest > version {
            throw .storage("this database's shop schema is version \(newest), newer than this shopsh knows (\(version)); use a newer shopsh")
        }
    }
}
