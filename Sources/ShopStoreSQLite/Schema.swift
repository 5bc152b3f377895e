// Schema: the SQLite tables, indexes and migrations of a shop store.

import GRDB
import ShopCore

/// The store's migrations. Each one runs once, in a transaction, in order, and sets
/// `PRAGMA user_version` to its number, so a store newer than this binary is recognised.
enum Schema {
    /// The migrations, oldest first.
    static let migrationNames = ["v1: shop", "v2: shopsh application id", "v3: audit log"]

    /// The schema version of a store with every migration of this binary.
    static var version: Int { migrationNames.count }

    /// The tables a store has (besides GRDB's migration table).
    static let tableNames = ["shop_meta", "products", "users", "basket_lines", "favorites", "orders", "order_lines",
                             "currencies", "currency_rates", "audit_log"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        func register(_ number: Int, _ body: @escaping @Sendable (Database) throws -> Void) {
            migrator.registerMigration(migrationNames[number - 1]) { db in
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

                CREATE TABLE products (
                    id                     INTEGER PRIMARY KEY,
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
                );
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
                                           CHECK (status IN ('placed', 'paid', 'shipped', 'delivered', 'cancelled')),
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
        return migrator
    }
}
