// PostgresLongRunSchema: migration 24 — a command late in a long transaction (an `--atomic` run
// of 100,000 commands, a `psql --single-transaction` file) costs what the first one did, and its
// stock movements name their own command's reason and order (issue 40).
//
// `command_names` and `stock_context` held one row per transaction, which each command (each
// operation that moves stock) updated in place. Inside one transaction every update is a new
// version of that row that nothing can prune before the transaction ends, and every audit row
// and ledger row read it by walking all its versions (under savepoints, each version's visibility
// goes through a multixact): 6,000 basket commands took 55.6 s as one run against 16.7 s as
// separate transactions. Now each naming is a row of its own, keyed (xact, step), and readers
// take the transaction's last step: the first entry of a backward index scan. Rows of ended
// transactions are cleared by the first naming of a transaction (not by every one: a run would
// walk the entries it cleared again at each command).
//
// A stock context lasted to the end of its transaction: in a run, a product added after a stock
// change took that change's reason instead of `opening`. Naming a new command now ends it.
//
// Checkout named its stock movements' order with an UPDATE of every `checkout` movement of its
// transaction: no index has `xact`, so each checkout read the whole ledger, and in a run a later
// checkout took an earlier one's movements. It now names the movements written since it began
// (ids above the ledger's last id then, through the primary key).

