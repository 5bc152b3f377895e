// Review: a customer's review of a product (rating 1–5, comment, reviewer, date) and its
// moderation — visible, or hidden with the reason, who hid it and when (support may hide, an
// admin may delete) — the rules of what one may hold, and a product's summary of its visible ones.

/// Whether a review is shown to shoppers.
public enum ReviewState: String, CaseIterable, Hashable, Sendable {
    case visible, hidden

    /// `visible or hidden`, for help and errors.
    public static let choices = allCases.map(\.rawValue).joined(separator: " or ")
}

/// A review of a product.
public struct Review: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var productID: Int64
    /// 1 to 5 stars.
    public var rating: Int
    public var comment: String
    public var reviewerName: String
    /// Personal data: masked for a viewer.
    public var reviewerEmail: String
    /// When it was written: `2026-11-23T05:31:02Z`.
    public var at: String
    /// Why it was hidden; nil while it is visible.
    public var hiddenReason: String?
    /// The operator who hid it (the login on PostgreSQL).
    public var hiddenBy: String?
    public var hiddenAt: String?

    public init(id: Int64, productID: Int64, rating: Int, comment: String, reviewerName: String, reviewerEmail: String,
                at: String, hiddenReason: String? = nil, hiddenBy: String? = nil, hiddenAt: String? = nil) {
        self.id = id
        self.productID = productID
        self.rating = rating
        self.comment = comment
        self.reviewerName = reviewerName
        self.reviewerEmail = reviewerEmail
        self.at = at
        self.hiddenReason = hiddenReason
        self.hiddenBy = hiddenBy
        self.hiddenAt = hiddenAt
    }

    public var state: ReviewState { hiddenReason == nil ? .visible : .hidden }
}

/// A review as a file or a generator brings it; the store gives it its id.
public struct NewReview: Hashable, Sendable {
    public var rating: Int
    public var comment: String
    public var reviewerName: String
    public var reviewerEmail: String
    /// `2026-11-23T05:31:02Z`.
    public var at: String

    public init(rating: Int, comment: String, reviewerName: String, reviewerEmail: String, at: String) {
        self.rating = rating
        self.comment = comment
        self.reviewerName = reviewerName
        self.reviewerEmail = reviewerEmail
        self.at = at
    }
}

/// How many visible reviews a product has and what their ratings add up to.
public struct ReviewSummary: Hashable, Sendable {
    public var count: Int
    public var ratingTotal: Int

    public init(count: Int, ratingTotal: Int) {
        self.count = count
        self.ratingTotal = ratingTotal
    }

    public static let none = ReviewSummary(count: 0, ratingTotal: 0)

    /// The mean rating to 2 decimals, rounded once, half away from zero; nil without reviews.
    public var mean: ExactDecimal? {
        guard count > 0 else { return nil }
        return ExactDecimal(units: ExactDecimal.divideRounded(Int64(ratingTotal) * 100, by: Int64(count)), scale: 2)
    }
}

/// Which reviews `reviews list` shows.
public struct ReviewFilter: Hashable, Sendable {
    /// Only this product's (an id, SKU or barcode, as typed).
    public var product: String?
    /// Only reviews rated below this.
    public var ratingBelow: Int?
    /// Only reviews written on or after this day (`YYYY-MM-DD`).
    public var since: String?
    /// Only reviews written up to and including this day.
    public var until: String?
    /// Only visible or only hidden ones (nil: both).
    public var state: ReviewState?

    public init(product: String? = nil, ratingBelow: Int? = nil, since: String? = nil, until: String? = nil, state: ReviewState? = nil) {
        self.product = product
        self.ratingBelow = ratingBelow
        self.since = since
        self.until = until
        self.state = state
    }
}

/// What a review may hold, and the lines every store says.
public enum ReviewRules {
    public static let ratings = 1...5
    public static let maxCommentLength = 2_000
    public static let maxNameLength = 200
    public static let maxEmailLength = 254
    public static let maxReasonLength = 500
    /// The most reviews one product may bring in a file.
    public static let maxPerProduct = 10_000

    /// `--sort` fields of `reviews list` (its output keys) and the column each sorts on.
    public static let sortColumns = ["id": "review_id", "product_id": "product_id", "rating": "rating", "date": "created_at",
                                     "reviewer": "reviewer_name"]

    public static func check(_ review: NewReview) throws(ShopError) {
        guard ratings.contains(review.rating) else {
            throw .invalidInput("invalid review rating \(review.rating): expected a whole number from 1 to 5")
        }
        try ProductRules.checkText(review.comment, field: "review comment", maxLength: maxCommentLength, allowsLines: true)
        try ProductRules.checkText(review.reviewerName, field: "reviewer name", maxLength: maxNameLength)
        try ProductRules.checkText(review.reviewerEmail, field: "reviewer email", maxLength: maxEmailLength)
        guard ShopClock.parse(review.at) != nil else {
            throw .invalidInput("invalid review date \(review.at.quotedForMessage()): expected a moment like 2026-11-23T05:31:02Z")
        }
    }

    /// Why a review is hidden: 1–500 characters, not blank, no control characters.
    public static func reason(_ text: String) throws(ShopError) -> String {
        let trimmed = text.trimmingASCIISpaces
        guard !trimmed.isEmpty else { throw .invalidInput("hiding a review needs a reason: --reason TEXT") }
        try ProductRules.checkText(trimmed, field: "reason", maxLength: maxReasonLength)
        return trimmed
    }

    /// `--rating-below N`: 2 to 6 (below 1 would match nothing).
    public static func ratingBelow(_ value: Int) throws(ShopError) -> Int {
        guard (2...6).contains(value) else {
            throw .invalidInput("invalid --rating-below \(value): expected 2 to 6 (ratings run from 1 to 5)")
        }
        return value
    }

    public static func notFound(_ id: Int64) -> ShopError { .notFound("no review \(id)") }
}

/// Reviews, as every store keeps them.
public protocol ReviewService: Sendable {
    /// Calls `body` for each review passing `filter`, in `page` order (by id without a sort).
    func listReviews(_ filter: ReviewFilter, page: Page, _ body: (Review) throws -> Void) async throws
    /// One review; `.notFound` otherwise.
    func review(_ id: Int64) async throws -> Review
    /// Hides a visible review with `reason` (checked by ReviewRules.reason); the store records who
    /// and when. A hidden one is refused in one line (nothing changes).
    func hideReview(_ id: Int64, reason: String) async throws -> Review
    /// Shows a hidden review again.
    func unhideReview(_ id: Int64) async throws -> Review
    /// Deletes a review; returns it as it was.
    func deleteReview(_ id: Int64) async throws -> Review
}
