// PostgresSearchSchema: migration v6, product search's index on PostgreSQL — a weighted tsvector
// of ProductSearch's fields (title A, brand, category and tags B, description D) generated with
// every row and indexed with GIN, and the words those fields hold (`search_vocabulary`, kept by a
// trigger), which typo tolerance and suggestions read instead of scanning the catalogue.

enum PostgresSearchSchema {
    /// The searched fields as one lower-cased text (SQL over a row `r`; constant).
    static func searchedText(_ row: String) -> String {
        "lower(\(row).title || ' ' || coalesce(\(row).brand, '') || ' ' || \(row).category || ' ' || \(row).tags || ' ' || \(row).description)"
    }

    /// `text` split as ProductSearch splits it, at anything that is not a letter or a digit (the
    /// parser alone would read `P-3` as `p` and `-3`).
    static func words(_ text: String) -> String {
        "regexp_replace(\(text), '[^[:alnum:]]+', ' ', 'g')"
    }

    static let statements: [String] = [
        """
        ALTER TABLE products ADD COLUMN search_words tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector('simple', \(words("title"))), 'A')
            || setweight(to_tsvector('simple', \(words("coalesce(brand, '') || ' ' || category || ' ' || tags"))), 'B')
            || setweight(to_tsvector('simple', \(words("description"))), 'D')) STORED
        """,
        "CREATE INDEX products_search_words ON products USING GIN (search_words)",
        "CREATE TABLE search_vocabulary (word TEXT PRIMARY KEY)",
        """
        INSERT INTO search_vocabulary
        SELECT DISTINCT word FROM products p, regexp_split_to_table(\(searchedText("p")), '[^[:alnum:]]+') AS word
        WHERE word <> '' ON CONFLICT DO NOTHING
        """,
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
}
