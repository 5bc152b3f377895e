// PostgresAuditSchema: migration 3 — the append-only audit log (the server fills in who, when and
// in which role, so operators cannot forge them), the masking views a viewer reads instead of
// `users` and `audit_log` (PersonalDataMask's rule, in SQL), and the functions the roles needed
// then. Migration 4 (PostgresServerRules) replaces the two stock functions with the server's own
// checkout and status change, and has the server write every audit row; a migration is never
// edited once released, so this one stays as it was.

import ShopCore
import ShopStoreKit

/// The DDL of migration 3 (constant SQL) and the masking rule as SQL expressions.
package enum PostgresAuditSchema {
    // MARK: - The masking rule in SQL (tests compare it with PersonalDataMask)

    /// `emily.johnson@x.dummyjson.com` → `e***@x.dummyjson.com`; no `@`, or one first → `***`.
    /// `column` is constant SQL (a column or expression of this file), never a value.
    package static func maskedEmail(_ column: String) -> String {
        """
        CASE WHEN \(column) IS NULL THEN NULL
             WHEN position('@' in \(column)) > 1 THEN left(\(column), 1) || '***' || substr(\(column), position('@' in \(column)))
             ELSE '***' END
        """
    }

    /// Every ASCII digit but those of the last four characters becomes `*`.
    package static func maskedPhone(_ column: String) -> String {
        "(regexp_replace(left(\(column), -4), '[0-9]', '*', 'g') || right(\(column), 4))"
    }

    /// An audit row's fields (a JSON object) with the text values of `email` and `phone` masked.
    package static func maskedFields(_ column: String) -> String {
        """
        CASE WHEN \(column) IS NULL THEN NULL ELSE \(column)
            || CASE WHEN jsonb_typeof(\(column) -> 'email') = 'string'
                    THEN jsonb_build_object('email', \(maskedEmail("(\(column) ->> 'email')"))) ELSE '{}'::jsonb END
            || CASE WHEN jsonb_typeof(\(column) -> 'phone') = 'string'
                    THEN jsonb_build_object('phone', \(maskedPhone("(\(column) ->> 'phone')"))) ELSE '{}'::jsonb END
        END
        """
    }

    // MARK: - Migration 3

    package static let statements: [String] = [
        // The shopsh role of the session's login, for the audit rows' `role`. SECURITY DEFINER so
        // that `current_user` inside is the function's owner, the store's owner, whose members
        // are admins; it reads only the catalog. Every SECURITY DEFINER function here names pg_temp last in
        // its search_path: otherwise a session's temporary tables would come first and could stand in for ours.
        """
        CREATE FUNCTION shopsh_session_role() RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        SELECT \(PostgresRoleSQL.role(owner: "current_user"))
        $$
        """,
        // Operators insert only command, entity, entity_id, action, before and after (PostgresRoles):
        // the id, time, operator and role come from the server.
        """
        CREATE TABLE audit_log (
            id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at        TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
            operator  TEXT NOT NULL DEFAULT session_user,
            role      TEXT NOT NULL DEFAULT shopsh_session_role(),
            command   TEXT NOT NULL DEFAULT '',
            entity    TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            action    TEXT NOT NULL,
            before    JSONB,
            after     JSONB
        )
        """,
        "CREATE INDEX audit_log_by_entity ON audit_log (entity, entity_id)",
        "CREATE INDEX audit_log_by_operator ON audit_log (operator)",
        "CREATE INDEX audit_log_by_time ON audit_log (at)",
        // What a viewer reads: owned by the store's owner, so they read the tables with its rights.
        """
        CREATE VIEW users_masked AS
        SELECT id, username, \(maskedEmail("email")) AS email, first_name, last_name, \(maskedPhone("phone")) AS phone,
               role, status, created_at
        FROM users
        """,
        maskedAuditView(withChangeSet: false),
        // A new basket line is counted with the customer's row locked (PostgresBasketService.checkRoom);
        // a row lock needs UPDATE on the table, which support has not on users: this function takes
        // the lock with the owner's rights. Its search_path is fixed to this schema.
        """
        DO $do$ BEGIN
            EXECUTE format($f$
                CREATE FUNCTION shopsh_lock_basket(customer BIGINT) RETURNS void
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                BEGIN PERFORM 1 FROM users WHERE id = customer FOR NO KEY UPDATE; END
                $body$
                $f$, current_schema());
        END $do$
        """,
        "REVOKE EXECUTE ON FUNCTION shopsh_lock_basket(BIGINT) FROM PUBLIC",
        // Stock moves only with an order, also for someone with psql: support may not UPDATE
        // products. order_stock is what each order took from the shelves (no role may touch it):
        // checkout writes its order and lines, then takes their stock through
        // shopsh_take_order_stock (once per order, recorded here); shopsh_cancel_order gives back
        // exactly what was recorded, once. Orders older than this table took their lines' stock.
        """
        CREATE TABLE order_stock (
            order_id   BIGINT NOT NULL,
            product_id BIGINT NOT NULL,
            quantity   BIGINT NOT NULL CHECK (quantity > 0),
            PRIMARY KEY (order_id, product_id)
        )
        """,
        takenByOrders,
        """
        DO $do$ BEGIN
            EXECUTE format($f$
                CREATE FUNCTION shopsh_take_order_stock(target BIGINT, stamp TIMESTAMPTZ) RETURNS BIGINT
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                DECLARE line RECORD;
                BEGIN
                    PERFORM 1 FROM orders WHERE id = target AND status = 'placed' FOR UPDATE;
                    IF NOT FOUND OR EXISTS (SELECT 1 FROM order_stock WHERE order_id = target) THEN
                        RAISE EXCEPTION 'order %% has no stock left to take', target USING ERRCODE = '55000';
                    END IF;
                    -- In product id order, as every checkout: two never wait on each other in a circle.
                    FOR line IN SELECT product_id, sum(quantity) AS quantity FROM order_lines
                                WHERE order_id = target AND product_id IS NOT NULL
                                GROUP BY product_id ORDER BY product_id LOOP
                        UPDATE products SET stock = stock - line.quantity, updated_at = stamp
                        WHERE id = line.product_id AND stock >= line.quantity;
                        IF NOT FOUND THEN RETURN line.product_id; END IF;
                        INSERT INTO order_stock (order_id, product_id, quantity) VALUES (target, line.product_id, line.quantity);
                    END LOOP;
                    RETURN NULL;
                END
                $body$
                $f$, current_schema());
            EXECUTE format($f$
                CREATE FUNCTION shopsh_cancel_order(target BIGINT, stamp TIMESTAMPTZ) RETURNS BOOLEAN
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                DECLARE taken RECORD;
                BEGIN
                    PERFORM 1 FROM orders WHERE id = target AND status IN (\(OrderStatusSQL.movingTo(.cancelled))) FOR UPDATE;
                    IF NOT FOUND THEN RETURN false; END IF;
                    UPDATE orders SET status = 'cancelled', updated_at = stamp WHERE id = target;
                    FOR taken IN SELECT product_id, quantity FROM order_stock WHERE order_id = target ORDER BY product_id LOOP
                        UPDATE products SET stock = stock + taken.quantity, updated_at = stamp WHERE id = taken.product_id;
                    END LOOP;
                    DELETE FROM order_stock WHERE order_id = target;
                    RETURN true;
                END
                $body$
                $f$, current_schema());
        END $do$
        """,
        "REVOKE EXECUTE ON FUNCTION shopsh_take_order_stock(BIGINT, TIMESTAMPTZ), shopsh_cancel_order(BIGINT, TIMESTAMPTZ) FROM PUBLIC",
    ]

    /// Records the stock that the orders not cancelled took (their lines'): for the orders there
    /// are when the table is made, and for those a seed writes.
    package static let takenByOrders = """
        INSERT INTO order_stock (order_id, product_id, quantity)
        SELECT l.order_id, l.product_id, sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE o.status <> 'cancelled' AND l.product_id IS NOT NULL
        GROUP BY l.order_id, l.product_id
        ON CONFLICT DO NOTHING
        """

    /// Migration v8: the rows one transaction writes share a change set, its transaction id, set
    /// by the server (nobody inserts audit rows but the server's triggers and functions); rows
    /// from before have none. The masked view shows it too. And basket lines' last change.
    package static let changeSetStatements: [String] = [
        "ALTER TABLE audit_log ADD COLUMN change_set BIGINT",
        "ALTER TABLE audit_log ALTER COLUMN change_set SET DEFAULT (pg_current_xact_id()::text::bigint)",
        "CREATE INDEX audit_log_by_change_set ON audit_log (change_set)",
        // A basket line's last change (`basket list`): when it was added, or its quantity last
        // changed, kept by the server whoever changes it.
        "ALTER TABLE basket_lines ADD COLUMN changed_at TIMESTAMPTZ",
        "UPDATE basket_lines SET changed_at = added_at",
        """
        CREATE FUNCTION shopsh_basket_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- Whatever a client sends for it: the server alone says when a line last changed.
            IF TG_OP = 'INSERT' THEN
                NEW.changed_at := NEW.added_at;
            ELSIF NEW.quantity IS DISTINCT FROM OLD.quantity THEN
                NEW.changed_at := clock_timestamp();
            ELSE
                NEW.changed_at := OLD.changed_at;
            END IF;
            RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER basket_lines_changed BEFORE INSERT OR UPDATE ON basket_lines
        FOR EACH ROW EXECUTE FUNCTION shopsh_basket_line_changed()
        """,
        maskedAuditView(withChangeSet: true),
    ]

    /// What a viewer reads of the audit log: commands about users hidden, emails elsewhere masked,
    /// and the changed fields masked (v3; v8 adds the change set at the end).
    package static func maskedAuditView(withChangeSet: Bool, addresses: Bool = false) -> String {
        // v14: an address's name, street lines and postal code masked too.
        func fields(_ column: String) -> String {
            guard addresses else { return maskedFields(column) }
            return "(\(maskedFields(column))) || " + PostgresAddressSchema.maskedAddressFields(column, isAddress: "entity = 'user' AND action LIKE 'address %'")
        }
        return """
        CREATE \(withChangeSet ? "OR REPLACE " : "")VIEW audit_log_masked AS
        SELECT id, at, operator, role,
               CASE WHEN entity = 'user' THEN '***'
                    ELSE regexp_replace(command, '([^[:space:]@])[^[:space:]@]*@', '\\1***@', 'g') END AS command,
               entity, entity_id, action,
               \(fields("before")) AS before, \(fields("after")) AS after\(withChangeSet ? ", change_set" : "")
        FROM audit_log
        """
    }
}
