// UsersCommand: the `users` plugin: customers and staff (list, show, add, update, disable,
// enable, passwd, check-password, delete, top) and customers' saved addresses (address). Passwords are never arguments, never printed.

import ArgumentParser
import ShellKit

/// The users plugin, as the executable registers it.
public let usersPlugin = ShellPlugin(UsersCommand.self)

/// `users`: customers and staff.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Look up and manage customers and staff.",
        discussion: "USER is an id, a username or an email (case-insensitive).",
        subcommands: [List.self, Show.self, Add.self, Update.self, Disable.self,
                      Enable.self, Passwd.self, CheckPassword.self, Delete.self, Top.self, Address.self, Note.self])
}
