// PostgresBulkAuditSchema: migration 27 — an UPDATE of many products (a bulk change, a price list
// loaded at psql) is audited by one set-based statement instead of a PL/pgSQL call per row (issue 40).
//
// Before it, 100,000 price changes at psql took 31 s, 24 s of them in the audit trigger: each
// changed row went through `shopsh_audit_row` (its fields as JSON on both sides, then a diff by
// `jsonb_each`), after both transition tables were turned into JSON images to drop the rows the
// statement left as they were. Now the old and new rows of products are paired by id and compared
// column by column; only a changed field is rendered (a price as `19.99 USD`, tags as a list), and
// a row with no changed field gets no audit row, as before. A statement that changed ids (at psql)
// still sends the rows without a partner through `shopsh_audit_row` (a removal and an addition), in
// the same order as before (by id).
//
// An UPDATE of another table keyed by id (orders, users, addresses, notes, coupons) pairs its rows
// by id before it compares their images, instead of comparing every image with every other
// (an UPDATE of only the times of 40,000 orders: audit 1.05 → 0.43 s). And the audit row's role
// is asked once per statement (it was the column's default, a call per row), and the products'
// search-words trigger pairs the rows before it splits their words.

/// The DDL of migration 27 (constant SQL; the schema's name is quoted by the server).
package enum PostgresBulkAuditSchema {
    /// One audited field of a product, as `shopsh_audit_fields` shows it (migration 16's products branch).
    struct Field: Sendable {
        /// Its key in the audit row.
        let key: String
        /// The column it shows.
        let column: String
        /// How the column is shown, from an expression of it; nil: as it is.
        var shown: (@Sendable (String) -> String)? = nil
        /// Whether two different column values always show differently (so columns are compared, not what they show).
        var showsEveryValueApart = true

        /// The field of the row `alias`, as the audit shows it.
        func value(_ alias: String) -> String { shown?("\(alias).\(column)") ?? "\(alias).\(column)" }

        /// Whether the field shows differently in `old` and `new`.
        func differs(_ old: String, _ new: String) -> String {
            let columns = "\(old).\(column) IS DISTINCT FROM \(new).\(column)"
            if showsEveryValueApart { return columns }
            return "CASE WHEN NOT (\(columns)) THEN false ELSE \(value(old)) IS DISTINCT FROM \(value(new)) END"
        }
    }

    /// A product's audited fields: `AuditChange.fields` (migration 16's `shopsh_audit_fields`).
    static let productFields: [Field] = [
        Field(key: "sku", column: "sku"), Field(key: "title", column: "title"),
        Field(key: "description", column: "description"), Field(key: "category", column: "category"),
        Field(key: "brand", column: "brand"),
        Field(key: "price", column: "price_minor", shown: { PostgresServerRules.hundredths($0) + " || ' USD'" }),
        Field(key: "discount", column: "discount_hundredths", shown: PostgresServerRules.hundredths),
        Field(key: "stock", column: "stock"),
        Field(key: "rating", column: "rating_hundredths", shown: PostgresServerRules.hundredths),
        Field(key: "tags", column: "tags", shown: { "shopsh_tags_list(\($0))" }, showsEveryValueApart: false),
        Field(key: "minimum_order_quantity", column: "minimum_order_quantity"),
        Field(key: "barcode", column: "barcode"), Field(key: "details", column: "details"),
    ]

    /// One side of a product's audit row: the fields that differ between `old_rows o` and
    /// `new_rows n`, as `alias` holds them (`{}` when none does). Only a changed field is rendered:
    /// building the whole row's fields and removing the unchanged ones cost 1.1 s per 100,000 rows.
    private static func changedFields(_ alias: String) -> String {
        productFields.map { field in
            "CASE WHEN \(field.differs("o", "n")) THEN jsonb_build_object('\(field.key)', \(field.value(alias))) ELSE '{}'::jsonb END"
        }.joined(separator: "\n                       || ")
    }

    /// The audit rows of an UPDATE of products: pairs by id compared column by column, rows
    /// without a partner through `shopsh_audit_row`; ordered by id as the per-row path orders them.
    static var productUpdate: String {
        """
        IF TG_TABLE_NAME = 'products' AND TG_OP = 'UPDATE' THEN
            INSERT INTO audit_log (role, command, entity, entity_id, action, before, after)
            SELECT session_role, command, c.entity, c.entity_id, c.action, c.before, c.after FROM (
                SELECT p.* FROM (
                    SELECT 'product' AS entity, o.id::text AS entity_id, COALESCE(shopsh_action, 'update') AS action,
                           \(changedFields("o")) AS before,
                           \(changedFields("n")) AS after,
                           o.id::numeric AS sort_number, o.id::text AS sort_text
                    FROM old_rows o JOIN new_rows n ON n.id = o.id) p
                WHERE p.before <> '{}'::jsonb
                UNION ALL
                SELECT a.entity, a.entity_id, a.action, a.before, a.after, a.sort_number, a.sort_text
                FROM old_rows o CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, to_jsonb(o), NULL) a
                WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id)
                UNION ALL
                SELECT a.entity, a.entity_id, a.action, a.before, a.after, a.sort_number, a.sort_text
                FROM new_rows n CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, NULL, to_jsonb(n)) a
                WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id)
            ) c
            ORDER BY c.sort_number, c.sort_text;
            RETURN NULL;
        END IF;

        """
    }

    /// The audited tables whose audit key is their `id` column (`shopsh_audit_key`'s last branch),
    /// products aside (`productUpdate`).
    static let keyedByID = ["orders", "users", "addresses", "notes", "coupons"]

    /// An UPDATE of a table keyed by id: the rows paired by id, then the pairs whose images are the
    /// same but for `updated_at` left out — the rows migration 22's filter leaves (an image holds
    /// its key, so a row's unchanged image can only be its own pair's), without comparing every
    /// image with every other and without the key read back from the images: an UPDATE of only
    /// the times of 500,000 orders spent 20.4 s there. The other tables keep that path.
    static var idPairedUpdate: String {
        """
        IF TG_OP = 'UPDATE' AND TG_TABLE_NAME IN (\(keyedByID.map { "'\($0)'" }.joined(separator: ", "))) THEN
            INSERT INTO audit_log (role, command, entity, entity_id, action, before, after)
            SELECT session_role, command, a.entity, a.entity_id, a.action, a.before, a.after
            FROM (SELECT to_jsonb(o) AS old_image, to_jsonb(n) AS new_image
                  FROM old_rows o FULL JOIN new_rows n ON n.id = o.id OFFSET 0) p
            CROSS JOIN LATERAL shopsh_audit_row(TG_TABLE_NAME, shopsh_action, p.old_image, p.new_image) a
            WHERE p.old_image IS NULL OR p.new_image IS NULL OR p.old_image - 'updated_at' <> p.new_image - 'updated_at'
            ORDER BY a.sort_number, a.sort_text;
            RETURN NULL;
        END IF;

        """
    }

    /// `shopsh_audit_statement` as migrations 24 and 25 left it, with products' UPDATE set-based,
    /// the tables keyed by id paired by id, and the role asked once.
    static var auditStatement: String {
        var text = PostgresOperationMarkSchema.marking(PostgresLongRunSchema.auditStatement)
        precondition(!text.contains("operation_in_progress"), "migration 27: the audit trigger still asks operation_in_progress itself")
        text = PostgresHardeningSchema.replacing(text, "    command TEXT;\n",
                                                 with: "    command TEXT;\n    session_role TEXT := shopsh_session_role();\n")
        text = PostgresHardeningSchema.replacing(text, "INSERT INTO audit_log (command, entity, entity_id, action, before, after)",
                                                 with: "INSERT INTO audit_log (role, command, entity, entity_id, action, before, after)")
        text = PostgresHardeningSchema.replacing(text, "SELECT command, ", with: "SELECT session_role, command, ")
        let coupons = "    IF TG_TABLE_NAME = 'coupons' AND TG_OP = 'INSERT' THEN\n"
        return PostgresHardeningSchema.replacing(text, coupons, with: PostgresServerRules.formatted(productUpdate + idPairedUpdate) + coupons)
    }

    /// `shopsh_note_search_words` as migration 7 left it, pairing the rows before it reads their
    /// words: the pairs whose words changed, then their words (it split every row's words first,
    /// then paired them: 1.3 s for 100,000 price changes that changed no word).
    static var noteSearchWords: String {
        guard let current = PostgresSearchSchema.titleIndexStatements.first(where: {
            $0.contains("CREATE FUNCTION shopsh_note_search_words()") && $0.contains("old_rows")
        }) else {
            preconditionFailure("migration 27: migration 7 no longer makes shopsh_note_search_words")
        }
        return PostgresHardeningSchema.recreated(PostgresHardeningSchema.replacing(current, """
                    SELECT DISTINCT word FROM new_rows r JOIN old_rows o USING (id), unnest(tsvector_to_array(r.search_words)) AS word
                    WHERE r.search_words IS DISTINCT FROM o.search_words
            """, with: """
                    SELECT DISTINCT word
                    FROM (SELECT r.search_words FROM new_rows r JOIN old_rows o USING (id)
                          WHERE r.search_words IS DISTINCT FROM o.search_words OFFSET 0) r,
                         unnest(tsvector_to_array(r.search_words)) AS word
            """))
    }

    package static var statements: [String] {
        [auditStatement, "ALTER FUNCTION shopsh_audit_statement() SET jit = off", noteSearchWords]
    }
}
