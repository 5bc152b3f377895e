// ReviewRows: the one place where a review becomes output columns and cells.

import ShopCore
import ShopOutput
import ShellKit

/// Columns and cells for reviews, shared by every reviews command.
enum ReviewRows {
    static let columns = ["id", "product_id", "rating", "state", "reviewer_name", "reviewer_email", "date", "comment",
                          "hidden_reason", "hidden_by", "hidden_at"].map(Column.init)

    /// What a table shows for people: who said what of which product and whether it shows; the
    /// reviewer's email and the date while they fit.
    static let tableView = TableView(["id", "product_id", "rating", "state", "date", "reviewer_name", "reviewer_email", "comment"],
                                     optional: ["reviewer_email", "date"])

    static func cells(_ review: Review) -> [Cell] {
        func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }
        return [.integer(review.id), .integer(review.productID), .integer(Int64(review.rating)), .text(review.state.rawValue),
                .text(review.reviewerName), .text(review.reviewerEmail), .text(review.at), .text(review.comment),
                text(review.hiddenReason), text(review.hiddenBy), text(review.hiddenAt)]
    }
}
