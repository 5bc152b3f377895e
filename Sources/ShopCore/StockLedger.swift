// StockLedger: every movement of a product's stock, as the stores record it — when, who, the
// change, the balance after it, why, and the order when there is one — and the reasons a change
// may give. The stores write the rows themselves (triggers on the stock), so a change made
// outside shopsh is in the ledger too, as `outside`.

/// Why a product's stock moved.
public enum StockReason: String, CaseIterable, Hashable, Sendable {
    /// The stock a product came with (a new product, the store's first ledger row for it).
    case opening
    /// Taken by a checkout, given back by a cancel or a restocking return.
    case checkout, cancel, `return`
    /// Reasons an operator gives `products stock`.
    case damaged, recount, supplier, correction
    /// Bulk updates, imports and reverts.
    case update, `import`, revert
    /// A change made outside shopsh (psql, sqlite3).
    case outside

    /// The reasons an operator may give (`products stock --reason`).
    public static let operatorReasons: [StockReason] = [.damaged, .recount, .supplier, .correction]
}

/// Why the running command's product updates move stock, and a note: what the stock ledger
/// records for a change made through `updateProduct` or `applyProductChanges`.
public struct StockChangeNote: Sendable, Hashable {
    public var reason: StockReason
    public var note: String?

    public init(reason: StockReason, note: String? = nil) {
        self.reason = reason
        self.note = note
    }

    /// What the operator said of a bulk stock change (`products stock +N --category C --reason
    /// supplier --note …`), set around the command's updates; nil when they said nothing.
    @TaskLocal public static var current: StockChangeNote?

    /// The reason and note of a product update's stock change: a revert's when the command being
    /// run is `audit revert`, else the operator's (`current`), else an update's.
    public static var ofProductUpdate: StockChangeNote {
        if (AuditContext.current?.command ?? "").hasPrefix("audit revert") { return StockChangeNote(reason: .revert) }
        return current ?? StockChangeNote(reason: .update)
    }
}

/// One row of the stock ledger.
public struct StockMovement: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var productID: Int64
    public var at: String
    public var operatorName: String
    /// Units in (positive) or out (negative).
    public var change: Int64
    /// The stock after the movement.
    public var balance: Int64
    public var reason: String
    public var orderID: Int64?
    public var note: String?

    public init(id: Int64, productID: Int64, at: String, operatorName: String, change: Int64, balance: Int64,
                reason: String, orderID: Int64?, note: String?) {
        self.id = id
        self.productID = productID
        self.at = at
        self.operatorName = operatorName
        self.change = change
        self.balance = balance
        self.reason = reason
        self.orderID = orderID
        self.note = note
    }
}

extension Array where Element == StockMovement {
    /// The balance at the end of `day` (`YYYY-MM-DD`), from rows oldest first: the last row's
    /// balance on or before that day; before the first row, its balance less its change; nil when
    /// there are no rows.
    public func balance(atEndOf day: String) -> Int64? {
        if let last = last(where: { String($0.at.prefix(10)) <= day }) { return last.balance }
        guard let first else { return nil }
        let (before, overflow) = first.balance.subtractingReportingOverflow(first.change)
        return overflow ? nil : before
    }
}
