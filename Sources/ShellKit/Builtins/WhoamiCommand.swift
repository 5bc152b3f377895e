// WhoamiCommand: `whoami`: the operator at the shell (the PostgreSQL role that logged in, or the
// OS login on SQLite), their shopsh role, whether the session may write, and on a server which
// host serves it, whether that is the primary or a standby, and a standby's replay lag.

import ArgumentParser
import ShopCore
import ShopOutput

/// `whoami`.
struct WhoamiCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the operator, their role (viewer, support, admin), whether the session is read-only, and which server serves it.")

    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) async throws {
        let identity = context.session.identity
        let placement = await context.session.placement?.status()
        let columns = ["operator", "role", "read_only", "read_only_reason", "store", "server", "server_role",
                       "replay_lag_seconds"].map(Column.init)
        try context.record(columns: columns,
                           row: [.text(identity.name), .text(identity.role.rawValue), .bool(identity.isReadOnly),
                                 identity.readOnlyReason.map(Cell.text) ?? .null, .text(context.session.storeName),
                                 placement.map { .text($0.host) } ?? .null, placement.map { .text($0.kind) } ?? .null,
                                 placement?.replayLag.map { .decimal(Self.seconds($0)) } ?? .null],
                           options: output)
    }

    /// `lag` in seconds, to the millisecond.
    static func seconds(_ lag: Duration) -> ExactDecimal {
        let (seconds, attoseconds) = lag.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return ExactDecimal(units: Int64.max, scale: 3) }
        let (total, overflow) = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return ExactDecimal(units: overflow ? Int64.max : total, scale: 3)
    }
}
