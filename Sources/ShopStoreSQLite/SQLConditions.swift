// SQLConditions: one WHERE condition of a listing's filter, added only when the filter sets it
// (the listings of products, users, orders and the audit log build their clauses with it).

import GRDB

enum SQLConditions {
    /// Appends `condition` and its one `?` argument `value` when `value` is set.
    static func add(_ condition: String, _ value: (any DatabaseValueConvertible)?,
                    to conditions: inout [String], _ arguments: inout [any DatabaseValueConvertible]) {
        guard let value else { return }
        conditions.append(condition)
        arguments.append(value)
    }
}
