// AuditCommand: the `audit` plugin: who changed what, when, by which command, from what to what
// (list with filters, show one entry, revert one or a change set: RevertCommand). The rows are written by the stores, in each change's
// own transaction; nobody but the store's owner can alter them.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// The audit plugin, as the executable registers it.
public let auditPlugin = ShellPlugin(AuditCommand.self)

/// `audit`.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Who changed what, when, with which command: the shop's audit log.",
        discussion: """
            Every change (baskets, favourites, orders, products, users, passwords, rate imports) writes one \
            audit row in the same transaction: the time (UTC), the operator (the PostgreSQL role that logged \
            in, or the OS login on SQLite), their role, the command as typed (secrets as ***), the entity \
            and its id, the action, and the changed fields before and after. A command that fails, an \
            --atomic run that fails and a --dry-run leave no rows.
            """,
        subcommands: [List.self, Show.self, Revert.self])
}

extension AuditCommand {
    /// `audit list`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List audit entries, newest first.",
            discussion: """
                --id takes the entity's id; for baskets, favourites and users a USER (id, username or email) \
                works too, and for products a SKU. Sortable by \(AuditRows.sortFields.joined(separator: ", ")).
                """)

        @Option(name: .customLong("operator"), help: ArgumentHelp("Only changes by this operator.", valueName: "name"),
                completion: .shop(.auditOperator))
        var operatorName: String?

        @Option(help: ArgumentHelp("Only changes of this kind of entity: \(AuditEntity.choices).", valueName: "entity"))
        var entity: AuditEntity?

        @Option(help: ArgumentHelp("Only changes of the entity with this id (with --entity, or any entity).", valueName: "id"))
        var id: String?

        @Option(help: ArgumentHelp("Only changes at or after this day or moment (UTC).", valueName: "YYYY-MM-DD[THH:MM:SSZ]"))
        var since: String?

        @Option(help: ArgumentHelp("Only changes at or before this day (the whole day) or moment (UTC).", valueName: "YYYY-MM-DD[THH:MM:SSZ]"))
        var until: String?

        @Option(name: .customLong("change-set"), help: ArgumentHelp("Only the changes of this change set (one transaction's, e.g. a bulk update's).", valueName: "N"))
        var changeSet: Int64?

        @Flag(help: "Then print each new entry that matches as it is written (at psql too), until Ctrl-C.")
        var follow = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            if follow { try FollowOutput.checkFormat(context.format(output), streamsRows: true) }
            let lastSeen = follow ? try await context.services.history.lastAuditID() : 0
            var filter = AuditFilter(operatorName: try SelectionText.check(operatorName, for: "--operator"), changeSet: changeSet)
            filter.entity = entity
            filter.since = try since.map { text throws(ShopError) in try AuditFilter.moment(text, for: "--since", endOfDay: false) }
            filter.until = try until.map { text throws(ShopError) in try AuditFilter.moment(text, for: "--until", endOfDay: true) }
            if let first = filter.since, let last = filter.until, first > last {
                throw ShopError.invalidInput("--since \(first) is after --until \(last)")
            }
            if let id = try SelectionText.check(id, for: "--id") { filter.entityID = try await entityID(id, of: filter.entity, services: context.services) }
            let page = try context.page(paging)
            try await context.list(columns: AuditRows.columns, tableView: AuditRows.tableView, options: output, page: page,
                                   emptyNote: "no audit entries match") { emit in
                try await context.services.audit.listAudit(filter, page: page) { entry in try emit(AuditRows.cells(entry)) }
            }
            guard follow else { return }
            let stream = try FollowOutput(columns: AuditRows.columns, options: output, context: context)
            try await AuditFollower.follow(after: lastSeen, filter: filter, context: context) { entries in
                for entry in entries {
                    try stream.emit(row: AuditRows.cells(entry),
                                    line: "#\(entry.id)  \(entry.time)  \(entry.operatorName)  \(entry.entity) \(entry.entityID) \(entry.action)  \(entry.summary)")
                }
                try stream.flush()
            }
        }

        /// The stored id `text` names: digits are an id already; otherwise a USER (baskets,
        /// favourites, users) or a SKU (products), resolved as every other command resolves them.
        private func entityID(_ text: String, of entity: AuditEntity?, services: ShopServices) async throws -> String {
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return text }
            switch entity {
            case .product: return String(try await services.products.product(text).id)
            case .basket, .favourite, .user, nil: return String(try await services.users.user(text).id)
            case .order: throw ShopError.invalidInput("order ids are numbers: \(text.quotedForMessage()) is not one")
            case .currency, .coupon: return text.uppercased()
            }
        }
    }

    /// `audit show ID`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show one audit entry with its fields before and after.")

        @Argument(help: "The entry's id (see audit list).")
        var id: String

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            guard let number = Int64(id), number > 0 else {
                throw ShopError.invalidInput("an audit entry id is a whole number from 1: \(id.quotedForMessage()) is not one")
            }
            let entry = try await context.services.audit.auditEntry(number)
            try context.record(columns: AuditRows.columns, row: AuditRows.cells(entry), options: output)
        }
    }
}
