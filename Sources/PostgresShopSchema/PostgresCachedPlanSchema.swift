// PostgresCachedPlanSchema: migration 26 — the functions every audited statement calls keep their
// plans for the session instead of planning them at each call (issue 40).
//
// A SQL-language function with settings (`SET search_path`, as every function here has) is never
// inlined: PostgreSQL parses and plans its body at every call. A basket command's statement ran
// about ten such calls through its triggers, and in psql's 6,000-statement batch they were most of
// the server's time: `shopsh_recount_baskets` 2.6 s (0.33 ms a call), `shopsh_session_role` (the
// audit row's `role` default) 1.0 s, the readers of the last naming and `shopsh_seeding` 0.7 s,
// of 8.2 s. As PL/pgSQL each statement is planned once per session:
// - `shopsh_recount_baskets` keeps a generic plan (index scans by user) for the few baskets a
//   statement touches; a recount of many (a seed's refill, a bulk price change) is planned for its
//   own array (`EXECUTE`), where a plan made for ten users would be the wrong one;
// - the readers keep `enable_seqscan = off`, so the plan they keep is the index's, whatever the
//   table held when it was made (a PL/pgSQL plan made without it read the table whole ever after);
// - `shopsh_session_role` and `shopsh_seeding` keep their expressions' plans;
// - the namings (`shopsh_name_command`, `shopsh_set_stock_context`, `shopsh_mark_operation`) and
//   the audit's fields and their helpers (`shopsh_audit_fields`, `shopsh_hundredths_text`,
//   `shopsh_tags_list`) keep theirs too. The server ran each of these as a function rather than
//   inlining it where it is called (its own call counts show them), and a SQL function's plan
//   lasts only while the subtransaction that made it is open: under `--atomic`, a savepoint per
//   command, each command planned them again (6,000 commands as one run: 2.3 s in
//   `shopsh_audit_fields`, 0.2 s for the same statements at psql; 1.9 s in `shopsh_name_command`).
// The bodies are the same queries as before (one Swift text each, shared with the migrations that
// made the SQL versions).

/// The DDL of migration 26 (constant SQL; the schema's name is quoted by the server).
package enum PostgresCachedPlanSchema {
    /// At most this many baskets are recounted with the session's kept plan; more get a plan of their own.
    package static let keptPlanBaskets = 100

    /// `shopsh_recount_baskets` in PL/pgSQL: its two statements kept, or planned per call past `keptPlanBaskets`.
    static var recountBaskets: String {
        let recount = PostgresBasketSummarySchema.recount("users"), planned = PostgresBasketSummarySchema.recount("$1")
        return PostgresServerRules.inThisSchema("""
            CREATE OR REPLACE FUNCTION shopsh_recount_baskets(users BIGINT[]) RETURNS void
            LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET plan_cache_mode = force_generic_plan
            SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
            IF cardinality(users) <= \(keptPlanBaskets) THEN
            \(PostgresServerRules.formatted(recount.map { $0 + ";" }.joined(separator: "\n")))
            ELSE
            \(PostgresServerRules.formatted(planned.map { "EXECUTE $q$ \($0) $q$ USING users;" }.joined(separator: "\n")))
            END IF;
            END
            $body$
            """)
    }

    /// A reader of the transaction's last naming in `table` (migration 24's, same query and setting) in PL/pgSQL.
    static func lastNamingReader(_ name: String, of table: String) -> String {
        PostgresServerRules.inThisSchema("""
            CREATE OR REPLACE FUNCTION \(name)() RETURNS \(table)
            LANGUAGE plpgsql STABLE SET enable_seqscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
            DECLARE last_row \(table);
            BEGIN
            \(PostgresLongRunSchema.lastNaming(of: table)) INTO last_row;
            RETURN last_row;
            END
            $body$
            """)
    }

    /// A SQL function of an earlier migration whose body is statements between `$body$` quotes
    /// (each ending in `;`), as PL/pgSQL running the same statements with the same settings.
    static func inPLpgSQL(_ text: String) -> String {
        rewritten(text.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"), [
            ("LANGUAGE sql", "LANGUAGE plpgsql"), ("AS $body$\n", "AS $body$\nBEGIN\n"), (";\n$body$", ";\nEND\n$body$"),
        ])
    }

    /// A SQL function of an earlier migration whose body is one `SELECT` between `$$` quotes, as
    /// PL/pgSQL returning it: its expression itself when the SELECT reads no table
    /// (`readsNoTable`: evaluated without the executor), else the SELECT as a subquery.
    static func returningItsSelect(_ text: String, readsNoTable: Bool) -> String {
        rewritten(text.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"), [
            ("LANGUAGE sql", "LANGUAGE plpgsql"),
            ("AS $$\nSELECT ", readsNoTable ? "AS $$\nBEGIN\nRETURN " : "AS $$\nBEGIN\nRETURN (SELECT "),
            ("\n$$", readsNoTable ? ";\nEND\n$$" : ");\nEND\n$$"),
        ])
    }

    /// `text` with each pair's old text (which it must hold) replaced by the new.
    private static func rewritten(_ text: String, _ pairs: [(old: String, new: String)]) -> String {
        pairs.reduce(text) { PostgresHardeningSchema.replacing($0, $1.old, with: $1.new) }
    }

    package static var statements: [String] {
        [
            """
            CREATE OR REPLACE FUNCTION shopsh_session_role() RETURNS text
            LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            BEGIN
            RETURN \(PostgresRoleSQL.role(owner: "current_user"));
            END
            $$
            """,
            recountBaskets,
            lastNamingReader(PostgresLongRunSchema.lastCommand, of: "command_names"),
            lastNamingReader(PostgresLongRunSchema.lastStockContext, of: "stock_context"),
            lastNamingReader(PostgresOperationMarkSchema.lastMark, of: "operation_in_progress"),
            PostgresServerRules.inThisSchema("""
                CREATE OR REPLACE FUNCTION shopsh_seeding() RETURNS boolean
                LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
                BEGIN
                RETURN \(PostgresOperationMarkSchema.inProgress);
                END
                $body$
                """),
            inPLpgSQL(PostgresLongRunSchema.nameCommand),
            inPLpgSQL(PostgresLongRunSchema.setStockContext),
            inPLpgSQL(PostgresOperationMarkSchema.markOperation),
            returningItsSelect(PostgresReviewSchema.auditFields, readsNoTable: true),
            returningItsSelect(PostgresServerRules.hundredthsText, readsNoTable: true),
            returningItsSelect(PostgresServerRules.tagsList, readsNoTable: false),
        ]
    }
}
