// CurrencyCommand: the `currency` plugin (being written).

import ArgumentParser
import ShellKit

/// The currency plugin, as the executable registers it.
public let currencyPlugin = ShellPlugin(CurrencyCommand.self)

/// `currency`.
struct CurrencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "currency", abstract: "(being written)")
}
