// SQLiteReviewService: ReviewService on SQLite — products' reviews in `reviews` (Schema v12);
// hiding records the reason, the operator the audit log names and the store's clock; hiding,
// unhiding and deleting are audited under the product (AuditChange.review).

import GRDB
import ShopCore

struct SQLiteReviewService: ReviewService {
    let database: DatabaseQueue
    let clock: ShopClock

    static let columns = """
        review_id, product_id, rating, comment, reviewer_name, reviewer_email, created_at, hidden_reason, hidden_by, hidden_at
        """

    func listReviews(_ filter: ReviewFilter, page: Page, _ body: (Review) throws -> Void) async throws {
        try database.shopRead { db in
            var conditions: [String] = []
            var arguments: [any DatabaseValueConvertible] = []
            if let reference = filter.product {
                conditions.append("product_id = ?")
                arguments.append(try SQLiteProductService.find(db, reference).id)
            }
            SQLConditions.add("rating < ?", filter.ratingBelow, to: &conditions, &arguments)
            SQLConditions.add("created_at >= ?", filter.since, to: &conditions, &arguments)
            SQLConditions.add("created_at <= ?", filter.until.map { $0 + "T23:59:59Z" }, to: &conditions, &arguments)
            switch filter.state {
            case .visible?: conditions.append("hidden_reason IS NULL")
            case .hidden?: conditions.append("hidden_reason IS NOT NULL")
            case nil: break
            }
            let where_ = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let sql = "SELECT \(Self.columns) FROM reviews" + where_
                + (try SQLPaging.clause(page, sortColumns: ReviewRules.sortColumns, tieBreaker: "review_id"))
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() { try body(Self.review(row)) }
        }
    }

    func review(_ id: Int64) async throws -> Review {
        try database.shopRead { db in try Self.find(db, id) }
    }

    func hideReview(_ id: Int64, reason: String) async throws -> Review {
        let checked = try ReviewRules.reason(reason)
        return try database.shopWrite { db in
            let review = try Self.find(db, id)
            guard review.state == .visible else {
                throw ShopError.conflict("review \(id) is already hidden (\(review.hiddenReason ?? "")); reviews unhide \(id) shows it again")
            }
            let now = clock.timestamp()
            try db.execute(sql: "UPDATE reviews SET hidden_reason = ?, hidden_by = ?, hidden_at = ? WHERE review_id = ?",
                           arguments: [checked, SQLiteOrderService.operatorName, now, id])
            let hidden = try Self.find(db, id)
            try SQLiteAuditLog.record(.review("hide", before: review, after: hidden), in: db, at: now)
            return hidden
        }
    }

    func unhideReview(_ id: Int64) async throws -> Review {
        try database.shopWrite { db in
            let review = try Self.find(db, id)
            guard review.state == .hidden else { throw ShopError.conflict("review \(id) is not hidden") }
            try db.execute(sql: "UPDATE reviews SET hidden_reason = NULL, hidden_by = NULL, hidden_at = NULL WHERE review_id = ?",
                           arguments: [id])
            let shown = try Self.find(db, id)
            try SQLiteAuditLog.record(.review("unhide", before: review, after: shown), in: db, at: clock.timestamp())
            return shown
        }
    }

    func deleteReview(_ id: Int64) async throws -> Review {
        try database.shopWrite { db in
            let review = try Self.find(db, id)
            try db.execute(sql: "DELETE FROM reviews WHERE review_id = ?", arguments: [id])
            try SQLiteAuditLog.record(.review("delete", before: review, after: nil), in: db, at: clock.timestamp())
            return review
        }
    }

    // MARK: - Rows

    static func find(_ db: Database, _ id: Int64) throws -> Review {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM reviews WHERE review_id = ?", arguments: [id]) else {
            throw ReviewRules.notFound(id)
        }
        return review(row)
    }

    static func review(_ row: Row) -> Review {
        Review(id: row[0], productID: row[1], rating: row[2], comment: row[3], reviewerName: row[4], reviewerEmail: row[5],
               at: row[6], hiddenReason: row[7], hiddenBy: row[8], hiddenAt: row[9])
    }
}
