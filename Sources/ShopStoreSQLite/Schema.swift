// Schema: the SQLite tables, indexes and migrations of a shop store.

import Foundation
import GRDB
import ShopCore
import ShopStoreKit

/// The store's migrations. Each one runs once, in a transaction, in order, and sets
/// `PRAGMA user_version` to its number, so a store newer than this binary is recognised.
enum Schema {
    /// The migrations, oldest first.
    static let migrationNames = ["v1: shop", "v2: shopsh application id", "v3: audit log", "v4: product id bound", "v5: product search index",
                                 "v6: audit change sets; basket lines' last change", "v7: orders' units; an index for sales reports",
                                 "v8: returns and refunds", "v9: stock ledger", "v10: addresses, shipments and notes",
                                 "v11: coupons", "v12: reviews, barcodes and product details", "v13: the history's start",
                                 "v14: day summaries per product and customer; basket summaries",
                                 "v15: refund summaries per day, product and customer",
                                 "v16: day summaries per category", "v17: refund summaries per category",
                                 "v18: a price recounts only the baskets holding the product"]

    /// The schema version of a store with every migration of this binary.
    static var version: Int { migrationNames.count }

    /// The tables a store has (besides GRDB's migration table).
    static let tableNames = ["shop_meta", "products", "users", "basket_lines", "favorites", "orders", "order_lines", "order_refunds", "stock_ledger", "stock_context",
                             "addresses", "order_addresses", "shipments", "shipment_lines", "notes",
                             "coupons", "basket_coupons", "coupon_uses", "reviews", "currencies", "currency_rates", "audit_log", "sales_days", "sales_day_products", "sales_day_customers", "basket_summaries",
                             "refund_days", "refund_day_products", "refund_day_customers", "sales_day_categories",
                             "refund_day_categories"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // `.deferred` (GRDB's default, written out because v4 relies on it): each migration runs with
        // foreign keys off and ends with `PRAGMA foreign_key_check` before it commits, steps 1, 2,
        // 10, 11 and 12 of SQLite's table-rebuild procedure (https://www.sqlite.org/lang_altertable.html#otheralter).
        func register(_ number: Int, _ body: @escaping @Sendable (Database) throws -> Void) {
            migrator.registerMigration(migrationNames[number - 1], foreignKeyChecks: .deferred) { db in
                try body(db)
                try db.execute(sql: "PRAGMA user_version = \(number)")
            }
        }
        register(1) { db in
            try db.execute(sql: """
                CREATE TABLE shop_meta (
                    key   TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;

                \(productsTable("products", id: "INTEGER PRIMARY KEY"));
                CREATE INDEX products_by_category ON products(category, id);
                CREATE INDEX products_by_price ON products(price_minor, id);
                CREATE INDEX products_by_title ON products(title COLLATE NOCASE);

                CREATE TABLE users (
                    id            INTEGER PRIMARY KEY,
                    username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    first_name    TEXT NOT NULL DEFAULT '',
                    last_name     TEXT NOT NULL DEFAULT '',
                    phone         TEXT,
                    role          TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'moderator', 'user')),
                    status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
                    password_hash TEXT,
                    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                );

                CREATE TABLE basket_lines (
                    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                    quantity   INTEGER NOT NULL CHECK (quantity > 0),
                    added_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                    PRIMARY KEY (user_id, product_id)
                ) WITHOUT ROWID;
                CREATE INDEX basket_lines_by_product ON basket_lines(product_id);

                CREATE TABLE favorites (
                    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                    added_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                    PRIMARY KEY (user_id, product_id)
                ) WITHOUT ROWID;
                CREATE INDEX favorites_by_product ON favorites(product_id);

                CREATE TABLE orders (
                    id                     INTEGER PRIMARY KEY,
                    user_id                INTEGER REFERENCES users(id) ON DELETE SET NULL,
                    customer               TEXT NOT NULL,
                    status                 TEXT NOT NULL DEFAULT 'placed'
                                           CHECK (\(OrderStatusSQL.check(statuses: firstStatuses))),
                    currency               TEXT NOT NULL,
                    total_minor            INTEGER NOT NULL,
                    discounted_total_minor INTEGER NOT NULL,
                    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                    updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                );
                CREATE INDEX orders_by_user ON orders(user_id, created_at);
                CREATE INDEX orders_by_status ON orders(status, created_at);
                CREATE INDEX orders_by_created ON orders(created_at);

                CREATE TABLE order_lines (
                    order_id            INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                    line_number         INTEGER NOT NULL,
                    product_id          INTEGER REFERENCES products(id) ON DELETE SET NULL,
                    sku                 TEXT NOT NULL,
                    title               TEXT NOT NULL,
                    unit_price_minor    INTEGER NOT NULL,
                    discount_hundredths INTEGER NOT NULL,
                    quantity            INTEGER NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (order_id, line_number)
                ) WITHOUT ROWID;
                CREATE INDEX order_lines_by_product ON order_lines(product_id);

                CREATE TABLE currencies (
                    code        TEXT PRIMARY KEY,
                    name        TEXT NOT NULL,
                    minor_units INTEGER
                ) WITHOUT ROWID;

                CREATE TABLE currency_rates (
                    date TEXT NOT NULL,
                    code TEXT NOT NULL,
                    rate TEXT NOT NULL,
                    PRIMARY KEY (code, date)
                ) WITHOUT ROWID;
                CREATE INDEX currency_rates_by_date ON currency_rates(date);
                """)
        }
        register(2) { db in
            // Marks the file as a shopsh store (see StoreIdentity).
            try db.execute(sql: "PRAGMA application_id = \(StoreIdentity.applicationID)")
        }
        register(3) { db in
            // The audit log: one row per change, written in the change's transaction (SQLiteAuditLog).
            // Triggers refuse to change or delete its rows, also from the sqlite3 CLI: on SQLite the
            // file's permissions are the real boundary (whoever may write the file may drop them).
            try db.execute(sql: """
                CREATE TABLE audit_log (
                    id        INTEGER PRIMARY KEY,
                    at        TEXT NOT NULL,
                    operator  TEXT NOT NULL,
                    role      TEXT NOT NULL,
                    command   TEXT NOT NULL DEFAULT '',
                    entity    TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    action    TEXT NOT NULL,
                    before    TEXT,
                    after     TEXT
                );
                CREATE INDEX audit_log_by_entity ON audit_log(entity, entity_id);
                CREATE INDEX audit_log_by_operator ON audit_log(operator);
                CREATE INDEX audit_log_by_time ON audit_log(at);
                CREATE TRIGGER audit_log_is_append_only_update BEFORE UPDATE ON audit_log
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: its rows cannot be changed'); END;
                CREATE TRIGGER audit_log_is_append_only_delete BEFORE DELETE ON audit_log
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: its rows cannot be deleted'); END;
                """)
        }
        register(4) { db in
            try rebuildProductsWithIDBound(db)
        }
        register(5) { db in
            try db.execute(sql: searchIndex)
        }
        // v6: the rows one transaction writes share a change set (SQLiteAuditLog); older rows have
        // none. A basket line's last change (`basket list`): when it was added, or its quantity
        // last changed. The store's writes set it with its clock (an insert that does not, as the
        // seeds', takes `added_at` through a trigger).
        register(6) { db in
            try db.execute(sql: """
                ALTER TABLE audit_log ADD COLUMN change_set INTEGER;
                CREATE INDEX audit_log_by_change_set ON audit_log(change_set);
                ALTER TABLE basket_lines ADD COLUMN changed_at TEXT;
                UPDATE basket_lines SET changed_at = added_at;
                CREATE TRIGGER basket_lines_changed_on_insert AFTER INSERT ON basket_lines WHEN NEW.changed_at IS NULL
                BEGIN
                    UPDATE basket_lines SET changed_at = NEW.added_at WHERE user_id = NEW.user_id AND product_id = NEW.product_id;
                END;
                """)
        }
        // v7: what sales reports read without touching every order: each order's units (kept by a
        // trigger from its lines, which are only ever inserted) and `sales_days`, every day's
        // figures per currency and status, kept by triggers on orders (`salesTriggers`).
        register(7) { db in
            try db.execute(sql: """
                ALTER TABLE orders ADD COLUMN items INTEGER NOT NULL DEFAULT 0;
                UPDATE orders SET items = (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = orders.id);
                CREATE TRIGGER order_lines_count_items AFTER INSERT ON order_lines
                BEGIN
                    UPDATE orders SET items = items + NEW.quantity WHERE id = NEW.order_id;
                END;
                CREATE TABLE sales_days (
                    day      TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    status   TEXT NOT NULL,
                    orders   INTEGER NOT NULL,
                    items    INTEGER NOT NULL,
                    gross    INTEGER NOT NULL,
                    net      INTEGER NOT NULL,
                    PRIMARY KEY (day, currency, status)
                ) WITHOUT ROWID;
                """)
            try db.execute(sql: refillSalesDays)
            for trigger in salesTriggers { try db.execute(sql: trigger.sql) }
        }
        // v8: returns and refunds (RefundRules): each order's refunded sum, each line's returned
        // units, the refunds themselves, and `refunded` among the statuses (a table rebuild when
        // the orders table's CHECK predates it).
        register(8) { db in
            try rebuildOrdersWithEveryStatus(db)
            try db.execute(sql: """
                ALTER TABLE orders ADD COLUMN refunded_minor INTEGER NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0);
                ALTER TABLE order_lines ADD COLUMN returned INTEGER NOT NULL DEFAULT 0 CHECK (returned >= 0);
                CREATE TABLE order_refunds (
                    id           INTEGER PRIMARY KEY,
                    order_id     INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                    line_number  INTEGER,
                    product_id   INTEGER REFERENCES products(id) ON DELETE SET NULL,
                    sku          TEXT,
                    quantity     INTEGER NOT NULL DEFAULT 0 CHECK (quantity >= 0),
                    restocked    INTEGER NOT NULL DEFAULT 0 CHECK (restocked IN (0, 1)),
                    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0 OR line_number IS NOT NULL AND amount_minor >= 0),
                    reason       TEXT NOT NULL,
                    operator     TEXT NOT NULL,
                    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                );
                CREATE INDEX order_refunds_by_order ON order_refunds(order_id, id);
                CREATE INDEX order_refunds_by_created ON order_refunds(created_at);
                """)
        }
        // v9: the stock ledger (StockLedger): a row for every change of a product's stock, written
        // by triggers, whoever changes it; why, who and the order come from `stock_context`,
        // which shopsh's services set inside their transaction (none: a change from outside).
        register(9) { db in
            try db.execute(sql: """
                CREATE TABLE stock_ledger (
                    id         INTEGER PRIMARY KEY,
                    product_id INTEGER NOT NULL,
                    at         TEXT NOT NULL,
                    operator   TEXT NOT NULL,
                    change     INTEGER NOT NULL,
                    balance    INTEGER NOT NULL,
                    reason     TEXT NOT NULL,
                    order_id   INTEGER,
                    note       TEXT
                );
                CREATE INDEX stock_ledger_by_product ON stock_ledger(product_id, id);
                CREATE TABLE stock_context (
                    id       INTEGER PRIMARY KEY CHECK (id = 1),
                    reason   TEXT NOT NULL,
                    order_id INTEGER,
                    note     TEXT,
                    operator TEXT NOT NULL,
                    at       TEXT NOT NULL
                );
                INSERT INTO stock_ledger (product_id, at, operator, change, balance, reason)
                SELECT id, updated_at, 'shopsh', stock, stock, 'opening' FROM products ORDER BY id;
                """)
            for trigger in stockLedgerTriggers { try db.execute(sql: trigger.sql) }
        }
        // v10: where an order goes (issue 35) — customers' saved addresses (one default per use),
        // the copy an order keeps from checkout (order_addresses, never changed after), the
        // shipments of its units with carrier, tracking code and dates, and the team's notes on
        // orders and customers.
        register(10) { db in
            let addressColumns = """
                    name        TEXT NOT NULL DEFAULT '',
                    line1       TEXT NOT NULL,
                    line2       TEXT NOT NULL DEFAULT '',
                    city        TEXT NOT NULL,
                    state       TEXT NOT NULL DEFAULT '',
                    postal_code TEXT NOT NULL DEFAULT '',
                    country     TEXT NOT NULL CHECK (length(country) = 2 AND country = upper(country)),
                    phone       TEXT
                """
            try db.execute(sql: """
                CREATE TABLE addresses (
                    id               INTEGER PRIMARY KEY,
                    user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                \(addressColumns),
                    default_shipping INTEGER NOT NULL DEFAULT 0 CHECK (default_shipping IN (0, 1)),
                    default_billing  INTEGER NOT NULL DEFAULT 0 CHECK (default_billing IN (0, 1)),
                    created_at       TEXT NOT NULL
                );
                CREATE INDEX addresses_by_user ON addresses(user_id, id);
                CREATE UNIQUE INDEX addresses_one_default_shipping ON addresses(user_id) WHERE default_shipping = 1;
                CREATE UNIQUE INDEX addresses_one_default_billing ON addresses(user_id) WHERE default_billing = 1;
                CREATE TABLE order_addresses (
                    order_id    INTEGER PRIMARY KEY REFERENCES orders(id),
                \(addressColumns)
                );
                CREATE INDEX order_addresses_by_place ON order_addresses(country, city COLLATE NOCASE);
                CREATE TABLE shipments (
                    id            INTEGER PRIMARY KEY,
                    order_id      INTEGER NOT NULL REFERENCES orders(id),
                    carrier       TEXT NOT NULL,
                    tracking_code TEXT NOT NULL,
                    shipped_at    TEXT NOT NULL,
                    delivered_at  TEXT,
                    operator      TEXT NOT NULL
                );
                CREATE INDEX shipments_by_order ON shipments(order_id, id);
                CREATE TABLE shipment_lines (
                    shipment_id INTEGER NOT NULL REFERENCES shipments(id),
                    line_number INTEGER NOT NULL,
                    quantity    INTEGER NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (shipment_id, line_number)
                ) WITHOUT ROWID;
                CREATE TABLE notes (
                    id         INTEGER PRIMARY KEY,
                    order_id   INTEGER REFERENCES orders(id),
                    user_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,
                    author     TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    text       TEXT NOT NULL,
                    CHECK ((order_id IS NULL) <> (user_id IS NULL))
                );
                CREATE INDEX notes_by_order ON notes(order_id, id) WHERE order_id IS NOT NULL;
                CREATE INDEX notes_by_user ON notes(user_id, id) WHERE user_id IS NOT NULL;
                """)
        }
        register(11) { db in
            // Coupons (CouponRules): codes upper case; a percentage or an amount; a category or
            // products (ids, comma-separated) as the scope, or neither. A use is an order's row in
            // coupon_uses, written only by checkout; order_lines.coupon_minor is each line's part.
            try db.execute(sql: """
                CREATE TABLE coupons (
                    id                 INTEGER PRIMARY KEY,
                    code               TEXT NOT NULL UNIQUE,
                    percent_hundredths INTEGER CHECK (percent_hundredths BETWEEN 1 AND 10000),
                    amount_minor       INTEGER CHECK (amount_minor > 0),
                    currency           TEXT NOT NULL,
                    min_total_minor    INTEGER CHECK (min_total_minor >= 0),
                    starts             TEXT,
                    expires            TEXT,
                    max_uses           INTEGER CHECK (max_uses > 0),
                    per_customer       INTEGER CHECK (per_customer > 0),
                    category           TEXT,
                    product_ids        TEXT,
                    description        TEXT NOT NULL DEFAULT '',
                    disabled           INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
                    created_at         TEXT NOT NULL,
                    CHECK ((percent_hundredths IS NULL) <> (amount_minor IS NULL)),
                    CHECK (category IS NULL OR product_ids IS NULL),
                    CHECK (expires >= starts)
                );
                CREATE TABLE basket_coupons (
                    user_id   INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    coupon_id INTEGER NOT NULL REFERENCES coupons(id),
                    added_at  TEXT NOT NULL
                );
                CREATE TABLE coupon_uses (
                    order_id       INTEGER PRIMARY KEY REFERENCES orders(id),
                    coupon_id      INTEGER NOT NULL REFERENCES coupons(id),
                    user_id        INTEGER,
                    discount_minor INTEGER NOT NULL CHECK (discount_minor >= 0),
                    used_at        TEXT NOT NULL
                );
                CREATE INDEX coupon_uses_by_coupon ON coupon_uses(coupon_id, user_id);
                ALTER TABLE order_lines ADD COLUMN coupon_minor INTEGER NOT NULL DEFAULT 0;
                """)
        }
        register(12) { db in
            // A product's barcode (Barcode: 13 digits, unique) and details (ProductDetails' stored
            // JSON). Reviews: `review_id`, so that an unqualified `id` in ProductColumns' review
            // subqueries is the product's; hidden while `hidden_reason` is set. A store of v11
            // starts with none (the README says why).
            try db.execute(sql: """
                ALTER TABLE products ADD COLUMN barcode TEXT CHECK (barcode IS NULL OR (length(barcode) = 13 AND barcode NOT GLOB '*[^0-9]*'));
                ALTER TABLE products ADD COLUMN details TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details) AND json_type(details) = 'object');
                CREATE UNIQUE INDEX products_by_barcode ON products(barcode) WHERE barcode IS NOT NULL;
                CREATE TABLE reviews (
                    review_id      INTEGER PRIMARY KEY,
                    product_id     INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                    rating         INTEGER NOT NULL CHECK (rating BETWEEN \(ReviewRules.ratings.lowerBound) AND \(ReviewRules.ratings.upperBound)),
                    comment        TEXT NOT NULL DEFAULT '',
                    reviewer_name  TEXT NOT NULL,
                    reviewer_email TEXT NOT NULL,
                    created_at     TEXT NOT NULL,
                    hidden_reason  TEXT CHECK (hidden_reason IS NULL OR length(trim(hidden_reason)) > 0),
                    hidden_by      TEXT,
                    hidden_at      TEXT,
                    CHECK ((hidden_reason IS NULL) = (hidden_by IS NULL) AND (hidden_reason IS NULL) = (hidden_at IS NULL))
                );
                CREATE INDEX reviews_by_product ON reviews(product_id, rating) WHERE hidden_reason IS NULL;
                CREATE INDEX reviews_by_product_all ON reviews(product_id);
                CREATE INDEX reviews_by_time ON reviews(created_at);
                """)
        }
        // v13: from when the audit log holds every change (`--as-of` answers from then on): a store
        // older than its log answers from this migration on; a new one from its seeding.
        register(13) { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO shop_meta (key, value) VALUES ('\(SQLiteHistoryService.startKey)', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                """)
        }
        // v14: what the product and customer reports and `basket list` read instead of every line
        // and order (SalesSummarySchema): each day's figures per product and per customer, and each
        // basket's figures, kept by triggers.
        register(14) { db in
            try db.execute(sql: salesSummaryTables)
            try db.execute(sql: basketSummaryTable)
            try db.execute(sql: refillSalesSummaries)
            for trigger in salesSummaryTriggers { try db.execute(sql: trigger.sql) }
        }
        // v15: the refund reports read day summaries too (RefundSummarySchema).
        register(15) { db in
            try db.execute(sql: refundSummaryTables)
            try db.execute(sql: refillRefundSummaries)
            for trigger in refundSummaryTriggers { try db.execute(sql: trigger.sql) }
        }
        // v16: the category report reads a day summary too (CategorySummarySchema).
        register(16) { db in
            try db.execute(sql: categorySummaryTable)
            try db.execute(sql: refillCategorySummary)
            for trigger in categorySummaryTriggers { try db.execute(sql: trigger.sql) }
        }
        // v17: the refunds' category report reads a day summary too (RefundCategorySummarySchema).
        register(17) { db in
            try db.execute(sql: refundCategorySummaryTable)
            try db.execute(sql: refillRefundCategorySummary)
            for trigger in refundCategorySummaryTriggers { try db.execute(sql: trigger.sql) }
        }
        // v18: a product's price recounts the baskets holding it only (SalesSummarySchema).
        register(18) { db in
            try db.execute(sql: "DROP TRIGGER \(basketPriceTrigger.name)")
            try db.execute(sql: basketPriceTrigger.sql)
        }
        return migrator
    }

    /// Every trigger that keeps a summary of the orders and refunds (sales days, the day summaries
    /// per product, customer and category, of sales and of refunds; the baskets'), as the latest
    /// migration left each (v14's trigger on prices as v18 replaced it), which a seed rests while
    /// it writes and then refills once (`refillSummaries`).
    static var summaryTriggers: [(name: String, sql: String)] {
        salesTriggers + salesSummaryTriggers.map { $0.name == basketPriceTrigger.name ? basketPriceTrigger : $0 }
            + refundSummaryTriggers + categorySummaryTriggers + refundCategorySummaryTriggers
    }

    /// Every summary recounted from the orders and refunds.
    static var refillSummaries: String {
        [refillSalesDays, refillSalesSummaries, refillRefundSummaries, refillCategorySummary, refillRefundCategorySummary]
            .joined(separator: "\n")
    }

    /// The triggers that write the stock ledger (StockLedger) from `stock_context`.
    static let stockLedgerTriggers: [(name: String, sql: String)] = {
        func row(change: String, reason: String) -> String {
            """
            INSERT INTO stock_ledger (product_id, at, operator, change, balance, reason, order_id, note)
            VALUES (NEW.id, coalesce((SELECT at FROM stock_context), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                    coalesce((SELECT operator FROM stock_context), 'outside shopsh'), \(change), NEW.stock,
                    coalesce((SELECT reason FROM stock_context), '\(reason)'),
                    (SELECT order_id FROM stock_context), (SELECT note FROM stock_context));
            """
        }
        return [
            ("products_stock_ledger_insert", """
                CREATE TRIGGER products_stock_ledger_insert AFTER INSERT ON products
                BEGIN \(row(change: "NEW.stock", reason: StockReason.opening.rawValue)) END
                """),
            ("products_stock_ledger_update", """
                CREATE TRIGGER products_stock_ledger_update AFTER UPDATE OF stock ON products WHEN NEW.stock IS NOT OLD.stock
                BEGIN \(row(change: "NEW.stock - OLD.stock", reason: StockReason.outside.rawValue)) END
                """),
        ]
    }()

    /// The statuses of v1's CHECK, as released (v8 adds `refunded`; a released migration does
    /// not change).
    static let firstStatuses: [OrderStatus] = [.placed, .paid, .shipped, .delivered, .cancelled]

    /// v8: the orders table with every status of OrderStatusSQL in its CHECK (v1's lacks
    /// `refunded`), rebuilt as v4 rebuilt products: the table's own SQL with the new CHECK, every
    /// row copied, and the indexes and triggers on it, or naming it, made again as they were.
    static func rebuildOrdersWithEveryStatus(_ db: Database) throws {
        guard let create = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'orders'"),
              !create.contains("'refunded'") else { return }
        guard let range = create.range(of: #"status IN \([^)]*\)"#, options: .regularExpression) else {
            throw ShopError.storage("the store's orders table has no status CHECK this shopsh knows; it cannot add the refunded status")
        }
        let rebuilt = create.replacingCharacters(in: range, with: OrderStatusSQL.check())
            .replacingOccurrences(of: "CREATE TABLE orders", with: "CREATE TABLE new_orders")
        let dependents = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND (tbl_name = 'orders' OR (type = 'trigger' AND sql LIKE '%orders%'))
            ORDER BY type, name
            """)
        for row in dependents where (row[0] as String) == "trigger" { try db.execute(sql: "DROP TRIGGER \((row[1] as String).quotedDatabaseIdentifier)") }
        let columns = try db.columns(in: "orders").map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
        try db.execute(sql: rebuilt)
        try db.execute(sql: """
            INSERT INTO new_orders (\(columns)) SELECT \(columns) FROM orders;
            DROP TABLE orders;
            ALTER TABLE new_orders RENAME TO orders;
            """)
        // The old table's indexes and triggers went with it; the others' triggers were dropped above.
        for row in dependents { try db.execute(sql: row[2]) }
    }

    /// v5: the full-text index of product search (ProductSearch's fields, in its field order),
    /// external content read from `products` and kept in step with it by triggers; its words
    /// as they are typed (no folding of accents: ShopCore compares words in lower case only).
    /// `detail = column` (no word positions: search asks which words a field holds, never
    /// phrases) keeps it a quarter of the full index's size and four times faster to build.
    /// Its words, which typos, words holding a typed one and suggestions read, are kept in
    /// `search_vocabulary` by the product writes (`noteSearchWords`) and refilled from the index
    /// after a seed: reading them from the index itself (fts5vocab) walks the whole index, 0.3 s
    /// at a million products.
    static let searchIndex = """
        CREATE VIRTUAL TABLE products_search USING fts5(
            title, brand, category, tags, description,
            content = 'products', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 0', detail = column);
        CREATE VIRTUAL TABLE products_search_vocabulary USING fts5vocab(products_search, 'row');
        INSERT INTO products_search(products_search) VALUES ('rebuild');
        CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY) WITHOUT ROWID;
        INSERT INTO search_vocabulary SELECT term FROM products_search_vocabulary;
        """ + searchTriggers.map { $0.sql }.joined(separator: ";\n") + ";"

    /// The triggers that keep the search index in step with `products` (a seed drops them, fills
    /// the table, rebuilds the index once and makes them again).
    /// Rebuilds `sales_days` from the orders (v7, and after a seed, which writes without its triggers).
    static let refillSalesDays = """
        DELETE FROM sales_days;
        INSERT INTO sales_days (day, currency, status, orders, items, gross, net)
        SELECT substr(created_at, 1, 10), currency, status, count(*), sum(items), sum(total_minor), sum(discounted_total_minor)
        FROM orders GROUP BY 1, 2, 3;
        """

    /// What keeps `sales_days` equal to the orders' figures: an order counts on its day, in its
    /// currency and status; a change takes it out of its old row and adds it to the new one.
    static let salesTriggers: [(name: String, sql: String)] = {
        let add = """
            INSERT INTO sales_days (day, currency, status, orders, items, gross, net)
            VALUES (substr(NEW.created_at, 1, 10), NEW.currency, NEW.status, 1, NEW.items, NEW.total_minor, NEW.discounted_total_minor)
            ON CONFLICT (day, currency, status) DO UPDATE SET orders = orders + 1, items = items + excluded.items,
                gross = gross + excluded.gross, net = net + excluded.net;
            """
        let remove = """
            UPDATE sales_days SET orders = orders - 1, items = items - OLD.items, gross = gross - OLD.total_minor,
                                  net = net - OLD.discounted_total_minor
            WHERE day = substr(OLD.created_at, 1, 10) AND currency = OLD.currency AND status = OLD.status;
            """
        return [
            ("orders_sales_insert", "CREATE TRIGGER orders_sales_insert AFTER INSERT ON orders BEGIN \(add) END"),
            ("orders_sales_update", """
                CREATE TRIGGER orders_sales_update
                AFTER UPDATE OF created_at, currency, status, items, total_minor, discounted_total_minor ON orders
                BEGIN \(remove) \(add) END
                """),
            ("orders_sales_delete", "CREATE TRIGGER orders_sales_delete AFTER DELETE ON orders BEGIN \(remove) END"),
        ]
    }()

    static let searchTriggers: [(name: String, sql: String)] = [
        ("products_search_after_insert", """
            CREATE TRIGGER products_search_after_insert AFTER INSERT ON products BEGIN
                INSERT INTO products_search(rowid, title, brand, category, tags, description)
                VALUES (new.id, new.title, new.brand, new.category, new.tags, new.description);
            END
            """),
        ("products_search_after_delete", """
            CREATE TRIGGER products_search_after_delete AFTER DELETE ON products BEGIN
                INSERT INTO products_search(products_search, rowid, title, brand, category, tags, description)
                VALUES ('delete', old.id, old.title, old.brand, old.category, old.tags, old.description);
            END
            """),
        ("products_search_after_update", """
            CREATE TRIGGER products_search_after_update AFTER UPDATE OF title, brand, category, tags, description ON products BEGIN
                INSERT INTO products_search(products_search, rowid, title, brand, category, tags, description)
                VALUES ('delete', old.id, old.title, old.brand, old.category, old.tags, old.description);
                INSERT INTO products_search(rowid, title, brand, category, tags, description)
                VALUES (new.id, new.title, new.brand, new.category, new.tags, new.description);
            END
            """),
    ]

    /// v4: the products table rebuilt with `CHECK (id BETWEEN 1 AND 2^53 − 1)`, the bound
    /// `ProductLimits.idRange` the services and the PostgreSQL schema already keep. SQLite cannot
    /// add a CHECK to a table, so this follows its documented rebuild (steps 3–9; the migrator
    /// does the others, see `migrator`): the same columns as v1 plus the CHECK, every row copied,
    /// and every index and trigger on products recreated from the SQL it was created with. The
    /// child tables' foreign keys name `products` and hold again once the new table has that name.
    static func rebuildProductsWithIDBound(_ db: Database) throws {
        let ids = ProductLimits.idRange
        // A row outside the bound (written behind shopsh's back) would fail the copy: say which.
        let outside = try Int64.fetchAll(db, sql: "SELECT id FROM products WHERE id NOT BETWEEN ? AND ? ORDER BY id LIMIT 5",
                                         arguments: [ids.lowerBound, ids.upperBound])
        if !outside.isEmpty {
            throw ShopError.storage("the store has products with ids outside \(ids.lowerBound)…\(ids.upperBound) ("
                                    + outside.map(String.init).joined(separator: ", ")
                                    + "), which this shopsh's schema refuses: change those ids with an older shopsh or sqlite3 first")
        }
        // 3. The indexes and triggers on products (the UNIQUE constraint's own index has no SQL:
        // the new table's constraint makes it again).
        let dependents = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE tbl_name = 'products' AND type IN ('index', 'trigger') AND sql IS NOT NULL
            ORDER BY type, name
            """)
        // 4. The new table: v1's columns, the id bounded.
        try db.execute(sql: productsTable("new_products", id: "INTEGER PRIMARY KEY CHECK (id BETWEEN \(ids.lowerBound) AND \(ids.upperBound))"))
        // 5–7. Every row across, the old table dropped, the new one renamed into its place.
        let columns = "id, sku, title, description, category, brand, price_minor, discount_hundredths, stock, "
            + "rating_hundredths, tags, minimum_order_quantity, created_at, updated_at"
        try db.execute(sql: """
            INSERT INTO new_products (\(columns)) SELECT \(columns) FROM products;
            DROP TABLE products;
            ALTER TABLE new_products RENAME TO products;
            """)
        // 8. The indexes and triggers again, as they were. (9, views: a store has none.)
        for statement in dependents { try db.execute(sql: statement) }
    }
}

extension Schema {
    /// `CREATE TABLE name (…)`: the products table of version 1, its id column declared as `id`
    /// (version 1's own, or the bounded one the rebuild of the table gives it).
    static func productsTable(_ name: String, id: String) -> String {
        """
        CREATE TABLE \(name) (
            id                     \(id),
            sku                    TEXT NOT NULL UNIQUE COLLATE NOCASE,
            title                  TEXT NOT NULL,
            description            TEXT NOT NULL DEFAULT '',
            category               TEXT NOT NULL,
            brand                  TEXT,
            price_minor            INTEGER NOT NULL CHECK (price_minor >= 0),
            discount_hundredths    INTEGER NOT NULL DEFAULT 0 CHECK (discount_hundredths BETWEEN \(Percentage.hundredthsRange.lowerBound) AND \(Percentage.hundredthsRange.upperBound)),
            stock                  INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
            rating_hundredths      INTEGER NOT NULL DEFAULT 0 CHECK (rating_hundredths BETWEEN 0 AND 500),
            tags                   TEXT NOT NULL DEFAULT '',
            minimum_order_quantity INTEGER NOT NULL DEFAULT 1,
            created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        )
        """
    }
}
