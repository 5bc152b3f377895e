// PostgresProductSearch: product search on PostgreSQL through migration v6's index (the weighted
// tsvector `search_words` with GIN, and `search_vocabulary`), its candidates ranked by ProductSearch.

import PostgresNIO
import ShopCore
import ShopStoreKit

extension PostgresProductService {
    func searchProducts(_ text: String, filter: ProductFilter, page: Page,
                        _ body: (ProductSearch.Found) throws -> Void) async throws {
        try await ProductSearch.run(text, page: page, vocabulary: {
            try await vocabulary()
        }, candidates: { request, matches in
            try await candidates(request, text: text, matches: matches, filter: filter)
        }, body)
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

    /// The products passing `filter` that `request` asks for — one of every word's forms in the
    /// index, its best first (ts_rank with ProductSearch's field weights), or one of every word's
    /// best forms in the title (weight A), by id — and the one whose id or SKU is `text`.
    func candidates(_ request: ProductSearch.Candidates, text: String, matches: [ProductSearch.WordMatch],
                    filter: ProductFilter) async throws -> [Product] {
        var others = filter
        others.search = nil
        let parts = try FilterParts(others)
        let typed = text.trimmingASCIISpaces
        let limit: Int
        let tsquery: String
        switch request {
        case .ranked:
            limit = ProductSearch.candidateLimit
            tsquery = matches.isEmpty ? "" : Self.tsquery(matches)
        case .bestInTitle(let words, let wanted):
            limit = max(0, wanted)
            tsquery = words.map { word in
                "(" + word.forms.map { $0 + (word.isPrefix ? ":*A" : ":A") }.joined(separator: " | ") + ")"
            }.joined(separator: " & ")
        }
        var query = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        query.appendLiteral("SELECT ROW(\(ProductColumns.all))::text FROM products WHERE ")
        query.appendInterpolation(matching: parts)
        query.appendLiteral(" AND (id = ")
        query.appendInterpolation(Int64(typed) ?? 0)
        query.appendLiteral(" OR lower(sku) = lower(")
        query.appendInterpolation(typed)
        query.appendLiteral(")")
        if !matches.isEmpty {
            query.appendLiteral(" OR search_words @@ to_tsquery('simple', ")
            query.appendInterpolation(tsquery)
            query.appendLiteral(")")
        }
        query.appendLiteral(") ORDER BY (id = ")
        query.appendInterpolation(Int64(typed) ?? 0)
        query.appendLiteral(") DESC")
        if !matches.isEmpty, request == .ranked {
            query.appendLiteral(", ts_rank(\(Self.rankWeights), search_words, to_tsquery('simple', ")
            query.appendInterpolation(tsquery)
            query.appendLiteral(")) DESC")
        }
        query.appendLiteral(", id LIMIT \(limit)")
        let built = PostgresQuery(stringInterpolation: query)
        var found: [Product] = []
        try await database.forEachRow("searching products", query: { _ in built }) { row in
            var cells = row.makeIterator()
            found.append(try Self.product(record: cells.next()?.bytes))
        }
        return found
    }
}
