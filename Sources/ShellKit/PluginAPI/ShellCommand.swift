// ShellCommand and ShellPlugin: how a plugin's commands plug into the shell.

import ArgumentParser
import ShopCore

/// A command the shell can run: parsed by swift-argument-parser, run with a context.
///
/// Commands never print: they hand rows to `context` (which renders them in the chosen format)
/// and notes to `context.note`.
public protocol ShellCommand: ParsableCommand {
    func run(in context: CommandContext) async throws

    /// The change this command makes, for a command that changes the shop; nil (the default)
    /// for one that only reads. Its least role (ShopOperation's table) decides: the shell refuses
    /// a command the operator's role or a read-only session may not run before it starts; the
    /// store refuses it again on its own.
    static var operation: ShopOperation? { get }

    /// The change this invocation makes: `operation`, unless a command that also reads decides
    /// per invocation (`users address USER list` changes nothing, so any role may run it).
    var invocationOperation: ShopOperation? { get }
}

extension ShellCommand {
    public static var operation: ShopOperation? { nil }

    public var invocationOperation: ShopOperation? { Self.operation }

    /// The least role that may run this command (nil: any role, for a command that only reads).
    public static var neededRole: OperatorRole? { operation?.leastRole }
}

/// A plugin: one noun of the shell (`products`, `basket`, …) with its subcommands.
///
/// A plugin module exports one of these; the executable lists them. The root command's name
/// (kebab case of the type, or `configuration.commandName`) is what the operator types.
public struct ShellPlugin: Sendable {
    public let command: any ParsableCommand.Type

    public init(_ command: any ParsableCommand.Type) {
        self.command = command
    }

    /// The word that selects this plugin.
    public var name: String { command.shellName }
    /// The one-line summary shown by `help`.
    public var summary: String { command.configuration.abstract }
}
