// ProductSearch+Run: one search on any store — the store's index gives candidates for the words
// (SearchCondition), ProductSearch ranks them and the page (offset and limit) is cut from the
// ranking; a search sorted by fields is the store's own listing of every match.

extension ProductSearch {
    /// A product found, with its score (`score` in the output).
    public typealias Found = (product: Product, score: Int)

    /// Which candidates a search asks its store for.
    public enum Candidates: Sendable, Equatable {
        /// Every product the search finds, in the page's field order (its `--sort` names no
        /// `score`; ties by id), that page only: a listing with the search as its condition.
        case page(Page)
        /// Products holding one form of every word in any field (the last word's first form as a
        /// prefix), at most `candidateLimit`, the store's engine's best first.
        case ranked
        /// Products whose title holds one of every word's forms (`bestInTitle`), the lowest `limit`
        /// ids: the products with the highest score a search can give, in ranking order.
        case bestInTitle(words: [TierWord], limit: Int)
    }

    /// Runs a search. `candidates` calls its second argument for each product (passing the
    /// listing's other filters) the request asks for, and for `.ranked` and `.bestInTitle` first
    /// the one whose id or SKU is the text. Calls `body` for each product of `page`.
    ///
    /// A page sorted by fields is the store's listing of every match. A page of the ranking is
    /// first asked of the titles holding every word's best form (`bestInTitle`): that is the best
    /// score there is, and those tie by id, so when there are enough of them their lowest ids are
    /// the page, and the engine need not rank the rest.
    public static func run(_ search: SearchCondition, page: Page,
                           candidates: (_ request: Candidates, _ each: (Product) throws -> Void) async throws -> Void,
                           _ body: (Found) throws -> Void) async throws {
        if page.sortsSearchByField {
            return try await withoutActuallyEscaping(body) { body in
                try await candidates(.page(page)) { product in try body((product, search.score(product))) }
            }
        }
        func ranked(_ request: Candidates) async throws -> [Found] {
            var products: [Product] = []
            try await candidates(request) { products.append($0) }
            return rank(products, query: search.query, matches: search.matches)
        }
        var found: [Found]? = nil
        if page.sort.isEmpty, let limit = page.limit, let best = bestInTitle(search.matches) {
            let (wanted, overflow) = page.offset.addingReportingOverflow(limit)
            if !overflow, wanted < candidateLimit {
                let pool = try await ranked(.bestInTitle(words: best.words, limit: wanted + 1))
                if pool.filter({ $0.score == best.score }).count >= wanted { found = pool }
            }
        }
        var all: [Found]
        if let found { all = found } else { all = try await ranked(.ranked) }
        if !page.sort.isEmpty { all = try sorted(all, by: page.sort) }
        let start = min(page.offset, all.count)
        let end = page.limit.map { start + min($0, all.count - start) } ?? all.count
        for item in all[start..<end] { try body(item) }
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
        case "barcode": return order(l.barcode ?? "", r.barcode ?? "")
        case "review_count", "reviews": return order(l.reviews.count, r.reviews.count)
        default: return order(left.score, right.score)
        }
    }
}
