// ListUsers: `users list` (filters, sorting, paging) and `users show USER`.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

extension UsersCommand {
    /// `users list [--role R] [--status S] [--search TEXT]`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List users.")

        @Option(help: ArgumentHelp("Only users with this role: \(UserRole.choices).", valueName: "role"))
        var role: UserRole?

        @Option(help: ArgumentHelp("Only users with this status: \(UserStatus.choices).", valueName: "status"))
        var status: UserStatus?

        @Option(parsing: .unconditional, help: "Only users whose username, email or name contains this text (case-insensitive).")
        var search: String?

        @OptionGroup var paging: PagingOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let filter = UserFilter(role: role, status: status,
                                    search: try SelectionText.check(search, for: "--search"))
            let page = try context.page(paging)
            try await context.list(columns: UserRows.columns, defaultFields: UserRows.listingFields, tableView: UserRows.tableView,
                                   options: output,
                                   page: page, emptyNote: emptyNote(filter)) { emit in
                try await context.services.users.listUsers(filter, page: page) { user in
                    try emit(UserRows.cells(user))
                }
            }
        }

        private func emptyNote(_ filter: UserFilter) -> String {
            if let search = filter.search { return "no users match \"\(search)\"" }
            if filter.role != nil || filter.status != nil { return "no users with that role or status" }
            return "no users"
        }
    }

    /// `users show [USER]`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show one user (the current customer after `use USER`).",
            discussion: """
                --all shows the customer's card: who they are, their addresses and the team's notes, their basket, \
                favourites, orders and lifetime spend (net of refunds, cancelled orders left out), and their last \
                \(UserCard.lastOrders) orders with where they went. json: one object with "last_orders", "addresses" \
                and "notes" arrays; csv and tsv: the last orders (the rest goes to stderr).
                """)

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @Flag(help: "Show the customer's whole card.")
        var all = false

        @OptionGroup var asOf: AsOfOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (reference, _) = try words.resolve(in: context)
            if all, asOf.asOf != nil { throw ShopError.usage("--as-of shows the user's own fields: it cannot show the whole card (--all)") }
            if let moment = try await asOf.moment(in: context) {
                let user = try await PastShop(services: context.services, moment: moment).user(reference)
                return try context.record(columns: UserRows.columns, row: UserRows.cells(user), options: output)
            }
            guard all else {
                let user = try await context.services.users.user(reference)
                return try context.record(columns: UserRows.columns, row: UserRows.cells(user), options: output)
            }
            let card = try await UserCard.read(reference, context.services)
            try context.nested(try card.view(), options: output, tableView: UserCard.orderTableView,
                               emptyNote: "\(card.user.username) has placed no orders",
                               flatNote: { "\(UserRows.label(card.user)): \(card.orders.count) orders, lifetime spend \(try card.lifetimeSpend)" })
        }
    }
}
