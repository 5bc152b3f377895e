// PostgresOperationMarkSchema: migration 25 — the server's operations (checkout, status moves,
// returns, refunds, shipping, rates) mark themselves in progress as a row per mark, read newest
// first, like migration 24's namings (issue 40).
//
// An operation inserted `operation_in_progress (xact)` when it began and deleted it when it
// ended; the audit trigger and `shopsh_seeding()` asked whether the transaction's row exists. In
// one long transaction (an `--atomic` run of checkouts) each ended operation leaves a row that
// only the transaction itself no longer sees, under the same key, so every statement's question
// walked every earlier operation of the run (1,000 checkouts as one run took 25.9 s against 19.8 s
// one by one). Now an operation adds a mark, running or not, with `shopsh_mark_operation`, and the
// question reads the transaction's last mark.
//
// The operations are rewritten from their definitions in the store (`pg_get_functiondef`), not
// from this module's texts: eight functions written over eight migrations, each as its last
// migration left it. A later migration that recreates one of them from an older text must mark
// through `shopsh_mark_operation` (PostgresOperationMarkTests fails on a function that writes the
// table itself).

/// The DDL of migration 25 (constant SQL; the schema's name is quoted by the server).
package enum PostgresOperationMarkSchema {
    /// An operation's start and end as the functions wrote them, and their marks now.
    static let rewrites: [(old: String, new: String)] = [
        ("INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());", "PERFORM shopsh_mark_operation(true);"),
        ("DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();", "PERFORM shopsh_mark_operation(false);"),
        ("EXISTS (SELECT 1 FROM operation_in_progress WHERE xact = pg_current_xact_id())", inProgress),
        ("EXISTS (SELECT 1 FROM operation_in_progress WHERE xact = pg_current_xact_id_if_assigned())", inProgress),
    ]

    /// True while one of the server's operations (or the owner's seed) runs in this transaction.
    static let inProgress = "COALESCE((\(lastMark)()).running, false)"

    /// The reader of the transaction's last mark.
    static let lastMark = "shopsh_last_operation_mark"

    /// Every function of the store's schema that marks or asks the old way, created again with
    /// `rewrites` applied to its definition in the store.
    private static var rewriteFunctions: String {
        let rewritten = rewrites.reduce("definition") { text, pair in
            "replace(\(text), \(literal(pair.old)), \(literal(pair.new)))"
        }
        return """
            DO $do$
            DECLARE
                f RECORD;
                definition TEXT;
                rewritten TEXT;
            BEGIN
                FOR f IN SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                         WHERE n.nspname = current_schema() AND p.prokind = 'f' AND p.prosrc LIKE '%operation_in_progress%'
                         ORDER BY p.oid
                LOOP
                    definition := pg_get_functiondef(f.oid);
                    rewritten := \(rewritten);
                    IF rewritten <> definition THEN EXECUTE rewritten; END IF;
                END LOOP;
            END
            $do$
            """
    }

    /// A function's text from a migration before this one, marking and asking the new way.
    static func marking(_ text: String) -> String {
        rewrites.reduce(text) { $0.replacingOccurrences(of: $1.old, with: $1.new) }
    }

    /// `text` as a SQL string literal.
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `shopsh_mark_operation(running)`: a new mark of this transaction, running or not.
    static let markOperation = PostgresServerRules.inThisSchema("""
        CREATE FUNCTION shopsh_mark_operation(running BOOLEAN) RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET enable_seqscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
        \(PostgresLongRunSchema.naming("operation_in_progress", columns: "running", values: "$1"))
        $body$
        """)

    package static var statements: [String] {
        [
            """
            ALTER TABLE operation_in_progress ADD COLUMN step INTEGER NOT NULL DEFAULT 1,
                ADD COLUMN running BOOLEAN NOT NULL DEFAULT true,
                DROP CONSTRAINT operation_in_progress_pkey, ADD PRIMARY KEY (xact, step)
            """,
            markOperation,
            "REVOKE ALL ON FUNCTION shopsh_mark_operation(BOOLEAN) FROM PUBLIC",
        ] + PostgresLongRunSchema.lastNamingFunction(lastMark, of: "operation_in_progress") + [rewriteFunctions]
    }
}
