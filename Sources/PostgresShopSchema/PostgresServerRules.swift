// PostgresServerRules: migration 4 — the server itself holds the shop's invariants against any
// login but the store's owner (issue 19), also at psql:
//
// - Every change to a shop table, by shopsh or by anything else, is recorded in the audit log by
//   the server: statement triggers on each table write one row per changed row (no role but the
//   owner may insert into the log). shopsh names its command and action in two transaction-local
//   settings (`shopsh.command`, `shopsh.action`); any other client's change records
//   `(outside shopsh: <application_name>)`. The rows say what AuditChange's builders say on SQLite
//   (fields, names, money as `9.99 USD`); PostgresAuditTests compares the two stores.
// - Orders come into being only through `shopsh_checkout(customer)`: the server reads the
//   customer's basket, prices it at the catalogue's prices, takes the stock, writes the order,
//   its lines and one audit row, and empties the basket; the caller gives nothing it could lie
//   about. Orders move only along the status machine, through `shopsh_set_order_status`, which
//   restocks exactly what a cancelled order took. Rates are stored through `shopsh_store_rates`
//   (one audit row an import). These functions take the time from the server.
// - While one of those functions (or the owner's seed) runs, its transaction is marked in
//   `operation_in_progress`, a table only the owner writes: the triggers then leave the recording
//   to the operation, which writes its one row itself.

import ShopCore
import ShopStoreKit

