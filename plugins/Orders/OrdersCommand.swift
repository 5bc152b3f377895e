// OrdersCommand: the `orders` plugin (being written).

import ArgumentParser
import ShellKit

/// The orders plugin, as the executable registers it.
public let ordersPlugin = ShellPlugin(OrdersCommand.self)

/// `orders`.
struct OrdersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orders", abstract: "(being written)")
}