/// The DDL of migration 24 (constant SQL; the schema's name is quoted by the server).
package enum PostgresLongRunSchema {
    /// The tables that name something for the rest of a transaction, one row per naming.
    static let namingTables = ["command_names", "stock_context"]

    /// A function returning the transaction's last naming in `table` (a row of it; NULL when
    /// none), which readers call rather than query the table themselves. A SQL function with
    /// settings is planned at each call, and this one may not scan: a query written into a PL/pgSQL
    /// trigger is planned once per session, and a plan made while the table held a few rows reads
    /// it whole ever after (a run of 100,000 commands was quadratic again through that plan).
    /// Migration 26 makes them PL/pgSQL with the same setting (PostgresCachedPlanSchema): planned
    /// once per session, and that plan is the index's.
    static func lastNamingFunction(_ name: String, of table: String) -> [String] {
        [
            PostgresServerRules.inThisSchema("""
                CREATE FUNCTION \(name)() RETURNS \(table)
                LANGUAGE sql STABLE SET enable_seqscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
                \(lastNaming(of: table))
                $body$
                """),
            "REVOKE ALL ON FUNCTION \(name)() FROM PUBLIC",
        ]
    }

    /// The query of the transaction's last naming in `table` (the readers' body, migrations 24-26).
    static func lastNaming(of table: String) -> String {
        "SELECT * FROM \(table) n WHERE n.xact = pg_current_xact_id_if_assigned() ORDER BY n.step DESC LIMIT 1"
    }

    /// The readers of the last command naming and of the last stock context.
    static let lastCommand = "shopsh_last_command", lastStockContext = "shopsh_last_stock_context"

    /// Statements of a SQL function body: the rows of ended transactions in `table` cleared (at a
    /// transaction's first naming), then a new naming with `columns` set to `values` as the next step.
    /// `values` names the function's arguments by position where a column has the same name.
    static func naming(_ table: String, columns: String, values: String) -> String {
        """
        DELETE FROM \(table) WHERE (xact, step) IN (
            SELECT e.xact, e.step FROM \(table) e WHERE e.xact < pg_snapshot_xmin(pg_current_snapshot()) FOR UPDATE SKIP LOCKED)
          AND NOT EXISTS (SELECT 1 FROM \(table) m WHERE m.xact = pg_current_xact_id_if_assigned());
        INSERT INTO \(table) (xact, step, \(columns))
        SELECT pg_current_xact_id(), COALESCE(max(s.step), 0) + 1, \(values)
        FROM \(table) s WHERE s.xact = pg_current_xact_id();
        """
    }

    /// `shopsh_name_command` of migrations 10 and 12, a row per naming. A new command also ends
    /// the stock context an earlier command of the transaction named (a step without a reason,
    /// when there is one): in a run, a product added after a stock change was recorded with that
    /// change's reason instead of `opening`.
    static let nameCommand = PostgresServerRules.inThisSchema("""
        CREATE OR REPLACE FUNCTION shopsh_name_command(command TEXT, action TEXT) RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET enable_seqscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
        \(naming("command_names", columns: "command, action", values: """
            COALESCE($1, ''), CASE WHEN $2 IN (\(serverActions)) THEN NULL ELSE NULLIF($2, '') END
            """))
        INSERT INTO stock_context (xact, step, reason)
        SELECT pg_current_xact_id(), max(c.step) + 1, '' FROM stock_context c WHERE c.xact = pg_current_xact_id()
        HAVING max(c.step) IS NOT NULL;
        $body$
        """)

    /// The actions only the server's own operations write (migrations 10 and 12), as SQL literals.
    private static var serverActions: String {
        (PostgresHardeningSchema.operationActions + PostgresRefundSchema.actions).map { "'\($0)'" }.joined(separator: ", ")
    }

    /// `shopsh_audit_command` of migration 10, reading the last naming.
    private static let auditCommand = """
        CREATE OR REPLACE FUNCTION shopsh_audit_command() RETURNS TEXT LANGUAGE sql STABLE AS $$
        SELECT COALESCE((\(lastCommand)()).command,
                        '(outside shopsh: ' || COALESCE(NULLIF(current_setting('application_name', true), ''), 'a client without a name') || ')')
        $$
        """

    /// `shopsh_audit_statement` as migration 22 left it, reading the last naming's action.
    static var auditStatement: String {
        guard let current = PostgresAuditUnchangedSchema.statements.first(where: { $0.contains("CREATE OR REPLACE FUNCTION shopsh_audit_statement") }) else {
            preconditionFailure("migration 24: migration 22 no longer replaces shopsh_audit_statement")
        }
        return PostgresHardeningSchema.replacing(
            current, "shopsh_action TEXT := (SELECT n.action FROM command_names n WHERE n.xact = pg_current_xact_id_if_assigned());",
            with: "shopsh_action TEXT := (\(lastCommand)()).action;")
    }

    /// `shopsh_set_stock_context` of migration 13, a row per naming.
    static let setStockContext = PostgresServerRules.inThisSchema("""
        CREATE OR REPLACE FUNCTION shopsh_set_stock_context(why TEXT, target_order BIGINT, given_note TEXT, stamp TIMESTAMPTZ) RETURNS void
        LANGUAGE sql VOLATILE SECURITY DEFINER SET enable_seqscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
        \(naming("stock_context", columns: "reason, order_id, note, at", values: "why, target_order, given_note, stamp"))
        $body$
        """)

    /// A statement of migration 13 holding `marker` (made in the store's schema already).
    private static func ledgerStatement(holding marker: String) -> String {
        guard let statement = PostgresStockLedgerSchema.statements.first(where: { $0.contains(marker) }) else {
            preconditionFailure("migration 24: migration 13 no longer holds \(marker)")
        }
        return statement
    }

    /// `shopsh_stock_ledger` of migration 13, reading the last naming (one without a reason, which
    /// a new command leaves, is none).
    private static var stockLedger: String {
        return PostgresHardeningSchema.recreated(PostgresHardeningSchema.replacing(PostgresHardeningSchema.replacing(
            ledgerStatement(holding: "CREATE FUNCTION shopsh_stock_ledger()"),
            "SELECT * INTO context FROM stock_context c WHERE c.xact = pg_current_xact_id_if_assigned();",
            with: "context := \(lastStockContext)();"),
            "COALESCE(context.reason, ", with: "COALESCE(NULLIF(context.reason, ''), "))
    }

    /// Checkout as migration 13 left it (migration 14 renamed it `shopsh_checkout_basket`), naming
    /// only the movements it wrote.
    private static var checkoutBasket: String {
        var text = ledgerStatement(holding: "UPDATE stock_ledger SET order_id = new_order")
        text = PostgresHardeningSchema.replacing(text, "CREATE OR REPLACE FUNCTION shopsh_checkout(buyer_id BIGINT)",
                         with: "CREATE OR REPLACE FUNCTION shopsh_checkout_basket(buyer_id BIGINT)")
        text = PostgresHardeningSchema.replacing(text, "DECLARE\n", with: "DECLARE\n    ledger_before BIGINT := COALESCE((SELECT max(l.id) FROM stock_ledger l), 0);\n")
        return PostgresHardeningSchema.replacing(text, "UPDATE stock_ledger SET order_id = new_order WHERE xact = pg_current_xact_id() AND reason = 'checkout';",
                         with: "UPDATE stock_ledger SET order_id = new_order WHERE id > ledger_before AND xact = pg_current_xact_id() AND reason = 'checkout';")
    }

    package static var statements: [String] {
        namingTables.map { "ALTER TABLE \($0) ADD COLUMN step INTEGER NOT NULL DEFAULT 1, DROP CONSTRAINT \($0)_pkey, ADD PRIMARY KEY (xact, step)" }
            + lastNamingFunction(lastCommand, of: "command_names") + lastNamingFunction(lastStockContext, of: "stock_context")
            + [nameCommand, auditCommand, auditStatement, "ALTER FUNCTION shopsh_audit_statement() SET jit = off",
               setStockContext, stockLedger, checkoutBasket]
    }
}
