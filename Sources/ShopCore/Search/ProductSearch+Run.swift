// ProductSearch+Run: one search on any store — the store's index gives candidates for the words
// as typed (and, when that finds nothing, for their typos), ProductSearch ranks them, and the
// page (an explicit --sort, then offset and limit) is cut from the ranking.

extension ProductSearch {
    /// A product found, with its score (`score` in the output).
    public typealias Found = (product: Product, score: Int)

    /// Which candidates a search asks its store for.
    public enum Candidates: Sendable, Equatable {
        /// Products holding one form of every word in any field (the last word's first form as a
        /// prefix), at most `candidateLimit`, the store's engine's best first.
        case ranked
        /// Products whose title holds one of every word's forms (`bestInTitle`), the lowest `limit`
        /// ids: the products with the highest score a search can give, in ranking order.
        case bestInTitle(words: [TierWord], limit: Int)
    }

    /// Runs a search. `candidates` gives the products (passing the listing's other filters) the
    /// request asks for, plus the one whose id or SKU is the text. `vocabulary` gives the words
    /// the index holds (for the forms). Calls `body` for each product of `page`.
    ///
    /// A page of the ranking (no `--sort`) is first asked of the titles holding every word's best
    /// form (`bestInTitle`): that is the best score there is, and those tie by id, so when there
    /// are enough of them their lowest ids are the page, and the engine need not rank the rest.
    public static func run(_ text: String, page: Page,
                           vocabulary: () async throws -> [String],
                           candidates: (_ request: Candidates, _ matches: [WordMatch]) async throws -> [Product],
                           _ body: (Found) throws -> Void) async throws {
        try ListingLimits.checkSearch(text)
        let query = SearchText(text)
        let matches = query.words.isEmpty ? [] : ProductSearch.matches(query, vocabulary: try await vocabulary())
        var ranked: [Found]? = nil
        if page.sort.isEmpty, let limit = page.limit, let best = bestInTitle(matches) {
            let (wanted, overflow) = page.offset.addingReportingOverflow(limit)
            if !overflow, wanted < candidateLimit {
                let pool = rank(try await candidates(.bestInTitle(words: best.words, limit: wanted + 1), matches),
                                query: query, matches: matches)
                if pool.filter({ $0.score == best.score }).count >= wanted { ranked = pool }
            }
        }
        var found: [Found]
        if let ranked {
            found = ranked
        } else {
            found = rank(try await candidates(.ranked, matches), query: query, matches: matches)
        }
        if !page.sort.isEmpty { found = try sorted(found, by: page.sort) }
        let start = min(page.offset, found.count)
        let end = page.limit.map { start + min($0, found.count - start) } ?? found.count
        for item in found[start..<end] { try body(item) }
    }

    /// The fields a search can be sorted by instead of its ranking (`score` is the ranking).
    public static let sortFields = ProductSortField.all + ["score"]

    /// `ranked` in the order of `keys` (`--sort`), ties by the ranking.
    static func sorted(_ ranked: [Found], by keys: [SortKey]) throws(ShopError) -> [Found] {
        for key in keys where !sortFields.contains(key.field) {
            throw .invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(sortFields.sorted().joined(separator: ", "))")
        }
        return ranked.enumerated().sorted { left, right in
            for key in keys {
                let order = compare(left.element, right.element, by: key.field)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// -1, 0 or 1: how two found products compare by one field (no brand sorts first).
    private static func compare(_ left: Found, _ right: Found, by field: String) -> Int {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : a > b ? 1 : 0 }
        let l = left.product, r = right.product
        switch field {
        case "id": return order(l.id, r.id)
        case "sku": return order(l.sku.lowercased(), r.sku.lowercased())
        case "title": return order(l.title.lowercased(), r.title.lowercased())
        case "category": return order(l.category, r.category)
        case "brand": return order(l.brand?.lowercased() ?? "", r.brand?.lowercased() ?? "")
        case "price": return order(l.price.minorUnits, r.price.minorUnits)
        case "discount_percentage": return order(l.discount.hundredths, r.discount.hundredths)
        case "stock": return order(l.stock, r.stock)
        case "rating": return order(l.rating.hundredths, r.rating.hundredths)
        default: return order(left.score, right.score)
        }
    }
}
