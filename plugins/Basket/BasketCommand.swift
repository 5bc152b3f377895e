// BasketCommand: the `basket` plugin (being written).

import ArgumentParser
import ShellKit

/// The basket plugin, as the executable registers it.
public let basketPlugin = ShellPlugin(BasketCommand.self)

/// `basket`.
struct BasketCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "basket", abstract: "(being written)")
}
