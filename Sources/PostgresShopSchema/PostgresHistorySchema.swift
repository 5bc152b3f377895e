// PostgresHistorySchema: migration 17 — what `--follow` and `--as-of` need from the server.
//
// - Every statement that writes audit rows (shopsh's own, or anyone's at psql: the audit triggers
//   see every change) notifies `shopsh_audit_<md5 of the schema>` with its first and last id
//   (`12 15`), delivered at commit: a follower is told at once and reads the rows it may see.
//   Ids only, never data: a viewer reads them masked. Commits that notify take one lock in turn
//   (PostgreSQL's notification queue), so the trigger lifts the transaction's lock_timeout.
// - `shop_meta.history_since`: from when the log answers `--as-of` (a store older than this
//   migration, from the migration on; a seeded store, from its seeding).

/// The DDL of migration 17 (constant SQL).
package enum PostgresHistorySchema {
    /// The `shop_meta` key of the log's start (SQLite's Schema v13 uses the same).
    package static let startKey = "history_since"

    /// The channel a store's audit rows are announced on: `shopsh_audit_` and the md5 of the
    /// schema's name (a safe identifier, whatever the schema is called).
    package static let channelExpression = "'shopsh_audit_' || md5(TG_TABLE_SCHEMA)"
    /// The same, for a listener's connection (its current schema).
    package static let channelQuery = "SELECT 'shopsh_audit_' || md5(current_schema())"

    /// The moment as `shop_meta` holds it: `2026-11-27T12:00:00Z`.
    package static let nowText = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

    package static var statements: [String] {
        [
            """
            CREATE FUNCTION shopsh_audit_notify() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                -- A notifying transaction takes the notification queue's lock at commit, a lock
                -- like any other: a lock_timeout that a one-call function set for its own row
                -- locks would otherwise abort the commit when another one holds it. The functions
                -- set their timeout again on each call.
                PERFORM set_config('lock_timeout', '0', true);
                PERFORM pg_notify(\(channelExpression), (SELECT min(id)::text || ' ' || max(id)::text FROM new_rows));
                RETURN NULL;
            END
            $body$
            """,
            """
            CREATE TRIGGER shopsh_audit_notify AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION shopsh_audit_notify()
            """,
            // Not an operator's change: no audit row (an operation in progress records itself).
            """
            DO $do$ BEGIN
                INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
                INSERT INTO shop_meta (key, value) VALUES ('\(startKey)', \(nowText)) ON CONFLICT (key) DO NOTHING;
                DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            END $do$
            """,
        ]
    }
}
