// PostgresReceiptSchema: migrations 18 and 23 — exactly once across a broken COMMIT (issue 40).
//
// Every change shopsh makes outside a run (and every run) keeps a receipt in its own transaction:
// the command's id (random, made by the shell per command) and the transaction's step in that
// command. When the connection breaks while the change commits, shopsh connects again and asks
// `shopsh_command_kept`: an insert of the same receipt, which waits for a transaction still
// holding it to end, so the answer is the server's final word. A change run again keeps the same
// receipt, so at most one of the two can commit (the other meets the primary key).
// Receipts older than a day are cleared, ten at a time, by the changes that keep new ones.

/// The DDL of migrations 18 and 23 (constant SQL; the schema's name is quoted by the server).
package enum PostgresReceiptSchema {
    /// The constraint a change run again meets when its first run was kept after all.
    package static let primaryKey = "command_receipts_pkey"
    /// The SQLSTATE `shopsh_command_kept` raises to undo its own insert (never leaves it).
    static let undoState = "SR001"

    /// The functions a role that changes anything calls (PostgresRoles grants them).
    package static let keepSignature = "shopsh_keep_receipt(UUID, INTEGER)"
    package static let lookupSignature = "shopsh_command_kept(UUID, INTEGER)"

    /// Migration 23: the clearing of old receipts reads only old ones (see `keepReceiptFunction`).
    package static var clearingStatements: [String] { [keepReceiptFunction] }

    /// True, for a WHERE clause: the receipt is kept with this transaction. It waits for a
    /// transaction holding the same receipt (lock_timeout 0: a one-call function's 10 ms would end
    /// the wait before the holder's outcome is known, and that outcome decides). A statement may
    /// test a row again (one another transaction changed meanwhile): the receipt this transaction
    /// already kept is kept once (a transaction-local setting).
    ///
    /// Receipts older than a day go first, ten at a time. The cut-off is computed once, into a
    /// variable, so the index on `kept_at` is searched up to it: written inline,
    /// `clock_timestamp() - interval '1 day'` is volatile, so PostgreSQL tested it row by row
    /// while walking the index from the oldest receipt — every receipt of the last day, for every
    /// change (migration 18 did; a batch of 100,000 basket commands slowed from 54 s to over
    /// ten minutes). Migration 23 replaces that function with this one (grants stay).
    private static let keepReceiptFunction = PostgresServerRules.inThisSchema("""
        CREATE OR REPLACE FUNCTION shopsh_keep_receipt(command_id UUID, step INTEGER) RETURNS boolean
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET lock_timeout = 0 SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            this_receipt TEXT := $1::text || '/' || $2::text;
            cutoff TIMESTAMPTZ := clock_timestamp() - interval '1 day';
        BEGIN
            IF current_setting('shopsh.receipt', true) = this_receipt THEN RETURN true; END IF;
            DELETE FROM command_receipts WHERE (command_receipts.command_id, command_receipts.step) IN (
                SELECT r.command_id, r.step FROM command_receipts r
                WHERE r.kept_at < cutoff ORDER BY r.kept_at LIMIT 10 FOR UPDATE SKIP LOCKED);
            INSERT INTO command_receipts (command_id, step) VALUES ($1, $2);
            PERFORM set_config('shopsh.receipt', this_receipt, true);
            RETURN true;
        END
        $body$
        """)

    package static var statements: [String] {
        [
            """
            CREATE TABLE command_receipts (
                command_id UUID NOT NULL,
                step INTEGER NOT NULL,
                kept_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
                PRIMARY KEY (command_id, step)
            )
            """,
            "CREATE INDEX command_receipts_kept_at ON command_receipts (kept_at)",
            "REVOKE ALL ON command_receipts FROM PUBLIC",
            keepReceiptFunction,
            // Whether a change with this receipt was kept: its receipt is tried again, waiting for
            // a transaction that holds it to commit or roll back, and undone.
            PostgresServerRules.inThisSchema("""
                CREATE FUNCTION shopsh_command_kept(command_id UUID, step INTEGER) RETURNS boolean
                LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET lock_timeout = 0 SET search_path = pg_catalog, %I, pg_temp AS $body$
                DECLARE
                    inserted bigint := 0;
                BEGIN
                    BEGIN
                        INSERT INTO command_receipts (command_id, step) VALUES ($1, $2) ON CONFLICT DO NOTHING;
                        GET DIAGNOSTICS inserted = ROW_COUNT;
                        RAISE SQLSTATE '\(undoState)';
                    EXCEPTION WHEN SQLSTATE '\(undoState)' THEN NULL;
                    END;
                    RETURN inserted = 0;
                END
                $body$
                """),
            "REVOKE EXECUTE ON FUNCTION \(keepSignature) FROM PUBLIC",
            "REVOKE EXECUTE ON FUNCTION \(lookupSignature) FROM PUBLIC",
        ]
    }
}
