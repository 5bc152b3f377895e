// PostgresProductSearch: product search on PostgreSQL through migration v6's index (the weighted
// tsvector `search_words` with GIN, and `search_vocabulary`), its candidates ranked by ProductSearch.

import PostgresNIO
import ShopCore
import ShopStoreKit

extension PostgresProductService {
    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws {
        guard let search = try await searchCondition(text) else { return }
        try await ProductSearch.run(search, page: page, candidates: { request, each in
            try await candidates(request, search: search, filter: filter, each)
        }, body)
    }

    /// The condition of a search text (nil when it is empty); the vocabulary is read only for words.
    func searchCondition(_ text: String?) async throws -> SearchCondition? {
        guard let text, !text.isEmpty else { return nil }
        try ListingLimits.checkSearch(text)
        let words = SearchText(text).words.isEmpty ? [] : try await vocabulary()
        return try SearchCondition(text, vocabulary: { words })
    }

    func searchSuggestions(_ text: String) async throws -> [String] {
        ProductSearch.suggestions(SearchText(text), vocabulary: try await vocabulary())
    }

    /// The words of the searched fields (`search_vocabulary`, kept by a trigger).
    func vocabulary() async throws -> [String] {
        try await database.read("reading the catalogue's words") { connection in
            var words: [String] = []
            for try await word in try await connection.query("SELECT word FROM search_vocabulary", logger: database.logger)
                .decode(String.self) {
                words.append(word)
            }
            return words
        }
    }

    /// ts_rank's weights for D, C, B and A: ProductSearch's field weights over the title's.
    static let rankWeights = "'{0.125, 0.5, 0.5, 1}'"

    /// The tsquery of `matches`: every word (one of its forms; the last word's first form as a
    /// prefix). Forms are letters and digits only, so nothing typed is read as tsquery syntax.
    static func tsquery(_ matches: [ProductSearch.WordMatch]) -> String {
        matches.map { match in
            "(" + match.forms.enumerated().map { index, form in form + (index == 0 && match.isPrefix ? ":*" : "") }
                .joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// Calls `each` for the products passing `filter` that `request` asks for: every product
    /// `search` finds, in a page's field order; or its best 2,000 (ts_rank with ProductSearch's
    /// field weights); or those holding one of every word's best forms in the title (weight A), by
    /// id — the last two after the one whose id or SKU is the text.
    func candidates(_ request: ProductSearch.Candidates, search: SearchCondition, filter: ProductFilter,
                    _ each: (Product) throws -> Void) async throws {
        let limit: Int
        let tsquery: String
        switch request {
        case .page(let page):
            return try await list(filter.withEveryField, search: search, page: page, each)
        case .ranked:
            limit = ProductSearch.candidateLimit
            tsquery = search.matches.isEmpty ? "" : Self.tsquery(search.matches)
        case .bestInTitle(let words, let wanted):
            limit = max(0, wanted)
            tsquery = words.map { word in
                "(" + word.forms.map { $0 + (word.isPrefix ? ":*A" : ":A") }.joined(separator: " | ") + ")"
            }.joined(separator: " & ")
        }
        let parts = FilterParts(filter, search: nil)
        var query = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        query.appendLiteral("SELECT ROW(\(ProductColumns.all))::text FROM products WHERE ")
        query.appendInterpolation(matching: parts)
        query.appendLiteral(" AND (id = ")
        query.appendInterpolation(search.referenceID)
        query.appendLiteral(" OR lower(sku) = lower(")
        query.appendInterpolation(search.reference)
        query.appendLiteral(")")
        if !search.matches.isEmpty {
            query.appendLiteral(" OR search_words @@ to_tsquery('simple', ")
            query.appendInterpolation(tsquery)
            query.appendLiteral(")")
        }
        query.appendLiteral(") ORDER BY (id = ")
        query.appendInterpolation(search.referenceID)
        query.appendLiteral(") DESC")
        if !search.matches.isEmpty, request == .ranked {
            query.appendLiteral(", ts_rank(\(Self.rankWeights), search_words, to_tsquery('simple', ")
            query.appendInterpolation(tsquery)
            query.appendLiteral(")) DESC")
        }
        query.appendLiteral(", id LIMIT \(limit)")
        let built = PostgresQuery(stringInterpolation: query)
        try await database.forEachRow("searching products", query: { _ in built }) { row in
            var cells = row.makeIterator()
            try each(try Self.product(record: cells.next()?.bytes))
        }
    }
}
