// PostgresSearchSchema: product search's index on PostgreSQL. Migration v6: a weighted tsvector
// of ProductSearch's fields (title A, brand, category and tags B, description D) generated with
// every row and indexed with GIN, and the words those fields hold (`search_vocabulary`, kept by a
// trigger), which typo tolerance and suggestions read instead of scanning the catalogue.
// Migration v7: a GIN index of the titles' words alone (the best matches, and Tab on titles, read
// through it: the server's estimates then count titles, not every field), and the vocabulary kept
// once per statement instead of once per row.

package enum PostgresSearchSchema {
    /// The searched fields as one lower-cased text (SQL over a row `r`; constant).
    package static func searchedText(_ row: String) -> String {
        "lower(\(row).title || ' ' || coalesce(\(row).brand, '') || ' ' || \(row).category || ' ' || \(row).tags || ' ' || \(row).description)"
    }

    /// `text` split as ProductSearch splits it, at anything that is not a letter or a digit (the
    /// parser alone would read `P-3` as `p` and `-3`).
    package static func words(_ text: String) -> String {
        "regexp_replace(\(text), '[^[:alnum:]]+', ' ', 'g')"
    }

    /// The words of a product's title as a tsvector: the expression migration v7 indexes, which
    /// a query must repeat exactly for the server to use the index.
    package static let titleWords = "to_tsvector('simple', \(words("title")))"

    /// The index of every searched field's words (v6).
    package static let wordsIndex = "CREATE INDEX products_search_words ON products USING GIN (search_words)"
    /// The index of the titles' words (v7).
    package static let titleWordsIndex = "CREATE INDEX products_title_words ON products USING GIN ((\(titleWords)))"

    /// Adds every product's words to `search_vocabulary` (v6, before `search_words` was indexed).
    package static let fillVocabulary = """
        INSERT INTO search_vocabulary
        SELECT DISTINCT word FROM products p, regexp_split_to_table(\(searchedText("p")), '[^[:alnum:]]+') AS word
        WHERE word <> '' ON CONFLICT DO NOTHING
        """

    /// The same from `search_words`, the words already split (`ts_stat`: one pass, a seventh of the time).
    package static let refillVocabulary = """
        INSERT INTO search_vocabulary SELECT word FROM ts_stat('SELECT search_words FROM products') ON CONFLICT DO NOTHING
        """

    /// Before a seed's rows (the owner's, into an empty store, in its transaction): the search
    /// indexes and the vocabulary triggers go, and `afterSeed` builds them once over every row, which
    /// costs a fraction of keeping them row by row.
    package static let beforeSeed = [
        "DROP INDEX products_search_words",
        "DROP INDEX products_title_words",
        "ALTER TABLE products DISABLE TRIGGER products_note_search_words",
        "ALTER TABLE products DISABLE TRIGGER products_note_changed_search_words",
    ]

    /// After a seed's rows: `beforeSeed` undone.
    package static let afterSeed = [
        wordsIndex,
        titleWordsIndex,
        "ALTER TABLE products ENABLE TRIGGER products_note_search_words",
        "ALTER TABLE products ENABLE TRIGGER products_note_changed_search_words",
        refillVocabulary,
    ]

    package static let statements: [String] = [
        """
        ALTER TABLE products ADD COLUMN search_words tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector('simple', \(words("title"))), 'A')
            || setweight(to_tsvector('simple', \(words("coalesce(brand, '') || ' ' || category || ' ' || tags"))), 'B')
            || setweight(to_tsvector('simple', \(words("description"))), 'D')) STORED
        """,
        wordsIndex,
        "CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY)",
        fillVocabulary,
        // SECURITY DEFINER: whoever may change a product adds its words (nobody else writes them).
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_note_search_words() RETURNS trigger
            LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
                INSERT INTO search_vocabulary
                SELECT DISTINCT word FROM regexp_split_to_table(\(searchedText("NEW")), '[^[:alnum:]]+') AS word
                WHERE word <> '' ON CONFLICT DO NOTHING;
                RETURN NULL;
            END
            $body$
            """),
        "REVOKE ALL ON FUNCTION shopsh_note_search_words() FROM PUBLIC",
        """
        CREATE TRIGGER products_note_search_words AFTER INSERT OR UPDATE OF title, brand, category, tags, description
        ON products FOR EACH ROW EXECUTE FUNCTION shopsh_note_search_words()
        """,
    ]

    /// Migration v7.
    package static let titleIndexStatements: [String] = [
        titleWordsIndex,
        // The lowest ids among the products whose title holds `words` (and passing a listing's
        // filters), through the titles' index alone: for words few titles hold. The planner would
        // otherwise read the table in id order, which finds a word that many titles hold at once
        // but one that none holds only after every row (its estimates cannot tell "rare" from
        // "absent"). Not inlined (SET), so the settings hold for this query only.
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_title_matches(words tsquery, wanted integer, only_category text,
                                                 min_price bigint, max_price bigint, in_stock_only boolean)
            RETURNS SETOF products LANGUAGE sql STABLE
            SET enable_seqscan = off SET enable_indexscan = off SET search_path = pg_catalog, %I, pg_temp AS $body$
                SELECT * FROM products
                WHERE \(titleWords) @@ words
                  AND (only_category IS NULL OR category = only_category)
                  AND (min_price IS NULL OR price_minor >= min_price)
                  AND (max_price IS NULL OR price_minor <= max_price)
                  AND (NOT in_stock_only OR stock > 0)
                ORDER BY id LIMIT wanted
            $body$
            """),
        "DROP TRIGGER products_note_search_words ON products",
        "DROP FUNCTION shopsh_note_search_words()",
        // Once per statement over its rows (an import of thousands: one INSERT), for rows whose
        // words are new or changed, read from `search_words` (already split).
        PostgresServerRules.inThisSchema("""
            CREATE FUNCTION shopsh_note_search_words() RETURNS trigger
            LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO search_vocabulary
                    SELECT DISTINCT word FROM new_rows r, unnest(tsvector_to_array(r.search_words)) AS word
                    ON CONFLICT DO NOTHING;
                ELSE
                    INSERT INTO search_vocabulary
                    SELECT DISTINCT word FROM new_rows r JOIN old_rows o USING (id), unnest(tsvector_to_array(r.search_words)) AS word
                    WHERE r.search_words IS DISTINCT FROM o.search_words
                    ON CONFLICT DO NOTHING;
                END IF;
                RETURN NULL;
            END
            $body$
            """),
        "REVOKE ALL ON FUNCTION shopsh_note_search_words() FROM PUBLIC",
        """
        CREATE TRIGGER products_note_search_words AFTER INSERT ON products
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shopsh_note_search_words()
        """,
        """
        CREATE TRIGGER products_note_changed_search_words AFTER UPDATE ON products
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shopsh_note_search_words()
        """,
    ]
}
