// PostgresReviewService: ReviewService on PostgreSQL — products' reviews in `reviews` (migration
// 16), read through `reviews_masked` by a viewer. Hiding sets the reason only: the server's
// trigger records who (the login) and when.

import Logging
import PostgresNIO
import ShopCore

struct PostgresReviewService: ReviewService {
    let database: PostgresDatabase

    /// `ReviewRules.sortColumns`, text by code point as SQLite sorts it.
    static let sortColumns = ReviewRules.sortColumns.merging(["reviewer": "reviewer_name COLLATE \"C\""]) { _, new in new }

    static let columns = """
        review_id, product_id, rating, comment, reviewer_name, reviewer_email, \(PostgresTimes.epochSeconds("created_at")),
        hidden_reason, hidden_by, \(PostgresTimes.epochSeconds("hidden_at"))
        """

    typealias ReviewRow = (Int64, Int64, Int, String, String, String, Int64, String?, String?, Int64?)

    func listReviews(_ filter: ReviewFilter, page: Page, _ body: (Review) throws -> Void) async throws {
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: "review_id")
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        let state = filter.state?.rawValue
        let since = filter.since.map { $0 + "T00:00:00Z" }, until = filter.until.map { $0 + "T23:59:59Z" }
        try await database.forEachRow("listing reviews", query: { connection in
            let product = try await filter.product.asyncMap { reference in
                try await PostgresProductService.find(connection, reference, logger: database.logger).id
            }
            return """
                SELECT \(unescaped: Self.columns) FROM \(unescaped: database.reviewsSource)
                WHERE (\(product)::bigint IS NULL OR product_id = \(product))
                  AND (\(filter.ratingBelow)::integer IS NULL OR rating < \(filter.ratingBelow))
                  AND (\(since)::text IS NULL OR created_at >= \(since)::timestamptz)
                  AND (\(until)::text IS NULL OR created_at <= \(until)::timestamptz)
                  AND (\(state)::text IS NULL OR (hidden_reason IS NULL) = (\(state) = 'visible'))
                ORDER BY \(unescaped: terms)
                LIMIT \(limit) OFFSET \(offset)
                """
        }) { row in
            try body(Self.review(try row.decode(ReviewRow.self)))
        }
    }

    func review(_ id: Int64) async throws -> Review {
        try await database.read("reading a review") { connection in
            try await Self.find(connection, id, source: database.reviewsSource, logger: database.logger)
        }
    }

    func hideReview(_ id: Int64, reason: String) async throws -> Review {
        let checked = try ReviewRules.reason(reason)
        return try await database.write(.hideReview, action: "review hide") { connection in
            let review = try await Self.find(connection, id, source: "reviews", lock: true, logger: database.logger)
            guard review.state == .visible else {
                throw ShopError.conflict("review \(id) is already hidden (\(review.hiddenReason ?? "")); reviews unhide \(id) shows it again")
            }
            try await connection.query("UPDATE reviews SET hidden_reason = \(checked) WHERE review_id = \(id)", logger: database.logger)
            return try await Self.find(connection, id, source: "reviews", logger: database.logger)
        }
    }

    func unhideReview(_ id: Int64) async throws -> Review {
        try await database.write(.hideReview, action: "review unhide") { connection in
            let review = try await Self.find(connection, id, source: "reviews", lock: true, logger: database.logger)
            guard review.state == .hidden else { throw ShopError.conflict("review \(id) is not hidden") }
            try await connection.query("UPDATE reviews SET hidden_reason = NULL WHERE review_id = \(id)", logger: database.logger)
            return try await Self.find(connection, id, source: "reviews", logger: database.logger)
        }
    }

    func deleteReview(_ id: Int64) async throws -> Review {
        try await database.write(.deleteReview, action: "review delete") { connection in
            for try await row in try await connection.query(
                "DELETE FROM reviews WHERE review_id = \(id) RETURNING \(unescaped: Self.columns)", logger: database.logger
            ).decode(ReviewRow.self) {
                return Self.review(row)
            }
            throw ReviewRules.notFound(id)
        }
    }

    // MARK: - Rows

    /// Review `id` read from `source` (constant SQL: `reviews` or `reviews_masked`).
    static func find(_ connection: PostgresConnection, _ id: Int64, source: String, lock: Bool = false,
                     logger: Logger) async throws -> Review {
        for try await row in try await connection.query(
            "SELECT \(unescaped: columns) FROM \(unescaped: source) WHERE review_id = \(id)\(unescaped: lock ? " FOR UPDATE" : "")",
            logger: logger
        ).decode(ReviewRow.self) {
            return review(row)
        }
        throw ReviewRules.notFound(id)
    }

    static func review(_ row: ReviewRow) -> Review {
        Review(id: row.0, productID: row.1, rating: row.2, comment: row.3, reviewerName: row.4, reviewerEmail: row.5,
               at: ShopClock.timestamp(row.6), hiddenReason: row.7, hiddenBy: row.8, hiddenAt: row.9.map(ShopClock.timestamp))
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
