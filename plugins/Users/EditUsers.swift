// EditUsers: `users add`, `update`, `disable`, `enable` and `delete`: each change is one
// transaction in the store; bad input changes nothing.

import ArgumentParser
import ShellKit
import ShopCore
import ShopCommandKit

/// The user fields an operator can set.
struct UserFieldOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The username: 2 to 32 of a-z, 0-9, '.', '_' and '-' (unique, case-insensitive).")
    var username: String?

    @Option(parsing: .unconditional, help: "The email address (unique, case-insensitive).")
    var email: String?

    @Option(name: .customLong("first-name"), parsing: .unconditional, help: "The first name.")
    var firstName: String?

    @Option(name: .customLong("last-name"), parsing: .unconditional, help: "The last name.")
    var lastName: String?

    @Option(parsing: .unconditional, help: "The phone number (an empty value clears it).")
    var phone: String?

    @Option(help: ArgumentHelp("The role: \(UserRole.choices).", valueName: "role"))
    var role: UserRole?

    var changes: UserChanges {
        get throws {
            UserChanges(username: username, email: email, firstName: firstName, lastName: lastName, phone: phone,
                        role: role)
        }
    }
}

extension UsersCommand {
    /// `users add --username U --email E …`.
    struct Add: ShellCommand {
        static let operation: ShopOperation? = .addUser
        static let configuration = CommandConfiguration(abstract: "Add a user (set a password afterwards with users passwd).")

        @OptionGroup var fields: UserFieldOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            let missing = [("--username", fields.username), ("--email", fields.email)].filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty { throw ValidationError("missing \(missing.joined(separator: ", "))") }
        }

        func run(in context: CommandContext) async throws {
            let changes = try fields.changes
            guard let username = changes.username, let email = changes.email else {
                throw ShopError.usage("users add needs --username and --email")
            }
            let added = try await context.services.users.addUser(
                NewUser(username: username, email: email, firstName: changes.firstName ?? "",
                        lastName: changes.lastName ?? "", phone: changes.phone, role: changes.role ?? .user))
            try context.record(columns: UserRows.columns, row: UserRows.cells(added), options: output)
            context.note("added user \(added.id) (\(added.username)); set a password with: users passwd \(added.username)")
        }
    }

    /// `users update USER …`.
    struct Update: ShellCommand {
        static let operation: ShopOperation? = .updateUser
        static let configuration = CommandConfiguration(abstract: "Change a user's fields.")

        @Argument(help: ArgumentHelp("The user's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        @OptionGroup var fields: UserFieldOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let changes = try fields.changes
            guard changes != UserChanges() else {
                throw ShopError.usage("nothing to update: give at least one of --username, --email, --first-name, --last-name, --phone, --role")
            }
            let updated = try await context.services.users.updateUser(user, changes)
            try context.record(columns: UserRows.columns, row: UserRows.cells(updated), options: output)
            context.note("updated user \(updated.id) (\(updated.username))")
        }
    }
}

/// `users disable USER` and `users enable USER` share this.
private func setStatus(_ reference: String, _ status: UserStatus, context: CommandContext) async throws {
    let users = context.services.users
    let before = try await users.user(reference)
    guard before.status != status else {
        context.note("user \(UserRows.label(before)) is already \(status.rawValue)")
        return
    }
    let after = try await users.setUserStatus(String(before.id), status)
    context.note("\(status == .disabled ? "disabled" : "enabled") user \(UserRows.label(after))")
}

extension UsersCommand {
    /// `users disable USER`.
    struct Disable: ShellCommand {
        static let operation: ShopOperation? = .setUserStatus
        static let configuration = CommandConfiguration(abstract: "Disable a user (they can no longer order); enable undoes it.")

        @Argument(help: ArgumentHelp("The user's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        func run(in context: CommandContext) async throws {
            try await setStatus(user, .disabled, context: context)
        }
    }

    /// `users enable USER`.
    struct Enable: ShellCommand {
        static let operation: ShopOperation? = .setUserStatus
        static let configuration = CommandConfiguration(abstract: "Enable a disabled user.")

        @Argument(help: ArgumentHelp("The user's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        func run(in context: CommandContext) async throws {
            try await setStatus(user, .active, context: context)
        }
    }

    /// `users delete USER [--yes]`.
    struct Delete: ShellCommand {
        static let operation: ShopOperation? = .deleteUser
        static let configuration = CommandConfiguration(abstract: "Delete a user with their basket and favourites; their orders are kept.",
            discussion: "Asks for confirmation on a terminal; elsewhere (scripts, pipes) --yes is required.")

        @Argument(help: ArgumentHelp("The user's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run(in context: CommandContext) async throws {
            let users = context.services.users
            let target = try await users.user(user)
            if !yes {
                guard context.canAsk else {
                    throw ShopError.usage("users delete \(target.username): not on a terminal, so nothing to ask; add --yes to delete")
                }
                let lines = try await context.services.baskets.basket(String(target.id)).lines.count
                var favourites = 0
                try await context.services.favorites.listFavorites(String(target.id), page: Page()) { _ in favourites += 1 }
                guard try context.ask("delete user \(UserRows.label(target)): \(lines) basket line\(lines == 1 ? "" : "s"), \(favourites) favourite\(favourites == 1 ? "" : "s"); orders are kept?") else {
                    context.note("not deleted")
                    return
                }
            }
            let deleted = try await users.deleteUser(String(target.id))
            context.note("deleted user \(UserRows.label(deleted)) with their basket and favourites; their orders are kept")
        }
    }
}
