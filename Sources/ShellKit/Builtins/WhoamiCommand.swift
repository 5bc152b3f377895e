// WhoamiCommand: `whoami`: the operator at the shell (the PostgreSQL role that logged in, or the
// OS login on SQLite), their shopsh role, and whether the session may write.

import ArgumentParser
import ShopCore
import ShopOutput

/// `whoami`.
struct WhoamiCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the operator, their role (viewer, support, admin) and whether the session is read-only.")

    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let identity = context.session.identity
        let columns = ["operator", "role", "read_only", "read_only_reason", "store"].map(Column.init)
        try context.record(columns: columns,
                           row: [.text(identity.name), .text(identity.role.rawValue), .bool(identity.isReadOnly),
                                 identity.readOnlyReason.map(Cell.text) ?? .null, .text(context.session.storeName)],
                           options: output)
    }
}
