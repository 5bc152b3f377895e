// UsersCommand: the `users` plugin (being written).

import ArgumentParser
import ShellKit

/// The users plugin, as the executable registers it.
public let usersPlugin = ShellPlugin(UsersCommand.self)

/// `users`.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "users", abstract: "(being written)")
}
