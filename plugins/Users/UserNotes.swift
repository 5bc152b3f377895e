// UserNotes: `users note USER [TEXT] [--delete NOTE]` — the team's notes on a customer ("call,
// don't email"), as NoteArguments adds, lists and deletes them.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

extension UsersCommand {
    /// `users note USER [TEXT] [--delete NOTE]`.
    struct Note: ShellCommand {
        /// Adding needs support, deleting an admin; listing, any role.
        static let operation: ShopOperation? = .addNote
        var invocationOperation: ShopOperation? { note.operation }
        static let configuration = CommandConfiguration(
            abstract: "Add a note on a customer for the team, list their notes, or delete one.",
            discussion: """
                users note USER TEXT adds a note (support); its author (you) and time are the store's. users note USER \
                lists the customer's notes; users note USER --delete NOTE deletes one (admin only). A note may hold line \
                breaks and tabs, no other control characters, at most \(NoteRules.maxLength) characters.
                """)

        @Argument(help: ArgumentHelp("The customer's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        @OptionGroup var note: NoteArguments

        func run(in context: CommandContext) async throws {
            try await note.run(on: .user(user), in: context)
        }
    }
}
