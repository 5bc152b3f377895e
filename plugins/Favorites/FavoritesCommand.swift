// FavoritesCommand: the `favorites` plugin: what customers like (list, add, remove, toggle, top).

import ArgumentParser
import ShellKit

/// The favorites plugin, as the executable registers it.
public let favoritesPlugin = ShellPlugin(FavoritesCommand.self)

/// `favorites`: customers' favourite products.
struct FavoritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorites",
        abstract: "Customers' favourite products.",
        discussion: "USER is an id, username or email (may be left out after `use USER`); PRODUCT is an id or SKU.",
        subcommands: [List.self, Add.self, Remove.self, Toggle.self, Top.self])
}
