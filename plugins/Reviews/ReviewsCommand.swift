// ReviewsCommand: the `reviews` plugin — customers' reviews of products and their moderation:
// list them (a product's, the low-rated, the recent, the hidden), show one, hide one with a reason
// or show it again (support), delete one (an admin). A viewer reads reviewers' emails masked.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

/// The reviews plugin, as the executable registers it.
public let reviewsPlugin = ShellPlugin(ReviewsCommand.self)

/// `reviews`.
struct ReviewsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reviews",
        abstract: "Products' reviews: list, show, hide (with a reason), unhide and delete them.",
        discussion: """
            A hidden review stays in the store with its reason, who hid it and when; products show counts \
            and averages only the visible ones (review_count, review_mean). Support hides and unhides; only \
            an admin deletes. Reviewers' emails are personal data: a viewer sees them masked.
            """,
        subcommands: [List.self, Show.self, Hide.self, Unhide.self, Delete.self])
}

/// A review's id as typed.
struct ReviewID: ParsableArguments {
    @Argument(help: ArgumentHelp("The review's id (reviews list shows them).", valueName: "id"))
    var id: Int64
}

extension ReviewsCommand {
    /// `reviews list [--product P] [--rating-below N] [--since D] [--until D] [--state S]`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "List reviews by id, visible and hidden.",
            discussion: "Sortable by \(ReviewRules.sortColumns.keys.sorted().joined(separator: ", ")).")

        @Option(help: ArgumentHelp("Only this product's reviews (id, SKU or barcode).", valueName: "product"),
                completion: .shop(.product))
        var product: String?

        @Option(name: .customLong("rating-below"), help: ArgumentHelp("Only reviews rated below N stars (2 to 6).", valueName: "N"))
        var ratingBelow: Int?

        @Option(help: ArgumentHelp("Only \(ReviewState.choices) reviews.", valueName: "state"),
                completion: .list(ReviewState.allCases.map(\.rawValue)))
        var state: String?

        @OptionGroup var days: DayRangeOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (since, until) = try days.days(today: try context.today())
            let filter = ReviewFilter(
                product: try SelectionText.check(product, for: "--product"),
                ratingBelow: try ratingBelow.map { value throws(ShopError) in try ReviewRules.ratingBelow(value) },
                since: since, until: until,
                state: try state.map { text throws(ShopError) in
                    guard let state = ReviewState(rawValue: text.lowercased()) else {
                        throw ShopError.usage("invalid --state \(text.quotedForMessage()): expected \(ReviewState.choices)")
                    }
                    return state
                })
            let page = try context.page(paging)
            try await context.list(columns: ReviewRows.columns, tableView: ReviewRows.tableView, options: output, page: page,
                                   emptyNote: "no reviews") { emit in
                try await context.services.reviews.listReviews(filter, page: page) { review in try emit(ReviewRows.cells(review)) }
            }
        }
    }

    /// `reviews show ID`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show one review.")

        @OptionGroup var review: ReviewID
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let found = try await context.services.reviews.review(review.id)
            try context.record(columns: ReviewRows.columns, row: ReviewRows.cells(found), options: output)
        }
    }

    /// `reviews hide ID --reason TEXT`.
    struct Hide: ShellCommand {
        static let operation: ShopOperation? = .hideReview
        static let configuration = CommandConfiguration(
            abstract: "Hide a review from shoppers, saying why (it stays in the store; reviews unhide shows it again).")

        @OptionGroup var review: ReviewID

        @Option(parsing: .unconditional, help: ArgumentHelp("Why (1 to 500 characters), e.g. \"abusive language\".", valueName: "text"))
        var reason: String

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let hidden = try await context.services.reviews.hideReview(review.id, reason: reason)
            try context.record(columns: ReviewRows.columns, row: ReviewRows.cells(hidden), options: output)
            context.note("hid review \(hidden.id) of product \(hidden.productID)")
        }
    }

    /// `reviews unhide ID`.
    struct Unhide: ShellCommand {
        static let operation: ShopOperation? = .hideReview
        static let configuration = CommandConfiguration(abstract: "Show a hidden review again.")

        @OptionGroup var review: ReviewID
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let shown = try await context.services.reviews.unhideReview(review.id)
            try context.record(columns: ReviewRows.columns, row: ReviewRows.cells(shown), options: output)
            context.note("review \(shown.id) of product \(shown.productID) is visible again")
        }
    }

    /// `reviews delete ID`.
    struct Delete: ShellCommand {
        static let operation: ShopOperation? = .deleteReview
        static let configuration = CommandConfiguration(
            abstract: "Delete a review for good (an admin's; reviews hide keeps it with a reason).",
            discussion: "Asks for confirmation at a terminal (--yes skips it); scripts and pipes are never asked.")

        @OptionGroup var review: ReviewID

        @Flag(name: [.short, .long], help: "Do not ask for confirmation at a terminal.")
        var yes = false

        func run(in context: CommandContext) async throws {
            if !yes, context.canAsk {
                let target = try await context.services.reviews.review(review.id)
                guard try context.ask("delete review \(target.id) of product \(target.productID) (\(target.rating) stars, by \(target.reviewerName))? reviews hide keeps it") else {
                    return context.note("review \(target.id) was not deleted")
                }
            }
            let deleted = try await context.services.reviews.deleteReview(review.id)
            context.note("deleted review \(deleted.id) of product \(deleted.productID)")
        }
    }
}
