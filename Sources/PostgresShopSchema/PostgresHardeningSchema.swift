// PostgresHardeningSchema: migration 10 — what a login at psql could still make the server say
// or keep that shopsh never would (issue 32):
//
// - A basket line's and a favourite's times are the server's: `added_at` is the server's clock
//   when the row is inserted and never changes after; `changed_at` moves when the quantity does.
//   Only the owner's seed (which marks `operation_in_progress`) writes times of the past.
// - The audit log's command and action are named through `shopsh_name_command`, which keeps them
//   where only the owner writes (`command_names`), never through settings a client sets itself
//   (`set_config('shopsh.action', …)` names nothing now). A change nobody named shows its client,
//   `(outside shopsh: psql)`. The server's own operations' words (checkout, status, cancel) are
//   never taken from a client: a row of a direct change says what its statement did instead.
// - `shopsh_set_order_status(id, NULL)` is refused as any move the status machine does not allow.
//
// Functions of earlier migrations are replaced from their own text (a released migration is never
// edited): `replacing` fails loudly at start-up of a test run if that text no longer matches.

/// The DDL of migration 10 (constant SQL; the schema's name is quoted by the server).
package enum PostgresHardeningSchema {
    /// The actions only the server's own operations write (their one audit row each).
    package static let operationActions = ["checkout", "status", "cancel"]

    /// Names this transaction's command and shopsh's word for its direct changes (a later call
    /// in the same transaction, the next command of a run, replaces them). Rows of transactions
    /// that ended are cleared on the way, skipping any another caller is clearing. `actions`: the
    /// server's own operations' words, which a client never names (migration 12 adds to them).
    package static func nameCommand(_ actions: [String], replacing: Bool = false) -> String {
        """
            \(replacing ? "CREATE OR REPLACE" : "CREATE") FUNCTION shopsh_name_command(command TEXT, action TEXT) RETURNS void
            LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            DELETE FROM command_names WHERE xact IN (
                SELECT n.xact FROM command_names n WHERE n.xact < pg_snapshot_xmin(pg_current_snapshot()) FOR UPDATE SKIP LOCKED);
            INSERT INTO command_names (xact, command, action)
            VALUES (pg_current_xact_id(), COALESCE(command, ''),
                    CASE WHEN action IN (\(actions.map { "'\($0)'" }.joined(separator: ", "))) THEN NULL ELSE NULLIF(action, '') END)
            ON CONFLICT (xact) DO UPDATE SET command = EXCLUDED.command, action = EXCLUDED.action;
            $body$
            """
    }

    /// `text` with `old` replaced by `new`; `old` must occur (constant SQL of this module).
    package static func replacing(_ text: String, _ old: String, with new: String) -> String {
        precondition(text.contains(old), "migration 10: a replaced function no longer holds \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

    /// A function of an earlier migration, created again in place.
    package static func recreated(_ text: String) -> String {
        replacing(text, "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
    }

    /// A basket or favourite function of migration 5 naming its command through
    /// `shopsh_name_command` instead of two settings.
    package static func renamed(_ text: String) -> String {
        var named = text
        for action in ["add", "set", "remove"] where named.contains(PostgresBasketStatements.naming(action)) {
            named = replacing(named, PostgresBasketStatements.naming(action), with: "PERFORM shopsh_name_command(command, '\(action)');")
        }
        let favourite = "PERFORM set_config('shopsh.command', command, true), set_config('shopsh.action', what, true);"
        if named.contains(favourite) { named = replacing(named, favourite, with: "PERFORM shopsh_name_command(command, what);") }
        precondition(!named.contains("shopsh.action"), "migration 10: a basket function still names its action in a setting")
        return recreated(named)
    }

    package static let statements: [String] = [
        // MARK: Times a client cannot name
        PostgresServerRules.inThisSchema("""
            CREATE OR REPLACE FUNCTION shopsh_basket_line_changed() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
            -- Whatever a client sends for them: the server alone says when a line came and last changed,
            -- but for the owner's seed, which writes the demo's past.
            IF TG_OP = 'INSERT' THEN
                IF NOT shopsh_seeding() THEN NEW.added_at := clock_timestamp(); END IF;
                NEW.changed_at := NEW.added_at;
            ELSE
                NEW.added_at := OLD.added_at;
                NEW.changed_at := CASE WHEN NEW.quantity IS DISTINCT FROM OLD.quantity THEN clock_timestamp() ELSE OLD.changed_at END;
            END IF;
            RETURN NEW;
            END
            $body$
            """),
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_favorite_added() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
            IF TG_OP = 'INSERT' THEN
                IF NOT shopsh_seeding() THEN NEW.added_at := clock_timestamp(); END IF;
            ELSE
                NEW.added_at := OLD.added_at;
            END IF;
            RETURN NEW;
            END
            $body$
            """),
        """
        CREATE TRIGGER favorites_added BEFORE INSERT OR UPDATE ON favorites
        FOR EACH ROW EXECUTE FUNCTION shopsh_favorite_added()
        """,
        // Whether the owner's seed (or one of the owner's operations) runs in this transaction.
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_seeding() RETURNS boolean
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            SELECT EXISTS (SELECT 1 FROM operation_in_progress WHERE xact = pg_current_xact_id_if_assigned())
            $body$
            """),

        // MARK: Commands named where only the owner writes
        "CREATE UNLOGGED TABLE command_names (xact xid8 PRIMARY KEY, command TEXT NOT NULL, action TEXT)",
        // Names this transaction's command and shopsh's word for its direct changes (a later call
        // in the same transaction, the next command of a run, replaces them). Rows of transactions
        // that ended are cleared on the way, skipping any another caller is clearing.
        PostgresServerRules.inThisSchema(nameCommand(operationActions)),
        "REVOKE EXECUTE ON FUNCTION shopsh_name_command(TEXT, TEXT) FROM PUBLIC",
        """
        CREATE OR REPLACE FUNCTION shopsh_audit_command() RETURNS TEXT LANGUAGE sql STABLE AS $$
        SELECT COALESCE((SELECT n.command FROM command_names n WHERE n.xact = pg_current_xact_id_if_assigned()),
                        '(outside shopsh: ' || COALESCE(NULLIF(current_setting('application_name', true), ''), 'a client without a name') || ')')
        $$
        """,
        PostgresServerRules.inThisSchema(recreated(replacing(
            PostgresServerRules.auditStatement,
            "shopsh_action TEXT := NULLIF(current_setting('shopsh.action', true), '');",
            with: "shopsh_action TEXT := (SELECT n.action FROM command_names n WHERE n.xact = pg_current_xact_id_if_assigned());"))),
    ] + [PostgresBasketStatements.add, PostgresBasketStatements.set, PostgresBasketStatements.remove,
         PostgresBasketStatements.favorite].map { PostgresServerRules.inThisSchema(renamed($0)) } + [
        // MARK: The status machine refuses a missing status
        PostgresServerRules.inThisSchema(recreated(statusMovesRefuseNull)),
    ]

    /// `shopsh_set_order_status` as migration 10 leaves it: a missing status refused as any move.
    package static let statusMovesRefuseNull = replacing(PostgresServerRules.setOrderStatus, "IF (previous, next_status) NOT IN",
                                                         with: "IF next_status IS NULL OR (previous, next_status) NOT IN")
}
