// PostgresProductSearch: product search on PostgreSQL through migration v6's index (the weighted
// tsvector `search_words` with GIN, and `search_vocabulary`), its candidates ranked by ProductSearch.

import PostgresNIO
import ShopCore
import ShopStoreKit
import PostgresShopSchema

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
    /// field weights); or those holding one of every word's best forms in the title (the titles'
    /// index), by id — the last two after the one whose id or SKU is the text.
    func candidates(_ request: ProductSearch.Candidates, search: SearchCondition, filter: ProductFilter,
                    _ each: (Product) throws -> Void) async throws {
        let limit: Int
        let tsquery: String
        var titleWords: TitleWords = []
        switch request {
        case .page(let page):
            return try await list(filter.withEveryField, search: search, page: page, each)
        case .ranked:
            limit = ProductSearch.candidateLimit
            tsquery = Self.tsquery(search.matches)
        case .bestInTitle(let words, let wanted):
            limit = max(0, wanted)
            tsquery = ""
            titleWords = words.map { ($0.forms, $0.isPrefix) }
        }
        let parts = FilterParts(filter, search: nil)
        var seen = Set<Int64>()
        func read(_ what: String, _ query: PostgresQuery) async throws {
            try await database.forEachRow(what, query: { _ in query }) { row in
                var cells = row.makeIterator()
                let product = try Self.product(record: cells.next()?.bytes)
                if seen.insert(product.id).inserted { try each(product) }
            }
        }
        // The id or SKU apart from the words: one condition ORing them would keep the server from
        // reading the words' matches in id order and stopping at the limit.
        if !search.reference.isEmpty {
            try await read("reading a product", """
                SELECT ROW(\(unescaped: ProductColumns.all))::text FROM products
                WHERE \(matching: parts) AND (id = \(search.referenceID) OR lower(sku) = lower(\(search.reference))
                                               OR barcode = \(Barcode.stored(search.reference)))
                """)
        }
        guard !search.matches.isEmpty else { return }
        if !titleWords.isEmpty {
            for product in try await Self.titleMatches(database, words: titleWords, limit: limit, parts: parts)
            where seen.insert(product.id).inserted {
                try each(product)
            }
            return
        }
        var query = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        query.appendLiteral("SELECT ROW(\(ProductColumns.all))::text FROM products WHERE ")
        query.appendInterpolation(matching: parts)
        query.appendLiteral(" AND search_words @@ to_tsquery('simple', ")
        query.appendInterpolation(tsquery)
        query.appendLiteral(") ORDER BY ts_rank(\(Self.rankWeights), search_words, to_tsquery('simple', ")
        query.appendInterpolation(tsquery)
        query.appendLiteral(")) DESC, id LIMIT \(limit)")
        try await read("searching products", PostgresQuery(stringInterpolation: query))
    }

    /// Words a title must hold: each one of its forms (`isPrefix`: as prefixes).
    typealias TitleWords = [(forms: [String], isPrefix: Bool)]

    /// The tsquery of `words`, each form with `weight` (A: in `search_words`, the title's part;
    /// none: in the titles' own index).
    static func tsquery(_ words: TitleWords, weight: String) -> String {
        words.map { word in
            "(" + word.forms.map { form in
                form + (word.isPrefix ? ":*" + weight : weight.isEmpty ? "" : ":" + weight)
            }.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// The rows read from the start of the table, in id order, before a title search asks the
    /// titles' index instead.
    static let titleScanRows = 5_000

    /// The `limit` lowest ids whose title holds `words` and that pass `parts`.
    /// First the first `titleScanRows` rows in id order (weight A of `search_words`, the title's
    /// words): a word many titles hold fills the page there. When it does not, the titles' index
    /// (`shopsh_title_matches`), which finds the few titles holding a rare word at once.
    static func titleMatches(_ database: PostgresDatabase, words: TitleWords, limit: Int,
                             parts: FilterParts) async throws -> [Product] {
        guard limit > 0, !words.isEmpty else { return [] }
        var found: [Product] = []
        func read(_ query: PostgresQuery) async throws {
            try await database.forEachRow("searching product titles", query: { _ in query }) { row in
                var cells = row.makeIterator()
                found.append(try product(record: cells.next()?.bytes))
            }
        }
        try await read("""
            SELECT ROW(\(unescaped: ProductColumns.all))::text
            FROM (SELECT * FROM products ORDER BY id LIMIT \(titleScanRows)) AS first_rows
            WHERE \(matching: parts) AND search_words @@ to_tsquery('simple', \(tsquery(words, weight: "A")))
            ORDER BY id LIMIT \(limit)
            """)
        if found.count >= limit { return found }
        found = []
        if parts.hasFiltersBeyondTitleMatches {
            try await read("""
                SELECT ROW(\(unescaped: ProductColumns.all))::text FROM products
                WHERE \(matching: parts) AND \(unescaped: PostgresSearchSchema.titleWords) @@ to_tsquery('simple', \(tsquery(words, weight: "")))
                ORDER BY id LIMIT \(limit)
                """)
            return found
        }
        try await read("""
            SELECT ROW(\(unescaped: ProductColumns.all))::text
            FROM shopsh_title_matches(to_tsquery('simple', \(tsquery(words, weight: ""))), \(limit)::integer,
                                      \(parts.category)::text, \(parts.minPrice)::bigint, \(parts.maxPrice)::bigint,
                                      \(parts.inStockOnly))
            """)
        return found
    }
}
