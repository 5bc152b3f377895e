// AuditRows: the one place where audit entries become output columns and cells.

import ShopCore
import ShopOutput

enum AuditRows {
    static let columns = ["id", "time", "operator", "role", "entity", "entity_id", "action", "changes", "command", "before", "after",
                          "change_set"]
        .map(Column.init)

    /// `changes` is the before → after summary; `before` and `after` are the changed fields as
    /// JSON objects (null when the entity did not exist before, or no longer exists).
    static func cells(_ entry: AuditEntry) -> [Cell] {
        [.integer(entry.id), .text(entry.time), .text(entry.operatorName), .text(entry.role), .text(entry.entity),
         .text(entry.entityID), .text(entry.action), .text(entry.summary), .text(entry.command),
         object(entry.before), object(entry.after), entry.changeSet.map(Cell.integer) ?? .null]
    }

    /// What a table of audit rows shows for people: when, who, what, and the change.
    static let tableView = TableView(["id", "time", "operator", "entity", "entity_id", "action", "changes", "command", "change_set"],
                                     optional: ["command", "entity_id", "change_set"])

    /// Sortable fields of `audit list` (they match the stores').
    static var sortFields: [String] { AuditListing.sortColumns.keys.sorted() }

    private static func object(_ fields: AuditFields?) -> Cell {
        guard let fields else { return .null }
        return .object(fields.fields.map { CellField($0.name, cell($0.value)) })
    }

    private static func cell(_ value: AuditValue) -> Cell {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .text(let text): return .text(text)
        case .bool(let flag): return .bool(flag)
        case .list(let items): return .list(items)
        }
    }
}
