// SQLiteProductSearch: product search on SQLite through the FTS5 index `products_search`
// (migration v5: title, brand, category, tags and description, kept in step with `products` by
// triggers), its candidates ranked by ProductSearch.

import GRDB
import ShopCore

extension SQLiteProductService {
    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws {
        try await ProductSearch.run(text, page: page, vocabulary: {
            try database.shopRead { db in try Self.vocabulary(db) }
        }, candidates: { request, matches in
            try database.shopRead { db in try Self.candidates(db, request, text: text, matches: matches, filter: filter) }
        }, body)
    }

    func searchSuggestions(_ text: String) async throws -> [String] {
        let vocabulary = try database.shopRead { db in try Self.vocabulary(db) }
        return ProductSearch.suggestions(SearchText(text), vocabulary: vocabulary)
    }

    /// The words the index holds (`search_vocabulary`).
    static func vocabulary(_ db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT word FROM search_vocabulary"))
    }

    /// Adds the words of `texts` (a product's searched fields) to `search_vocabulary`.
    static func noteSearchWords(_ db: Database, _ texts: [String?]) throws {
        let words = Set(texts.compactMap { $0 }.flatMap(SearchText.words(in:)))
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO search_vocabulary (word) VALUES (?)")
        for word in words { try statement.execute(arguments: [word]) }
    }

    /// Refills `search_vocabulary` from the index (after a seed: one walk of the index, not one
    /// statement per product).
    static func refillSearchWords(_ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO search_vocabulary SELECT term FROM products_search_vocabulary")
    }

    /// The products passing `filter` that `request` asks for — every word's forms in any field,
    /// the index's best first (bm25 with ProductSearch's field weights), or one of every word's
    /// best forms in the title, by id — and the one whose id or SKU is `text`.
    static func candidates(_ db: Database, _ request: ProductSearch.Candidates, text: String,
                           matches: [ProductSearch.WordMatch], filter: ProductFilter) throws -> [Product] {
        var others = filter
        others.search = nil
        let (where_, arguments) = try whereClause(others)
        let extra = where_.isEmpty ? "" : " AND " + where_.dropFirst(" WHERE ".count)
        var found: [Product] = []
        var seen = Set<Int64>()
        let typed = text.trimmingASCIISpaces
        if !typed.isEmpty {
            let sql = "SELECT \(columns) FROM products WHERE (id = ? OR sku = ?)" + extra
            for row in try Row.fetchAll(db.cachedStatement(sql: sql),
                                        arguments: StatementArguments([Int64(typed) ?? 0, typed]) + arguments) where seen.insert(row[0]).inserted {
                found.append(product(row))
            }
        }
        guard !matches.isEmpty else { return found }
        let sql: String
        switch request {
        case .ranked:
            let weights = ProductSearch.Field.allCases.map { String($0.weight) }.joined(separator: ", ")
            sql = """
                WITH found(id, relevance) AS (
                    SELECT rowid, bm25(products_search, \(weights)) FROM products_search WHERE products_search MATCH ?)
                SELECT \(columns) FROM products JOIN found USING (id)
                """ + where_ + " ORDER BY found.relevance, id LIMIT \(ProductSearch.candidateLimit)"
            return try collect(db, sql: sql, arguments: StatementArguments([matchExpression(matches)]) + arguments,
                               into: found, seen: seen)
        case .bestInTitle(let words, let limit):
            let expression = "title : (" + words.map { word in
                "(" + word.forms.map { "\"" + $0 + "\"" + (word.isPrefix ? " *" : "") }.joined(separator: " OR ") + ")"
            }.joined(separator: " AND ") + ")"
            // In rowid order, so the index stops at the limit without ranking every match; with
            // other filters, joined to them.
            if where_.isEmpty {
                sql = """
                    SELECT \(columns) FROM products WHERE id IN (
                        SELECT rowid FROM products_search WHERE products_search MATCH ? ORDER BY rowid LIMIT \(max(0, limit)))
                    ORDER BY id
                    """
            } else {
                sql = """
                    WITH found(id) AS (SELECT rowid FROM products_search WHERE products_search MATCH ?)
                    SELECT \(columns) FROM products JOIN found USING (id)
                    """ + where_ + " ORDER BY id LIMIT \(max(0, limit))"
            }
            return try collect(db, sql: sql, arguments: StatementArguments([expression]) + arguments, into: found, seen: seen)
        }
    }

    /// `found` followed by the products `sql` reads that are not in `seen`.
    private static func collect(_ db: Database, sql: String, arguments: StatementArguments, into found: [Product],
                                seen: Set<Int64>) throws -> [Product] {
        var found = found, seen = seen
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try cursor.next() {
            if seen.insert(row[0]).inserted { found.append(product(row)) }
        }
        return found
    }

    /// The FTS5 query: every word (one of its forms; the last word's as prefixes), each form a
    /// quoted string (forms are letters and digits only), so nothing typed is read as FTS5 syntax.
    static func matchExpression(_ matches: [ProductSearch.WordMatch]) -> String {
        matches.map { match in
            "(" + match.forms.enumerated().map { index, form in
                "\"" + form + "\"" + (index == 0 && match.isPrefix ? " *" : "")
            }.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }
}
