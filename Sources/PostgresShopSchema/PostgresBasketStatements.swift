// PostgresBasketStatements: migration 5 — a basket or favourites change in one round trip (issue
// 20). A basket add, set or remove (a favourite's add, remove or toggle) was a transaction of six to nine statements (BEGIN, the customer, the
// product, the basket's room, the write, COMMIT), each a round trip to the server. Each is now one
// call of a function that does the same steps on the server, in the same order and with the same
// lock, and records its audit rows through the same triggers, as one implicit transaction.
//
// As this migration made them, the functions only said yes: when anything was not as a change
// needs it (no such customer or product, a disabled customer, no stock, a full basket or line),
// they changed nothing and returned no row, and the store ran its step-by-step path to say why.
// Migration 11 (PostgresRefusingSchema) has each refusal raise its own code instead. They have no exception block of their own: entering one starts a
// subtransaction, which cost a third of the server's time for a batch of basket commands. They
// run with the caller's rights (SECURITY INVOKER): the grants of each role apply as they do to a
// plain INSERT.

import ShopCore

/// The DDL of migration 5 (constant SQL; the schema's name is quoted by the server).
package enum PostgresBasketStatements {
    /// What each function returns for the line it changed: the customer's id, the product as the
    /// line shows it, the stock it was read with, and the line's quantity (0: the line was removed).
    package static let lineColumns = """
        out_user_id BIGINT, out_product_id BIGINT, out_sku TEXT, out_title TEXT, out_price_minor BIGINT, out_discount_hundredths INTEGER,
        out_stock BIGINT, out_quantity INTEGER
        """

    /// The arguments every function takes: the customer (id when the reference reads as one, and
    /// the trimmed reference as a username or email), the product (id, and the reference as a SKU),
    /// and how long it may wait for a lock (`lock_wait`: PostgresDatabase.oneCallLockWait).
    package static let referenceArguments = "customer_id BIGINT, customer_name TEXT, item_id BIGINT, item_ref TEXT, lock_wait TEXT"

    /// Bounds the function's lock waits when asked (`lock_wait`), then looks the customer and the
    /// product up as PostgresUserLookup and PostgresProductService do (id first, then the name
    /// ignoring case), into `uid`/`ustatus` and `item`.
    package static let lookups = """
        IF lock_wait IS NOT NULL THEN PERFORM set_config('lock_timeout', lock_wait, true); END IF;
        IF customer_id IS NOT NULL THEN
            SELECT u.id, u.status INTO uid, ustatus FROM users u WHERE u.id = customer_id;
        END IF;
        IF uid IS NULL THEN
            SELECT u.id, u.status INTO uid, ustatus FROM users u
            WHERE lower(u.username) = lower(customer_name) OR lower(u.email) = lower(customer_name) LIMIT 1;
        END IF;
        IF uid IS NULL THEN RETURN; END IF;
        IF item_id IS NOT NULL THEN
            SELECT * INTO item FROM products p WHERE p.id = item_id;
        END IF;
        IF item.id IS NULL THEN
            SELECT * INTO item FROM products p WHERE lower(p.sku) = lower(item_ref);
        END IF;
        IF item.id IS NULL THEN RETURN; END IF;
        """

    /// Names the command and action for the audit triggers (as PostgresDatabase.name does).
    package static func naming(_ action: String) -> String {
        "PERFORM set_config('shopsh.command', command, true), set_config('shopsh.action', '\(action)', true);"
    }

    /// A new line needs room: the basket's lines counted with the customer's row locked (as
    /// PostgresBasketService.checkRoom), refusing when the basket is full.
    package static let roomForNewLine = """
        PERFORM shopsh_lock_basket(uid);
        SELECT count(*), COALESCE(bool_or(b.product_id = item.id), false) INTO lines, held
        FROM basket_lines b WHERE b.user_id = uid;
        IF NOT held AND lines >= \(BasketLimits.maxLines) THEN RETURN; END IF;
        """

    package static let declarations = "DECLARE uid BIGINT; ustatus TEXT; item products%%ROWTYPE; lines BIGINT; held BOOLEAN; stored INTEGER;"

    /// A basket function named `name` taking `arguments` after the references, doing `action`:
    /// its head, then `body` after the naming of its command and the lookups.
    package static func function(_ name: String, _ arguments: String, action: String, _ body: String) -> String {
        """
        CREATE FUNCTION \(name)(\(referenceArguments), \(arguments))
        RETURNS TABLE(\(lineColumns))
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, %I, pg_temp AS $body$
        \(declarations)
        BEGIN
            \(naming(action))
            \(lookups)
            \(body)
        END
        $body$
        """
    }

    /// Returns the changed line, holding `quantity`.
    package static func returning(_ quantity: String) -> String {
        "RETURN QUERY SELECT uid, item.id, item.sku, item.title, item.price_minor, item.discount_hundredths, item.stock, \(quantity);"
    }

    /// Deletes the line, returning it with quantity 0; declines when the basket does not hold it.
    package static let deletingLine = """
        DELETE FROM basket_lines b WHERE b.user_id = uid AND b.product_id = item.id RETURNING b.quantity INTO stored;
        IF stored IS NULL THEN RETURN; END IF;
        \(returning("0"))
        """

    /// The line inserted with `amount`, or, when the basket holds it, updated as `onConflict` says.
    package static func upsertingLine(_ onConflict: String) -> String {
        """
        INSERT INTO basket_lines AS b (user_id, product_id, quantity, added_at) VALUES (uid, item.id, amount, stamp)
        ON CONFLICT (user_id, product_id) DO UPDATE SET \(onConflict)
        """
    }

    /// `basket add`: an active customer, a product in stock, room for a new line, and an increment
    /// that stays within a line's limit (the same INSERT … ON CONFLICT as the step-by-step path).
    package static let add = function("shopsh_basket_add", "amount INTEGER, stamp TIMESTAMPTZ, command TEXT", action: "add", """
            IF ustatus <> 'active' OR item.stock <= 0 THEN RETURN; END IF;
            IF NOT EXISTS (SELECT 1 FROM basket_lines b WHERE b.user_id = uid AND b.product_id = item.id) THEN
                \(roomForNewLine)
            END IF;
            \(upsertingLine("quantity = b.quantity + EXCLUDED.quantity WHERE b.quantity + EXCLUDED.quantity <= \(BasketLimits.maxQuantity)"))
            RETURNING b.quantity INTO stored;
            IF stored IS NULL THEN RETURN; END IF;
            \(returning("stored"))
        """)

    /// `basket set`: 0 removes a line the basket holds; raising a line (or adding one) is buying,
    /// so it needs what an add needs; lowering one is always allowed.
    package static let set = function("shopsh_basket_set", "amount INTEGER, stamp TIMESTAMPTZ, command TEXT", action: "set", """
            IF amount = 0 THEN
                \(deletingLine)
                RETURN;
            END IF;
            SELECT b.quantity INTO stored FROM basket_lines b WHERE b.user_id = uid AND b.product_id = item.id;
            IF amount > COALESCE(stored, 0) THEN
                IF ustatus <> 'active' OR item.stock <= 0 THEN RETURN; END IF;
                IF stored IS NULL THEN
                    \(roomForNewLine)
                END IF;
            END IF;
            \(upsertingLine("quantity = EXCLUDED.quantity"));
            \(returning("amount"))
        """)

    /// `basket remove`: a line the basket holds.
    package static let remove = function("shopsh_basket_remove", "command TEXT", action: "remove", """
            \(deletingLine)
        """)

    /// `favorites add`, `remove` and `toggle` (`what`): the favourite's row inserted (`added`, or
    /// `present` when it was there already) or deleted (`removed`, or `absent`); a toggle deletes
    /// the row when there is one, else inserts it.
    package static let favorite = """
        CREATE FUNCTION shopsh_favorite(\(referenceArguments), what TEXT, stamp TIMESTAMPTZ, command TEXT)
        RETURNS TABLE(out_result TEXT)
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, %I, pg_temp AS $body$
        \(declarations)
        BEGIN
            PERFORM set_config('shopsh.command', command, true), set_config('shopsh.action', what, true);
            \(lookups)
            IF what IN ('remove', 'toggle') THEN
                DELETE FROM favorites f WHERE f.user_id = uid AND f.product_id = item.id RETURNING 1 INTO stored;
                IF stored IS NOT NULL THEN RETURN QUERY SELECT 'removed'; RETURN; END IF;
                IF what = 'remove' THEN RETURN QUERY SELECT 'absent'; RETURN; END IF;
            ELSIF what <> 'add' THEN
                RETURN;
            END IF;
            INSERT INTO favorites AS f (user_id, product_id, added_at) VALUES (uid, item.id, stamp)
            ON CONFLICT DO NOTHING RETURNING 1 INTO stored;
            RETURN QUERY SELECT CASE WHEN stored IS NULL THEN 'present' ELSE 'added' END;
        END
        $body$
        """

    package static let statements: [String] = [add, set, remove, favorite].map(PostgresServerRules.inThisSchema)
}
