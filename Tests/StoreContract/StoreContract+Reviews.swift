// StoreContract+Reviews: products' reviews, barcodes and details (issue 38) — reviews come with
// the product a file brings, a product's summary counts and averages its visible ones, hiding and
// unhiding record who and when and change the summary, deleting removes one; a barcode (EAN-13, or
// UPC-A as its EAN-13) finds its product wherever a product is named; details are kept, changed
// and cleared; bad values change nothing.

import ShopCore
import Testing

extension StoreContract {
    /// `ReviewService`, and `ProductService`'s barcodes, details and review summaries.
    public static func reviews(_ fixture: some StoreFixture) async {
        await run("reviews", fixture, [
            Case("a product's summary counts and averages its visible reviews", reviewSummaries),
            Case("reviews are listed by product, rating, day and state", reviewListing),
            Case("hiding a review records why, who and when; unhiding and deleting", reviewModeration),
            Case("a barcode finds its product wherever a product is named", barcodesFindProducts),
            Case("details are kept, changed and cleared; sorting by reviews, filtering by rating", detailsKept),
            Case("bad reviews, barcodes and details change nothing", badReviewValuesRefused),
        ])
    }

    static let sampleDetails = ProductDetails(
        images: ["https://img.example.com/1/thumbnail.webp", "https://img.example.com/1/1.webp"],
        weight: ExactDecimal(units: 4, scale: 0),
        dimensions: Dimensions(width: ExactDecimal(units: 1514, scale: 2), height: ExactDecimal(units: 1308, scale: 2),
                               depth: ExactDecimal(units: 2299, scale: 2)),
        warranty: "1 week warranty", shipping: "Ships in 3-5 business days", returnPolicy: "No return policy",
        availability: "In Stock")

    static func review(_ rating: Int, _ name: String, at: String = "2025-04-30T09:41:02Z") -> NewReview {
        NewReview(rating: rating, comment: "\(rating) stars from \(name)", reviewerName: name,
                  reviewerEmail: "\(name.lowercased())@example.com", at: at)
    }

    /// Imports one product with `reviews` (and the sample details), returning it as stored.
    @discardableResult
    static func importReviewed(_ shop: ShopServices, sku: String, barcode: String? = nil, rating: Int = 450,
                               _ reviews: [NewReview]) async throws -> Product {
        _ = try await shop.products.importProducts([
            NewProduct(sku: sku, title: "Reviewed \(sku)", category: "beauty", price: ContractData.usd(999), stock: 10,
                       rating: Rating(hundredths: rating), barcode: barcode, details: sampleDetails, reviews: reviews),
        ])
        return try await shop.products.product(sku)
    }

    static func allReviews(_ shop: ShopServices, _ filter: ReviewFilter = ReviewFilter()) async throws -> [Review] {
        var found: [Review] = []
        try await shop.reviews.listReviews(filter, page: Page()) { found.append($0) }
        return found
    }

