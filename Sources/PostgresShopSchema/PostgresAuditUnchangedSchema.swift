// PostgresAuditUnchangedSchema: migration 22 — the audit trigger of an UPDATE leaves out, before
// anything else, the rows the statement left as they were but for `updated_at` (which no audit
// row holds: shopsh_audit_fields drops it). An UPDATE of every order at psql that only touches
// their times (or sets a column to its own value) pairs no rows and calls no per-row function:
// 500,000 such rows cost the per-row audit function 500,000 calls that each found nothing.
//
// The rows are compared whole, as JSON, without `updated_at`: a row whose image is in both the old
// and the new transition table is one the statement did not change (images hold the key, so no two
// rows share one). The rest goes through shopsh_audit_row as before.
//
// And the statement triggers of orders run without JIT compilation: a transition table has no
// statistics, the planner guesses a thousand rows from each call of a set-returning function, and
// the cost it reaches starts LLVM for a statement of a few rows (~270 ms of a 400 ms UPDATE of
// 3,000 orders went into compiling).

/// The DDL of migration 22 (constant SQL; the schema's name is quoted by the server).
package enum PostgresAuditUnchangedSchema {
    private static let pairs = """
                FROM (SELECT to_jsonb(o) AS image FROM old_rows o) o
                FULL JOIN (SELECT to_jsonb(n) AS image FROM new_rows n) n
        """

    private static let changedPairs = """
                FROM (SELECT i.image FROM (SELECT to_jsonb(o) AS image FROM old_rows o) i
                      WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE to_jsonb(n) - 'updated_at' = i.image - 'updated_at')) o
                FULL JOIN (SELECT i.image FROM (SELECT to_jsonb(n) AS image FROM new_rows n) i
                      WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE to_jsonb(o) - 'updated_at' = i.image - 'updated_at')) n
        """

    /// The statement triggers' functions that run without JIT.
    static let withoutJIT = ["shopsh_audit_statement", "shopsh_sales_orders_inserted", "shopsh_sales_orders_updated",
                             "shopsh_sales_orders_deleted", "shopsh_sales_lines_inserted", "shopsh_sales_lines_updated",
                             "shopsh_sales_lines_deleted", "shopsh_refunds_inserted", "shopsh_refunds_updated",
                             "shopsh_refunds_deleted", "shopsh_refunds_orders_updated"]

    package static var statements: [String] {
        [PostgresHardeningSchema.replacing(PostgresCouponSchema.auditStatement, pairs, with: changedPairs)]
            + withoutJIT.map { "ALTER FUNCTION \($0)() SET jit = off" }
    }
}
