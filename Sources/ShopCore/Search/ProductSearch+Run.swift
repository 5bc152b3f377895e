// ProductSearch+Run: one search on any store — the store's index gives candidates for the words
// as typed (and, when that finds nothing, for their typos), ProductSearch ranks them, and the
// page (an explicit --sort, then offset and limit) is cut from the ranking.

extension ProductSearch {
    /// A product found, with its score (`score` in the output).
    public typealias Found = (product: Product, score: Int)

    /// Runs a search. `candidates` gives the products (passing the listing's other filters)
    /// whose indexed fields hold one form of every word (the last word's first form as a
    /// prefix), plus the one whose id or SKU is the text; at most `candidateLimit` of them, its
    /// engine's best first. `vocabulary` gives the words the index holds (for the forms).
    /// Calls `body` for each product of `page`.
    public static func run(_ text: String, page: Page,
                           vocabulary: () async throws -> [String],
                           candidates: (_ matches: [WordMatch]) async throws -> [Product],
                           _ body: (Found) throws -> Void) async throws {
        try ListingLimits.checkSearch(text)
        let query = SearchText(text)
        let matches = query.words.isEmpty ? [] : ProductSearch.matches(query, vocabulary: try await vocabulary())
        var ranked = rank(try await candidates(matches), query: query, matches: matches)
        if !page.sort.isEmpty { ranked = try sorted(ranked, by: page.sort) }
        let start = min(page.offset, ranked.count)
        let end = page.limit.map { start + min($0, ranked.count - start) } ?? ranked.count
        for found in ranked[start..<end] { try body(found) }
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
