// PostgresProductSearch: product search on PostgreSQL, its candidates ranked by ProductSearch.
// For now the candidates come from a scan (every word's forms as substrings of the searched
// fields, then ProductSearch keeps the products whose words match); a weighted tsvector index
// is the next step (issue 23).

import PostgresNIO
import ShopCore
import ShopStoreKit

extension PostgresProductService {
    /// The searched fields as one lower-cased text (SQL, constant).
    static let searchedText = "lower(title || ' ' || coalesce(brand, '') || ' ' || category || ' ' || tags || ' ' || description)"

    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws {
        try await ProductSearch.run(text, page: page, vocabulary: {
            try await vocabulary()
        }, candidates: { matches in
            try await candidates(text: text, matches: matches, filter: filter)
        }, body)
    }

    func searchSuggestions(_ text: String) async throws -> [String] {
        ProductSearch.suggestions(SearchText(text), vocabulary: try await vocabulary())
    }

    /// The words of the searched fields.
    func vocabulary() async throws -> [String] {
        try await database.read("reading the catalogue's words") { connection in
            var words: [String] = []
            for try await word in try await connection.query("""
                SELECT DISTINCT word FROM products, regexp_split_to_table(\(unescaped: Self.searchedText), '[^[:alnum:]]+') AS word
                WHERE word <> ''
                """, logger: database.logger).decode(String.self) {
                words.append(word)
            }
            return words
        }
    }

    /// The products passing `filter` whose searched fields hold one of every word's forms, and the
    /// one whose id or SKU is `text` (at most `ProductSearch.candidateLimit`, by id).
    func candidates(text: String, matches: [ProductSearch.WordMatch], filter: ProductFilter) async throws -> [Product] {
        var others = filter
        others.search = nil
        let parts = try FilterParts(others)
        let typed = text.trimmingASCIISpaces
        var query = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        query.appendLiteral("SELECT ROW(\(ProductColumns.all))::text FROM products WHERE ")
        query.appendInterpolation(matching: parts)
        query.appendLiteral(" AND (id = ")
        query.appendInterpolation(Int64(typed) ?? 0)
        query.appendLiteral(" OR lower(sku) = lower(")
        query.appendInterpolation(typed)
        query.appendLiteral(")")
        if !matches.isEmpty {
            query.appendLiteral(" OR (true")
            for match in matches {
                query.appendLiteral(" AND \(Self.searchedText) LIKE ANY (")
                query.appendInterpolation(match.forms.map { "%" + $0 + "%" })
                query.appendLiteral("::text[])")
            }
            query.appendLiteral(")")
        }
        query.appendLiteral(") ORDER BY id LIMIT \(ProductSearch.candidateLimit)")
        let built = PostgresQuery(stringInterpolation: query)
        var found: [Product] = []
        try await database.forEachRow("searching products", query: { _ in built }) { row in
            var cells = row.makeIterator()
            found.append(try Self.product(record: cells.next()?.bytes))
        }
        return found
    }
}
