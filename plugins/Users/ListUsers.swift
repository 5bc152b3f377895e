// ListUsers: `users list` (filters, sorting, paging) and `users show USER`.

import ArgumentParser
import ShellKit
import ShopCore

/// `users list [--role R] [--status S] [--search TEXT]`.
struct ListUsers: ShellCommand {
    static let completion = CompletionSpec(options: ["role": .values(UserRole.allCases.map(\.rawValue)), "status": .values(UserStatus.allCases.map(\.rawValue))])
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List users.")

    @Option(help: ArgumentHelp("Only users with this role: admin, moderator or user.", valueName: "role"))
    var role: String?

    @Option(help: ArgumentHelp("Only users with this status: active or disabled.", valueName: "status"))
    var status: String?

    @Option(parsing: .unconditional, help: "Only users whose username, email or name contains this text (case-insensitive).")
    var search: String?

    @OptionGroup var paging: PagingOptions
    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let filter = UserFilter(role: try role.map { try UserRows.role($0) },
                                status: try status.map { try UserRows.status($0) }, search: search)
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
struct ShowUser: ShellCommand {
    static let completion = CompletionSpec(positionals: [.user])
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one user (the current customer after `use USER`).")

    @Argument(help: ArgumentHelp("The user's id, username or email.", valueName: "user"))
    var words: [String] = []

    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let (reference, _) = try context.customer(words, expecting: 0, usage: "users show [USER]")
        let user = try await context.services.users.user(reference)
        try context.record(columns: UserRows.columns, row: UserRows.cells(user), options: output)
    }
}