/// The DDL of migration 4 (constant SQL; the schema's name is quoted by the server).
package enum PostgresServerRules {
    // MARK: - Custom SQLSTATEs the operations raise (PostgresRefusal words them)

    package static let noSuchCustomer = PostgresRefusal.checkoutNoCustomer.rawValue
    package static let customerDisabled = PostgresRefusal.checkoutDisabled.rawValue
    package static let emptyBasket = PostgresRefusal.checkoutEmpty.rawValue
    package static let shortOfStock = PostgresRefusal.checkoutShortOfStock.rawValue
    package static let orderIDsTaken = PostgresRefusal.checkoutOrderIDsTaken.rawValue
    package static let noSuchOrder = PostgresRefusal.noSuchOrder.rawValue
    package static let notAllowedMove = PostgresRefusal.notAllowedMove.rawValue

    /// The tables whose every change the server records, with the entity each is about and the
    /// columns that identify a row (as SQL on the row's JSON image `r`).
    package static let auditedTables = ["shop_meta", "products", "users", "basket_lines", "favorites", "orders", "order_lines",
                                "order_stock", "currencies", "currency_rates"]

    /// `sql` to stand inside `inThisSchema`'s text, which goes through `format()`: each `%` doubled
    /// (the money rules' modulo, LineTotalSQL).
    package static func formatted(_ sql: String) -> String { sql.replacingOccurrences(of: "%", with: "%%") }

    /// A trigger function `name()` made of `statements`, with the owner's rights (nobody else
    /// writes what it writes), and its grant to PUBLIC taken back. It returns `returning`: NULL
    /// for an AFTER trigger; `OLD` for a BEFORE DELETE row trigger (its `statements` may name
    /// `OLD`), letting the row go. `replacing` replaces an older migration's function of that name
    /// (its triggers stay).
    static func triggerFunction(_ name: String, _ statements: [String], returning: String = "NULL",
                                replacing: Bool = false) -> [String] {
        [
            inThisSchema("""
                CREATE \(replacing ? "OR REPLACE " : "")FUNCTION \(name)() RETURNS trigger
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                BEGIN
                \(formatted(statements.map { $0 + ";" }.joined(separator: "\n")))
                RETURN \(returning);
                END
                $body$
                """),
            "REVOKE ALL ON FUNCTION \(name)() FROM PUBLIC",
        ]
    }

    /// A row trigger's function that deletes an order's rows of `table` before the order goes, so
    /// that their statement trigger counts them out of a summary while the order is still there to
    /// say under what (the foreign key's cascade would come after it).
    static func deletesBeforeTheOrder(_ name: String, table: String) -> [String] {
        [
            inThisSchema("""
                CREATE FUNCTION \(name)() RETURNS trigger
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                BEGIN
                -- Their statement trigger counts them out under the order, which is still there.
                DELETE FROM \(table) WHERE order_id = OLD.id;
                RETURN OLD;
                END
                $body$
                """),
            "REVOKE ALL ON FUNCTION \(name)() FROM PUBLIC",
        ]
    }

    /// A `CREATE FUNCTION` whose text names this schema as `%I` (in its `SET search_path`, with
    /// `pg_temp` last, so that no session's temporary objects can stand in for the shop's), filled
    /// in by the server; `%` elsewhere in the text must be written `%%`.
    package static func inThisSchema(_ create: String) -> String {
        """
        DO $do$ BEGIN
            EXECUTE format($f$
        \(create)
            $f$, current_schema());
        END $do$
        """
    }

    package static let statements: [String] = [
        // The operations in progress: a row per transaction that runs one (deleted before it returns).
        "CREATE UNLOGGED TABLE operation_in_progress (xact xid8 PRIMARY KEY)",

        // MARK: ShopCore's ranges, also for a change at psql (rows from before are not checked again)
        "ALTER TABLE basket_lines ADD CONSTRAINT basket_lines_quantity_limit CHECK (quantity <= \(BasketLimits.maxQuantity)) NOT VALID",
        "ALTER TABLE products ADD CONSTRAINT products_price_limit CHECK (price_minor <= \(ProductLimits.maxPriceMinorUnits)) NOT VALID",
        "ALTER TABLE products ADD CONSTRAINT products_stock_limit CHECK (stock <= \(ProductLimits.maxStock)) NOT VALID",

        // MARK: How rows read in the log (pure functions; tests compare them with AuditChange)

        hundredthsText,
        tagsList,
        auditFields,
        // What identifies a row of `source`, to pair the rows before and after an UPDATE.
        """
        CREATE FUNCTION shopsh_audit_key(source TEXT, r JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE source
            WHEN 'basket_lines' THEN (r ->> 'user_id') || ' ' || (r ->> 'product_id')
            WHEN 'favorites' THEN (r ->> 'user_id') || ' ' || (r ->> 'product_id')
            WHEN 'order_lines' THEN (r ->> 'order_id') || ' ' || (r ->> 'line_number')
            WHEN 'order_stock' THEN (r ->> 'order_id') || ' ' || (r ->> 'product_id')
            WHEN 'currencies' THEN r ->> 'code'
            WHEN 'currency_rates' THEN (r ->> 'code') || ' ' || (r ->> 'date')
            WHEN 'shop_meta' THEN r ->> 'key'
            ELSE r ->> 'id'
        END
        $$
        """,
        // The command an audit row names: shopsh's (it sets shopsh.action), or the other client's name.
        """
        CREATE FUNCTION shopsh_audit_command() RETURNS TEXT LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN COALESCE(current_setting('shopsh.action', true), '') <> ''
                    THEN COALESCE(current_setting('shopsh.command', true), '')
                    ELSE '(outside shopsh: ' || COALESCE(NULLIF(current_setting('application_name', true), ''), 'a client without a name') || ')'
               END
        $$
        """,
        inThisSchema(auditRow),
        inThisSchema(auditStatement),
        "REVOKE EXECUTE ON FUNCTION shopsh_audit_row(TEXT, TEXT, JSONB, JSONB), shopsh_audit_statement() FROM PUBLIC",
    ] + triggers + [
        // MARK: The operations
        "DROP FUNCTION shopsh_take_order_stock(BIGINT, TIMESTAMPTZ)",
        "DROP FUNCTION shopsh_cancel_order(BIGINT, TIMESTAMPTZ)",
        inThisSchema(checkout),
        inThisSchema(setOrderStatus),
        inThisSchema(storeRates),
        """
        REVOKE EXECUTE ON FUNCTION shopsh_checkout(BIGINT), shopsh_set_order_status(BIGINT, TEXT),
                                   shopsh_store_rates(DATE[], TEXT[], NUMERIC[]) FROM PUBLIC
        """,
    ]

    /// `1999` → `19.99`: minor units or hundredths as the exact decimal text Swift prints.
    static let hundredthsText = """
        CREATE FUNCTION shopsh_hundredths_text(units BIGINT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
        SELECT \(hundredths("units"))
        $$
        """

    /// The expression of `shopsh_hundredths_text` over `units` (an SQL expression of type BIGINT).
    static func hundredths(_ units: String) -> String {
        "CASE WHEN \(units) < 0 THEN '-' ELSE '' END || (abs(\(units)) / 100)::text || '.' || lpad((abs(\(units)) % 100)::text, 2, '0')"
    }

    /// Stored tags (`a,b`) as a JSON list, empty tags dropped (StoredTags.decode).
    static let tagsList = """
        CREATE FUNCTION shopsh_tags_list(tags TEXT) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
        SELECT COALESCE(jsonb_agg(t.tag ORDER BY t.n), '[]'::jsonb)
        FROM unnest(string_to_array(tags, ',')) WITH ORDINALITY AS t(tag, n) WHERE t.tag <> ''
        $$
        """

    /// The audited fields of a row of `source` (its JSON image): AuditChange.fields for products
    /// and users (never a password hash), product and quantity for a basket line; for the other
    /// tables every column but the timestamps.
    package static let auditFields = """
        CREATE FUNCTION shopsh_audit_fields(source TEXT, r JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE source
            WHEN 'products' THEN jsonb_build_object(
                'sku', r -> 'sku', 'title', r -> 'title', 'description', r -> 'description', 'category', r -> 'category',
                'brand', r -> 'brand', 'price', shopsh_hundredths_text((r ->> 'price_minor')::bigint) || ' USD',
                'discount', shopsh_hundredths_text((r ->> 'discount_hundredths')::bigint), 'stock', r -> 'stock',
                'rating', shopsh_hundredths_text((r ->> 'rating_hundredths')::bigint), 'tags', shopsh_tags_list(r ->> 'tags'),
                'minimum_order_quantity', r -> 'minimum_order_quantity')
            WHEN 'users' THEN jsonb_build_object(
                'username', r -> 'username', 'email', r -> 'email', 'first_name', r -> 'first_name',
                'last_name', r -> 'last_name', 'phone', r -> 'phone', 'role', r -> 'role', 'status', r -> 'status')
            WHEN 'basket_lines' THEN jsonb_build_object('product', r -> 'product_id', 'quantity', r -> 'quantity')
            ELSE r - 'created_at' - 'updated_at' - 'added_at'
        END
        $$
        """

    /// Three statement triggers a table (transition tables take one event each).
    package static var triggers: [String] { auditedTables.flatMap(triggers(on:)) }

    /// The three audit triggers of `table` (a constant name).
    package static func triggers(on table: String) -> [String] {
        [
            "CREATE TRIGGER shopsh_audit_insert AFTER INSERT ON \(table) REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shopsh_audit_statement()",
            "CREATE TRIGGER shopsh_audit_update AFTER UPDATE ON \(table) REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shopsh_audit_statement()",
            "CREATE TRIGGER shopsh_audit_delete AFTER DELETE ON \(table) REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION shopsh_audit_statement()",
        ]
    }

    /// The audit row (at most one) of one changed row of `source`: `before`/`after` are the row's
    /// JSON images (NULL when it did not exist). No row for a change that changes no audited field,
    /// nor for a basket line, favourite or order line that a deleted customer or product took with
    /// it (the delete's own row says so). `shopsh_action` is shopsh's word for the change.
    package static let auditRow = """
        CREATE FUNCTION shopsh_audit_row(source TEXT, shopsh_action TEXT, old_row JSONB, new_row JSONB,
                                         OUT entity TEXT, OUT entity_id TEXT, OUT action TEXT,
                                         OUT before JSONB, OUT after JSONB, OUT sort_number NUMERIC, OUT sort_text TEXT)
        RETURNS SETOF record LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            r JSONB := COALESCE(new_row, old_row);
            old_fields JSONB := CASE WHEN old_row IS NOT NULL THEN shopsh_audit_fields(source, old_row) END;
            new_fields JSONB := CASE WHEN new_row IS NOT NULL THEN shopsh_audit_fields(source, new_row) END;
        BEGIN
            -- What a deleted customer or product took with it (the foreign keys' cascades).
            IF source IN ('basket_lines', 'favorites') AND new_row IS NULL
               AND (NOT EXISTS (SELECT 1 FROM users u WHERE u.id = (old_row ->> 'user_id')::bigint)
                    OR NOT EXISTS (SELECT 1 FROM products p WHERE p.id = (old_row ->> 'product_id')::bigint)) THEN
                RETURN;
            END IF;
            IF source = 'order_lines' AND old_row IS NOT NULL AND new_row IS NOT NULL AND new_row -> 'product_id' = 'null'::jsonb
               AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = (old_row ->> 'product_id')::bigint)
               AND old_row - 'product_id' = new_row - 'product_id' THEN
                RETURN;
            END IF;
            IF source = 'orders' AND old_row IS NOT NULL AND new_row IS NOT NULL AND new_row -> 'user_id' = 'null'::jsonb
               AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = (old_row ->> 'user_id')::bigint)
               AND old_row - 'user_id' = new_row - 'user_id' THEN
                RETURN;
            END IF;

            entity := CASE source WHEN 'products' THEN 'product' WHEN 'users' THEN 'user' WHEN 'basket_lines' THEN 'basket'
                                  WHEN 'favorites' THEN 'favourite' WHEN 'orders' THEN 'order' WHEN 'order_lines' THEN 'order'
                                  WHEN 'order_stock' THEN 'order' WHEN 'currencies' THEN 'currency'
                                  WHEN 'currency_rates' THEN 'currency' ELSE 'shop' END;
            entity_id := CASE source WHEN 'basket_lines' THEN r ->> 'user_id' WHEN 'favorites' THEN r ->> 'user_id'
                                     WHEN 'order_lines' THEN r ->> 'order_id' WHEN 'order_stock' THEN r ->> 'order_id'
                                     WHEN 'currencies' THEN r ->> 'code' WHEN 'currency_rates' THEN r ->> 'code'
                                     WHEN 'shop_meta' THEN r ->> 'key' ELSE r ->> 'id' END;
            sort_text := shopsh_audit_key(source, r);
            sort_number := CASE source WHEN 'basket_lines' THEN (r ->> 'product_id')::numeric
                                       WHEN 'favorites' THEN (r ->> 'product_id')::numeric
                                       WHEN 'order_lines' THEN (r ->> 'line_number')::numeric
                                       WHEN 'products' THEN (r ->> 'id')::numeric WHEN 'users' THEN (r ->> 'id')::numeric
                                       WHEN 'orders' THEN (r ->> 'id')::numeric ELSE 0 END;

            IF source = 'favorites' THEN
                -- A favourite is there or not: added, removed, or (a key changed at psql) moved.
                action := CASE WHEN old_row IS NULL THEN 'add' WHEN new_row IS NULL THEN 'remove' ELSE 'update' END;
                IF old_row IS NOT NULL AND new_row IS NOT NULL AND old_row -> 'product_id' = new_row -> 'product_id' THEN RETURN; END IF;
                before := jsonb_build_object('product', (COALESCE(old_row, new_row)) -> 'product_id', 'favourite', old_row IS NOT NULL);
                after := jsonb_build_object('product', (COALESCE(new_row, old_row)) -> 'product_id', 'favourite', new_row IS NOT NULL);
                RETURN NEXT;
                RETURN;
            END IF;

            IF source = 'basket_lines' THEN
                -- Both sides whole, as AuditChange.basketLine: the product and its quantity.
                before := old_fields;
                after := new_fields;
                action := COALESCE(shopsh_action, CASE WHEN old_row IS NULL THEN 'add' WHEN new_row IS NULL THEN 'remove' ELSE 'set' END);
            ELSIF old_row IS NULL OR new_row IS NULL THEN
                before := old_fields;
                after := new_fields;
                action := COALESCE(shopsh_action, CASE WHEN old_row IS NULL THEN 'add' ELSE 'delete' END);
            ELSE
                -- Only the fields that changed, on both sides (AuditChange.diff).
                SELECT jsonb_object_agg(o.key, o.value) INTO before FROM jsonb_each(old_fields) o
                WHERE new_fields -> o.key IS DISTINCT FROM o.value;
                SELECT jsonb_object_agg(n.key, n.value) INTO after FROM jsonb_each(new_fields) n
                WHERE old_fields -> n.key IS DISTINCT FROM n.value;
                -- A new password hash shows as a new password, never as the hash.
                IF source = 'users' AND old_row -> 'password_hash' IS DISTINCT FROM new_row -> 'password_hash' THEN
                    before := COALESCE(before, '{}'::jsonb) || jsonb_build_object('password', '***');
                    after := COALESCE(after, '{}'::jsonb) || jsonb_build_object('password', '*** (new)');
                END IF;
                action := COALESCE(shopsh_action, 'update');
            END IF;
            IF before IS NOT DISTINCT FROM after THEN RETURN; END IF;
            RETURN NEXT;
        END
        $body$
        """

    /// The trigger function: the rows the statement changed, each as its audit row, in key order.
    /// Nothing while an operation of the owner's runs in this transaction (it records itself).
    package static let auditStatement = """
        CREATE FUNCTION shopsh_audit_statement() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            shopsh_action TEXT := NULLIF(current_setting('shopsh.action', true), '');
            command TEXT;
        BEGIN
            IF EXISTS (SELECT 1 FROM operation_in_progress WHERE xact = pg_current_xact_id()) THEN RETURN NULL; END IF;
            command := shopsh_audit_command();
            IF TG_OP = 'INSERT' THEN
                INSERT INTO audit_log (command, entity, entity_id, action, before, after)
                SELECT command, a.entity, a.entity_id, a.action, a.before, a.after
                FROM new_rows n CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, NULL, to_jsonb(n)) a
                ORDER BY a.sort_number, a.sort_text;
            ELSIF TG_OP = 'DELETE' THEN
                INSERT INTO audit_log (command, entity, entity_id, action, before, after)
                SELECT command, a.entity, a.entity_id, a.action, a.before, a.after
                FROM old_rows o CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, to_jsonb(o), NULL) a
                ORDER BY a.sort_number, a.sort_text;
            ELSE
                INSERT INTO audit_log (command, entity, entity_id, action, before, after)
                SELECT command, a.entity, a.entity_id, a.action, a.before, a.after
                FROM (SELECT to_jsonb(o) AS image FROM old_rows o) o
                FULL JOIN (SELECT to_jsonb(n) AS image FROM new_rows n) n
                       ON shopsh_audit_key(TG_TABLE_NAME, o.image) = shopsh_audit_key(TG_TABLE_NAME, n.image)
                CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, o.image, n.image) a
                ORDER BY a.sort_number, a.sort_text;
            END IF;
            RETURN NULL;
        END
        $body$
        """

    /// Checkout, on the server: the customer's basket at the catalogue's prices becomes an order.
    /// Locks the basket's lines, takes each product's stock in product id order (so two checkouts
    /// never wait on each other in a circle), writes the order (the next id; totals as ShopCore's
    /// PricedLine computes them: each line's discount rounded once, half away from zero), its lines
    /// (oldest first, as the basket lists them) and what it took from the shelves, empties the
    /// basket and records one audit row (AuditChange.checkout). Any refusal undoes everything.
    package static let checkout = """
        CREATE FUNCTION shopsh_checkout(buyer_id BIGINT) RETURNS BIGINT
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            buyer RECORD;
            line RECORD;
            new_order BIGINT;
            gross NUMERIC;
            net NUMERIC;
        BEGIN
            SELECT u.id, u.username, u.status INTO buyer FROM users u WHERE u.id = buyer_id FOR SHARE;
            IF NOT FOUND THEN RAISE EXCEPTION 'no such customer' USING ERRCODE = '\(noSuchCustomer)'; END IF;
            IF buyer.status <> 'active' THEN RAISE EXCEPTION 'the customer is disabled' USING ERRCODE = '\(customerDisabled)'; END IF;
            PERFORM 1 FROM basket_lines b WHERE b.user_id = buyer_id ORDER BY b.product_id FOR UPDATE;
            IF NOT FOUND THEN RAISE EXCEPTION 'the basket is empty' USING ERRCODE = '\(emptyBasket)'; END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            FOR line IN SELECT b.product_id, b.quantity FROM basket_lines b WHERE b.user_id = buyer_id ORDER BY b.product_id LOOP
                UPDATE products p SET stock = p.stock - line.quantity, updated_at = now()
                WHERE p.id = line.product_id AND p.stock >= line.quantity;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'not enough stock' USING ERRCODE = '\(shortOfStock)', DETAIL = line.product_id::text;
                END IF;
            END LOOP;
            SELECT sum(p.price_minor::numeric * b.quantity),
                   sum(round(p.price_minor::numeric * b.quantity * (10000 - p.discount_hundredths) / 10000))
            INTO gross, net
            FROM basket_lines b JOIN products p ON p.id = b.product_id WHERE b.user_id = buyer_id;
            FOR attempt IN 1..20 LOOP
                INSERT INTO orders (id, user_id, customer, status, currency, total_minor, discounted_total_minor, created_at, updated_at)
                SELECT COALESCE(max(o.id), 0) + 1, buyer.id, buyer.username, 'placed', 'USD', gross::bigint, net::bigint, now(), now()
                FROM orders o
                ON CONFLICT (id) DO NOTHING
                RETURNING id INTO new_order;
                EXIT WHEN new_order IS NOT NULL;
            END LOOP;
            IF new_order IS NULL THEN RAISE EXCEPTION 'no free order id' USING ERRCODE = '\(orderIDsTaken)'; END IF;
            INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor, discount_hundredths, quantity)
            SELECT new_order, row_number() OVER (ORDER BY b.added_at, b.product_id), p.id, p.sku, p.title, p.price_minor,
                   p.discount_hundredths, b.quantity
            FROM basket_lines b JOIN products p ON p.id = b.product_id WHERE b.user_id = buyer_id;
            INSERT INTO order_stock (order_id, product_id, quantity)
            SELECT new_order, b.product_id, b.quantity FROM basket_lines b WHERE b.user_id = buyer_id;
            DELETE FROM basket_lines b WHERE b.user_id = buyer_id;
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            SELECT shopsh_audit_command(), 'order', new_order::text, 'checkout', NULL,
                   jsonb_build_object('user', buyer.id, 'status', 'placed', 'total', shopsh_hundredths_text(net::bigint) || ' USD',
                                      'lines', jsonb_agg(COALESCE(l.product_id::text, l.sku) || ' × ' || l.quantity ORDER BY l.line_number))
            FROM order_lines l WHERE l.order_id = new_order;
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN new_order;
        END
        $body$
        """

    /// Moves an order along the status machine (placed → paid → shipped → delivered; placed or
    /// paid → cancelled, which gives back exactly the stock the order took, once) and records one
    /// audit row (AuditChange.orderStatus). Returns the status the order had.
    package static let setOrderStatus = """
        CREATE FUNCTION shopsh_set_order_status(target_order BIGINT, next_status TEXT) RETURNS TEXT
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            previous TEXT;
            taken RECORD;
        BEGIN
            SELECT o.status INTO previous FROM orders o WHERE o.id = target_order FOR UPDATE;
            IF NOT FOUND THEN RAISE EXCEPTION 'no such order' USING ERRCODE = '\(noSuchOrder)'; END IF;
            IF (previous, next_status) NOT IN (\(OrderStatusSQL.moves)) THEN
                RAISE EXCEPTION 'an order moves only placed, paid, shipped, delivered, or to cancelled from placed or paid'
                    USING ERRCODE = '\(notAllowedMove)';
            END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            UPDATE orders o SET status = next_status, updated_at = now() WHERE o.id = target_order;
            IF next_status = 'cancelled' THEN
                FOR taken IN SELECT s.product_id, s.quantity FROM order_stock s WHERE s.order_id = target_order ORDER BY s.product_id LOOP
                    UPDATE products p SET stock = p.stock + taken.quantity, updated_at = now() WHERE p.id = taken.product_id;
                END LOOP;
                DELETE FROM order_stock s WHERE s.order_id = target_order;
            END IF;
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            VALUES (shopsh_audit_command(), 'order', target_order::text,
                    CASE WHEN next_status = 'cancelled' THEN 'cancel' ELSE 'status' END,
                    jsonb_build_object('status', previous), jsonb_build_object('status', next_status));
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN previous;
        END
        $body$
        """

    /// Stores exchange rates (a later rate of the same day and code replacing an earlier one) and
    /// records one audit row for them all (AuditChange.rates). Returns how many were given.
    package static let storeRates = """
        CREATE FUNCTION shopsh_store_rates(days DATE[], codes TEXT[], rates NUMERIC[]) RETURNS INTEGER
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            given INTEGER := COALESCE(cardinality(days), 0);
            codes_given TEXT[];
        BEGIN
            IF given <> COALESCE(cardinality(codes), 0) OR given <> COALESCE(cardinality(rates), 0) THEN
                RAISE EXCEPTION 'as many days, codes and rates are needed' USING ERRCODE = '22023';
            END IF;
            IF given = 0 THEN RETURN 0; END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            INSERT INTO currency_rates (date, code, rate)
            SELECT DISTINCT ON (g.code, g.day) g.day, g.code, g.rate
            FROM unnest(days, codes, rates) WITH ORDINALITY AS g(day, code, rate, n)
            ORDER BY g.code, g.day, g.n DESC
            ON CONFLICT (code, date) DO UPDATE SET rate = EXCLUDED.rate;
            SELECT array_agg(DISTINCT c ORDER BY c) INTO codes_given FROM unnest(codes) c;
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            SELECT shopsh_audit_command(), 'currency', CASE WHEN cardinality(codes_given) = 1 THEN codes_given[1] ELSE 'rates' END,
                   'import', NULL,
                   jsonb_build_object('rates', given, 'from', to_char(min(d), 'YYYY-MM-DD'), 'to', to_char(max(d), 'YYYY-MM-DD'),
                                      'currencies', to_jsonb(codes_given))
            FROM unnest(days) d;
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN given;
        END
        $body$
        """
}
