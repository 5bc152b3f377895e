// SQLiteProductSearch: product search on SQLite through the FTS5 index `products_search`
// (migration v5: title, brand, category, tags and description, kept in step with `products` by
// triggers), its candidates ranked by ProductSearch.

import GRDB
import ShopCore

extension SQLiteProductService {
    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws {
        let search = try database.shopRead { db in try SearchCondition(text, vocabulary: { try Self.vocabulary(db) }) }
        try await ProductSearch.run(search, page: page, candidates: { request, each in
            try database.shopRead { db in try Self.candidates(db, request, search: search, filter: filter, each) }
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

    /// The condition of a filter's search text (nil when it has none).
    static func searchCondition(_ db: Database, _ text: String?) throws -> SearchCondition? {
        guard let text, !text.isEmpty else { return nil }
        return try SearchCondition(text, vocabulary: { try vocabulary(db) })
    }

    /// Calls `each` for the products passing `filter` that `request` asks for: every product
    /// `search` finds, in a page's field order; or its best 2,000 (bm25 with ProductSearch's field
    /// weights); or those holding one of every word's best forms in the title, by id — the last
    /// two after the one whose id or SKU is the text.
    static func candidates(_ db: Database, _ request: ProductSearch.Candidates, search: SearchCondition,
                           filter: ProductFilter, _ each: (Product) throws -> Void) throws {
        if case .page(let page) = request {
            return try list(db, filter.withEveryField, search: search, page: page, each)
        }
        let (where_, arguments) = try whereClause(filter, search: nil)
        let extra = where_.isEmpty ? "" : " AND " + where_.dropFirst(" WHERE ".count)
        var seen = Set<Int64>()
        if !search.reference.isEmpty {
            let sql = "SELECT \(columns) FROM products WHERE (id = ? OR sku = ? OR barcode = ?)" + extra
            for row in try Row.fetchAll(db.cachedStatement(sql: sql),
                                        arguments: [search.referenceID, search.reference, Barcode.stored(search.reference)] + arguments)
            where seen.insert(row[0]).inserted {
                try each(product(row))
            }
        }
        guard !search.matches.isEmpty else { return }
        let sql: String
        let expression: String
        switch request {
        case .page:
            return
        case .ranked:
            let weights = ProductSearch.Field.allCases.map { String($0.weight) }.joined(separator: ", ")
            sql = """
                WITH found(id, relevance) AS (
                    SELECT rowid, bm25(products_search, \(weights)) FROM products_search WHERE products_search MATCH ?)
                SELECT \(columns) FROM products JOIN found USING (id)
                """ + where_ + " ORDER BY found.relevance, id LIMIT \(ProductSearch.candidateLimit)"
            expression = matchExpression(search.matches)
        case .bestInTitle(let words, let limit):
            expression = "title : (" + words.map { word in
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
        }
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [expression] + arguments)
        while let row = try cursor.next() {
            if seen.insert(row[0]).inserted { try each(product(row)) }
        }
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
