// FavoritesCommand: the `favorites` plugin (being written).

import ArgumentParser
import ShellKit

/// The favorites plugin, as the executable registers it.
public let favoritesPlugin = ShellPlugin(FavoritesCommand.self)

/// `favorites`.
struct FavoritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorites", abstract: "(being written)")
}
