// AuditLog: the audit rows a store keeps, the filter of `audit list`, the service that reads them,
// and the context (operator, command and its id) the shell sets around each command for the store to record.

import Synchronization

/// One row of the audit log: who changed what, when, by which command, from what to what.
public struct AuditEntry: Hashable, Sendable, Identifiable {
    public var id: Int64
    /// When, in UTC: `2026-11-23T05:31:02Z`.
    public var time: String
    /// The database role (PostgreSQL) or OS login (SQLite) that made the change.
    public var operatorName: String
    /// The operator's role then (`viewer`, `support` or `admin`; the store's owner is an admin; `none` for a PostgreSQL login with no shopsh role).
    public var role: String
    /// The command as typed, secrets replaced by `***`; empty when the change came from elsewhere.
    public var command: String
    public var entity: String
    public var entityID: String
    public var action: String
    public var before: AuditFields?
    public var after: AuditFields?
    /// The change set: the rows one transaction wrote share it (a bulk change, an `--atomic` run);
    /// nil for rows written before change sets were recorded.
    public var changeSet: Int64?

    public init(id: Int64, time: String, operatorName: String, role: String, command: String, entity: String,
                entityID: String, action: String, before: AuditFields?, after: AuditFields?, changeSet: Int64? = nil) {
        self.id = id
        self.time = time
        self.operatorName = operatorName
        self.role = role
        self.command = command
        self.entity = entity
        self.entityID = entityID
        self.action = action
        self.before = before
        self.after = after
        self.changeSet = changeSet
    }

    /// The change as one line: `product: 113, quantity: 3 → 2` (a field the same on both sides is
    /// shown once; `—` stands for a side that does not exist).
    public var summary: String {
        var names: [String] = []
        for (name, _) in (before?.fields ?? []) + (after?.fields ?? []) where !names.contains(name) { names.append(name) }
        return names.map { name in
            let old = before?[name], new = after?[name]
            if old == new, let old { return "\(name): \(old.summary)" }
            return "\(name): \(old?.summary ?? "—") → \(new?.summary ?? "—")"
        }.joined(separator: ", ")
    }

    /// The entry as a viewer sees it: emails and phones in the changed fields masked, and an
    /// address's name, street lines and postal code as `PersonalDataMask.address` masks them.
    public var maskedForViewer: AuditEntry {
        let isAddress = entity == AuditEntity.user.rawValue && action.hasPrefix("address ")
        func mask(_ fields: AuditFields?) -> AuditFields? {
            guard var fields else { return nil }
            fields.fields = fields.fields.map { name, value in
                guard case .text(let text) = value else { return (name, value) }
                switch name {
                case "email": return (name, .text(PersonalDataMask.email(text)))
                case "phone": return (name, .text(PersonalDataMask.phone(text)))
                case "line1", "line2" where isAddress: return (name, .text(PersonalDataMask.hidden(text)))
                case "name", "postal_code" where isAddress: return (name, .text(PersonalDataMask.initial(text)))
                default: return (name, value)
                }
            }
            return fields
        }
        var masked = self
        masked.command = PersonalDataMask.command(command, entity: entity)
        masked.before = mask(before)
        masked.after = mask(after)
        return masked
    }
}

/// Which audit rows `audit list` shows. Times are UTC timestamps, inclusive.
public struct AuditFilter: Hashable, Sendable {
    public var operatorName: String?
    public var entity: AuditEntity?
    public var entityID: String?
    /// The first moment, `2026-11-23T00:00:00Z`.
    public var since: String?
    /// The last moment, `2026-11-23T23:59:59Z`.
    public var until: String?
    /// Only the rows of this change set.
    public var changeSet: Int64?
    /// Only rows with a greater id (what a follower has not read yet).
    public var afterID: Int64?

    public init(operatorName: String? = nil, entity: AuditEntity? = nil, entityID: String? = nil,
                since: String? = nil, until: String? = nil, changeSet: Int64? = nil, afterID: Int64? = nil) {
        self.afterID = afterID
        self.operatorName = operatorName
        self.entity = entity
        self.entityID = entityID
        self.since = since
        self.until = until
        self.changeSet = changeSet
    }