    static func reviewSummaries(_ shop: ShopServices) async throws {
        let rated = try await importReviewed(shop, sku: "MASCARA", [review(3, "Eleanor"), review(4, "Lucas"), review(5, "Ada")])
        #expect(rated.reviews == ReviewSummary(count: 3, ratingTotal: 12) && rated.reviews.mean == ExactDecimal(units: 400, scale: 2))
        let thirds = try await importReviewed(shop, sku: "SOAP", [review(5, "A"), review(5, "B"), review(4, "C")])
        // 14 / 3 = 4.666…: 4.67, rounded once, half away from zero.
        #expect(thirds.reviews.mean == ExactDecimal(units: 467, scale: 2))
        let unrated = try await ContractData.addProduct(shop, sku: "MUG")
        #expect(unrated.reviews == .none && unrated.reviews.mean == nil)
        // A listing that reads every field carries the same summaries.
        var listed: [String: ReviewSummary] = [:]
        try await shop.products.listProducts(ProductFilter(), page: Page()) { listed[$0.sku] = $0.reviews }
        #expect(listed == ["MASCARA": rated.reviews, "SOAP": thirds.reviews, "MUG": .none])
        // Reviews keep what the file said of them.
        let kept = try await allReviews(shop, ReviewFilter(product: "MASCARA"))
        #expect(kept.map(\.rating) == [3, 4, 5] && kept.allSatisfy { $0.productID == rated.id && $0.state == .visible })
        #expect(kept.first.map { ($0.comment, $0.reviewerName, $0.reviewerEmail, $0.at) }
                ?? ("", "", "", "") == ("3 stars from Eleanor", "Eleanor", "eleanor@example.com", "2025-04-30T09:41:02Z"))
        // Importing the product again keeps the reviews it has (and adds none).
        _ = try await importReviewed(shop, sku: "MASCARA", [review(1, "Spam")])
        #expect(try await allReviews(shop, ReviewFilter(product: "MASCARA")) == kept)
    }

    static func reviewListing(_ shop: ShopServices) async throws {
        let first = try await importReviewed(shop, sku: "ONE", [review(1, "A", at: "2025-01-01T00:00:00Z"),
                                                                 review(5, "B", at: "2025-03-01T12:00:00Z")])
        try await importReviewed(shop, sku: "TWO", [review(2, "C", at: "2025-02-28T23:59:59Z")])
        #expect(try await allReviews(shop).map(\.reviewerName) == ["A", "B", "C"])
        #expect(try await allReviews(shop, ReviewFilter(product: String(first.id))).map(\.reviewerName) == ["A", "B"])
        #expect(try await allReviews(shop, ReviewFilter(ratingBelow: 3)).map(\.reviewerName) == ["A", "C"])
        #expect(try await allReviews(shop, ReviewFilter(since: "2025-02-28")).map(\.reviewerName) == ["B", "C"])
        #expect(try await allReviews(shop, ReviewFilter(until: "2025-02-28")).map(\.reviewerName) == ["A", "C"])
        #expect(try await allReviews(shop, ReviewFilter(state: .hidden)).isEmpty)
        var sorted: [String] = []
        try await shop.reviews.listReviews(ReviewFilter(), page: Page(sort: [SortKey(field: "rating", descending: true)])) {
            sorted.append($0.reviewerName)
        }
        #expect(sorted == ["B", "C", "A"])
        try await expectRefused(.notFound, shop) { try await allReviews(shop, ReviewFilter(product: "NOPE")) }
    }

    static func reviewModeration(_ shop: ShopServices) async throws {
        let product = try await importReviewed(shop, sku: "ONE", [review(1, "Troll"), review(5, "Fan"), review(4, "Friend")])
        let troll = try #require(try await allReviews(shop).first { $0.reviewerName == "Troll" })
        let hidden = try await shop.reviews.hideReview(troll.id, reason: "  abusive language  ")
        #expect(hidden.state == .hidden && hidden.hiddenReason == "abusive language" && !(hidden.hiddenBy ?? "").isEmpty
                && ContractData.isTimestamp(hidden.hiddenAt ?? ""), "\(hidden)")
        #expect(try await shop.reviews.review(troll.id) == hidden)
        // The summary counts visible reviews only: 5 and 4.
        let after = try await shop.products.product("ONE")
        #expect(after.reviews == ReviewSummary(count: 2, ratingTotal: 9) && after.reviews.mean == ExactDecimal(units: 450, scale: 2))
        #expect(try await allReviews(shop, ReviewFilter(state: .hidden)) == [hidden])
        #expect(try await allReviews(shop, ReviewFilter(state: .visible)).map(\.reviewerName) == ["Fan", "Friend"])
        try await expectRefused(.conflict, shop) { try await shop.reviews.hideReview(troll.id, reason: "again") }
        let shown = try await shop.reviews.unhideReview(troll.id)
        #expect(shown == troll)
        try await expectRefused(.conflict, shop) { try await shop.reviews.unhideReview(troll.id) }
        #expect(try await shop.products.product(String(product.id)).reviews == ReviewSummary(count: 3, ratingTotal: 10))
        #expect(try await shop.reviews.deleteReview(troll.id) == troll)
        #expect(try await shop.products.product("ONE").reviews == ReviewSummary(count: 2, ratingTotal: 9))
        try await expectRefused(.notFound, shop) { try await shop.reviews.review(troll.id) }
        try await expectRefused(.notFound, shop) { try await shop.reviews.deleteReview(troll.id) }
        try await expectRefused(.notFound, shop) { try await shop.reviews.hideReview(troll.id, reason: "gone") }
        // Deleting the product takes its reviews with it.
        _ = try await shop.products.deleteProduct("ONE")
        #expect(try await allReviews(shop).isEmpty)
    }

    static func barcodesFindProducts(_ shop: ShopServices) async throws {
        // 4006381333931: a valid EAN-13; 036000291452: a valid UPC-A, kept as 0036000291452.
        let ean = try await importReviewed(shop, sku: "PEN", barcode: "4006381333931", [])
        let upc = try await ContractData.addProduct(shop, sku: "GUM")
        _ = try await shop.products.updateProduct("GUM", ProductChanges(barcode: try Barcode.parse("036000291452")))
        #expect(try await shop.products.product("4006381333931").id == ean.id)
        #expect(try await shop.products.product("036000291452").id == upc.id)
        #expect(try await shop.products.product("0036000291452").id == upc.id)
        #expect(try await shop.products.product("GUM").barcode == "0036000291452")
        // Baskets, favourites and stock name products by barcode too.
        try await ContractData.addUser(shop, "ada")
        let line = try await shop.baskets.addToBasket("ada", product: "4006381333931", quantity: 2)
        #expect(line.productID == ean.id)
        #expect(try await shop.favorites.addFavorite("ada", product: "036000291452"))
        #expect(try await shop.products.adjustStock("4006381333931", .add(5)).stock == ean.stock + 5)
        // A search for the barcode finds its product first.
        var found: [Int64] = []
        try await shop.products.searchProducts("4006381333931", filter: ProductFilter(), page: Page()) { found.append($0.product.id) }
        #expect(found.first == ean.id)
        // A barcode nobody has: not found, or a wrong check digit said as such.
        try await expectRefused(.notFound, shop) { try await shop.products.product("4006381333948") }
        try await expectRefused(.invalidInput, shop) { try await shop.products.product("4006381333932") }
        // One barcode, one product.
        try await expectRefused(.conflict, shop) {
            try await shop.products.updateProduct("GUM", ProductChanges(barcode: "4006381333931"))
        }
        _ = try await shop.products.updateProduct("GUM", ProductChanges(barcode: ""))
        #expect(try await shop.products.product("GUM").barcode == nil)
        try await expectRefused(.notFound, shop) { try await shop.products.product("036000291452") }
    }

    static func detailsKept(_ shop: ShopServices) async throws {
        let added = try await importReviewed(shop, sku: "LAMP", rating: 480, [review(2, "A"), review(3, "B")])
        #expect(added.details == sampleDetails)
        var details = sampleDetails
        details.images = ["https://img.example.com/2.webp"]
        details.warranty = nil
        details.dimensions = nil
        let changed = try await shop.products.updateProduct("LAMP", ProductChanges(details: details))
        #expect(changed.details == details && changed.reviews == added.reviews)
        let plain = try await ContractData.addProduct(shop, sku: "MUG")
        #expect(plain.details.isEmpty && plain.barcode == nil)
        let many = try await importReviewed(shop, sku: "BOOK", rating: 300, [review(5, "C"), review(5, "D"), review(4, "E")])
        var order: [String] = []
        try await shop.products.listProducts(ProductFilter(), page: Page(sort: [SortKey(field: "review_count", descending: true)])) {
            order.append($0.sku)
        }
        #expect(order == ["BOOK", "LAMP", "MUG"])
        order = []
        try await shop.products.listProducts(ProductFilter(), page: Page(sort: [SortKey(field: "reviews")])) { order.append($0.sku) }
        #expect(order == ["MUG", "LAMP", "BOOK"])
        var rated: [String] = []
        try await shop.products.listProducts(ProductFilter(minRating: Rating(hundredths: 400)), page: Page()) { rated.append($0.sku) }
        #expect(rated == ["LAMP"])
        #expect(try await shop.products.countProducts(ProductFilter(minRating: Rating(hundredths: 300))) == 2)
        _ = many
    }

    static func badReviewValuesRefused(_ shop: ShopServices) async throws {
        let product = try await importReviewed(shop, sku: "ONE", [review(3, "A")])
        let only = try #require(try await allReviews(shop).first)
        for reason in ["", "   ", "bell\u{07}", String(repeating: "x", count: ReviewRules.maxReasonLength + 1)] {
            try await expectRefused(.invalidInput, shop) { try await shop.reviews.hideReview(only.id, reason: reason) }
        }
        for bad in [review(0, "Zero"), review(6, "Six"), review(3, "Esc\u{1B}[2J"), review(3, "Late", at: "yesterday")] {
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.importProducts([NewProduct(sku: "TWO", title: "Two", category: "beauty",
                                                                   price: ContractData.usd(100), reviews: [bad])])
            }
        }
        var badDetails = sampleDetails
        badDetails.images = ["javascript:alert(1)"]
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("ONE", ProductChanges(details: badDetails))
        }
        badDetails = sampleDetails
        badDetails.availability = "In\u{1B}[31m Stock"
        try await expectRefused(.invalidInput, shop) {
            try await shop.products.updateProduct("ONE", ProductChanges(details: badDetails))
        }
        for barcode in ["123", "40063813339311", "400638133393x"] {
            try await expectRefused(.invalidInput, shop) {
                try await shop.products.updateProduct("ONE", ProductChanges(barcode: barcode))
            }
        }
        try await expectRefused(.notFound, shop) { try await shop.reviews.hideReview(only.id + 1_000, reason: "spam") }
        #expect(try await shop.products.product(String(product.id)).reviews == ReviewSummary(count: 1, ratingTotal: 3))
    }
}
