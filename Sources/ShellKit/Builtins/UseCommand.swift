// UseCommand: `use USER` picks the current customer; `use` alone clears it.

import ArgumentParser
import ShopCore

/// `use [USER]`.
struct UseCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Pick the current customer (USER arguments may then be left out); use alone clears it.")

    @Argument(help: "An id, username or email.", completion: .shop(.user))
    var user: String?

    func run(in context: CommandContext) async throws {
        guard let user else {
            if let previous = context.session.currentUserName ?? context.session.currentUser {
                context.note("no current customer (was \(previous))")
            }
            context.session.currentUser = nil
            context.session.currentUserName = nil
            return
        }
        let found = try await context.services.users.user(user)
        context.session.currentUser = String(found.id)
        context.session.currentUserName = found.username
        context.note("current customer: \(found.username) (\(found.firstName) \(found.lastName), \(found.email))")
    }
}
