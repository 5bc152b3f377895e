// SQLiteHistoryService: `HistoryService` on a SQLite store — the log's start from `shop_meta`,
// the stock ledger after a moment, and change signals from watching the audit log's last id
// every 50 ms (a cheap read of its primary key; other processes' commits show at once in WAL).

import GRDB
import ShopCore

/// `HistoryService` on a SQLite store.
struct SQLiteHistoryService: HistoryService {
    let database: DatabaseQueue

    /// The `shop_meta` key that holds from when the log answers.
    static let startKey = "history_since"
    /// How often a follower looks at the log's last id.
    static let pollInterval: Duration = .milliseconds(50)

    func historyStart() async throws -> String? {
        try database.shopRead { db in
            try String.fetchOne(db, sql: "SELECT value FROM shop_meta WHERE key = ?", arguments: [Self.startKey])
        }
    }

    func stockMovements(after moment: String) async throws -> [StockMovement] {
        try database.shopRead { db in
            try Row.fetchAll(db, sql: """
                SELECT id, product_id, at, operator, change, balance, reason, order_id, note
                FROM stock_ledger WHERE at > ? ORDER BY id
                """, arguments: [moment]).map(SQLiteProductService.movement)
        }
    }

    func lastAuditID() async throws -> Int64 {
        try database.shopRead { db in try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM audit_log") ?? 0 }
    }

    func changeSignals() -> AsyncThrowingStream<ChangeSignal, any Error> {
        let service = self
        return ChangeSignal.stream { continuation in
            var last = try await service.lastAuditID()
            while !Task.isCancelled {
                try await Task.sleep(for: Self.pollInterval)
                let now = try await service.lastAuditID()
                if now != last {
                    continuation.yield(.changed(from: now > last ? last + 1 : nil))
                    last = now
                }
            }
        }
    }
}
