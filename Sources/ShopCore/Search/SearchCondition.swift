// SearchCondition: a search as a listing's condition — which products `products search TEXT`
// finds, without its ranking. `products list --search`, a search sorted by a field and a bulk
// change's `--search` select through it, so every path means one thing by a search.

/// The products a search finds: the one whose id or SKU is the text, and those holding one of
/// every word's forms (`matches`; the last word's first form as a prefix) in a searched field.
public struct SearchCondition: Sendable {
    /// The text, split as every field is.
    public let query: SearchText
    /// What each word matches in the store's index (`ProductSearch.matches`).
    public let matches: [ProductSearch.WordMatch]

    /// The condition of `text` against `vocabulary`, the words the store's index holds. Refuses a
    /// text longer than `ListingLimits.maxSearchLength`.
    public init(_ text: String, vocabulary: () throws -> [String]) throws {
        try ListingLimits.checkSearch(text)
        query = SearchText(text)
        matches = query.words.isEmpty ? [] : ProductSearch.matches(query, vocabulary: try vocabulary())
    }

    /// The text as an id or a SKU would be typed.
    public var reference: String { query.text.trimmingASCIISpaces }

    /// `reference` as an id (0, which no product has, when it is not a number).
    public var referenceID: Int64 { Int64(reference) ?? 0 }

    /// The score of a product the condition found (0 for one found by the store's tokenizer alone).
    public func score(_ product: Product) -> Int {
        ProductSearch.score(product, query: query, matches: matches) ?? 0
    }
}

extension Page {
    /// Whether a search on this page is a listing in a field's order (`--sort` naming no `score`):
    /// then the store sorts and pages every match itself.
    public var sortsSearchByField: Bool {
        !sort.isEmpty && !sort.contains { $0.field == "score" }
    }
}
