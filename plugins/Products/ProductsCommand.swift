// ProductsCommand: the `products` plugin: the catalogue (list, show, search, categories, add,
// update, delete, stock, import).

import ArgumentParser
import ShellKit

/// The products plugin, as the executable registers it.
public let productsPlugin = ShellPlugin(ProductsCommand.self)

/// `products`: the catalogue.
struct ProductsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Browse and edit the catalogue.",
        subcommands: [List.self, Show.self, Search.self, Categories.self,
                      Add.self, Update.self, Delete.self, Stock.self, StockHistory.self,
                      Import.self, Top.self])
}