    /// `--since`/`--until` as typed (a day `2026-11-23` or a moment `2026-11-23T05:31:02Z`) as the
    /// first or last moment they mean; a day for `--until` means up to its last second.
    public static func moment(_ text: String, for name: String, endOfDay: Bool) throws(ShopError) -> String {
        if let seconds = ShopClock.parse(text) { return ShopClock.timestamp(seconds) }
        let day = try CalendarDay.validate(text, for: name, typed: true)
        return day.description + (endOfDay ? "T23:59:59Z" : "T00:00:00Z")
    }
}

/// Reads the audit log. Writing it is each store's own business, in the transaction of the change.
public protocol AuditService: Sendable {
    /// The rows matching `filter`, newest first, a page of them.
    func listAudit(_ filter: AuditFilter, page: Page, _ body: (AuditEntry) throws -> Void) async throws
    /// One row; `.notFound` when there is none with that id.
    func auditEntry(_ id: Int64) async throws -> AuditEntry
    /// The operators who appear in the log, sorted (for completion).
    func auditOperators() async throws -> [String]
}

/// What the shell tells the store about the command being run, for its audit rows. Set with
/// `AuditContext.$current.withValue(…)` around a command; stores read `AuditContext.current`.
public struct AuditContext: Sendable {
    /// The command as typed, with secrets replaced by `***`.
    public var command: String
    /// The operator, as the store identified them.
    public var operatorIdentity: OperatorIdentity

    /// The command's own id, random, made once per command: a store keeps it with each change
    /// the command commits, so that after a broken COMMIT it can say whether the change was kept.
    public let commandID: CommandID
    /// Hands out the steps of the command's transactions (1, 2, …).
    private let steps: CommandSteps

    public init(command: String, operatorIdentity: OperatorIdentity) {
        self.command = command
        self.operatorIdentity = operatorIdentity
        self.commandID = CommandID.random()
        self.steps = CommandSteps()
    }

    /// The receipt of the command's next transaction: its id and the transaction's step in it.
    public func nextReceipt() -> CommandReceipt {
        CommandReceipt(commandID: commandID, step: steps.next())
    }

    /// The command being run; nil outside the shell (tests, `shopsh init`).
    @TaskLocal public static var current: AuditContext?
}

/// What every store's audit listing shares: its sort fields and its not-found line.
public enum AuditListing {
    /// `--sort` fields of `audit list` and the column each sorts on (the same in every store).
    public static let sortColumns = ["id": "id", "time": "at", "operator": "operator", "entity": "entity", "action": "action",
                                     "change_set": "change_set"]

    /// `no audit entry 12`.
    public static func notFound(_ id: Int64) -> ShopError { .notFound("no audit entry \(id)") }
}

/// What a store keeps with a change, in its transaction, to answer later whether it was kept:
/// the command's id and the transaction's step in that command.
public struct CommandReceipt: Sendable, Equatable {
    public var commandID: CommandID
    public var step: Int32

    public init(commandID: CommandID, step: Int32) {
        self.commandID = commandID
        self.step = step
    }

    /// The receipt of a transaction in the command being run, or of a change made outside the
    /// shell (a receipt of its own).
    public static func next() -> CommandReceipt {
        AuditContext.current?.nextReceipt() ?? CommandReceipt(commandID: .random(), step: 1)
    }
}

/// A command's transaction counter (a command runs its transactions one after another; the lock
/// only keeps a stray concurrent one from taking the same step).
private final class CommandSteps: Sendable {
    private let last = Mutex<Int32>(0)

    func next() -> Int32 {
        last.withLock { value in
            value = value < Int32.max ? value + 1 : value
            return value
        }
    }
}

/// A command's id: 128 random bits (from the system's CSPRNG), written as a UUID
/// (`6f1c…-…`, version 4) so stores can keep it in their UUID type.
public struct CommandID: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    /// A new id: version 4, variant 1, like any random UUID.
    public static func random() -> CommandID {
        var generator = SystemRandomNumberGenerator()
        let high = (generator.next() as UInt64) & ~0xF000 | 0x4000
        let low = (generator.next() as UInt64) & ~(0xC000_0000_0000_0000 as UInt64) | 0x8000_0000_0000_0000
        return CommandID(high: high, low: low)
    }

    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, lower case.
    public var description: String {
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let h = hex(high, 16), l = hex(low, 16)
        return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
    }
}
