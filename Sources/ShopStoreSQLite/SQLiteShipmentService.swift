// SQLiteShipmentService: ShipmentService on SQLite — shipments
// and their lines in `shipments` / `shipment_lines` (Schema v10); each call one transaction that
// reads the order, plans with ShipmentRules, writes, moves the status and records one audit row.

import GRDB
import ShopCore

struct SQLiteShipmentService: ShipmentService {
    let database: DatabaseQueue
    let clock: ShopClock

    func shipments(_ orderID: Int64) async throws -> [Shipment] {
        try database.shopRead { db in
            _ = try SQLiteOrderService.find(db, orderID)
            return try Self.all(db, orderID)
        }
    }

    func ship(_ orderID: Int64, carrier: String, trackingCode: String, lines: [ShipmentLine]?) async throws -> Shipment {
        let carrier = try ShippingRules.carrier(carrier)
        let code = try ShippingRules.trackingCode(trackingCode)
        let now = clock.timestamp()
        return try database.shopWrite { db in
            let order = try SQLiteOrderService.find(db, orderID)
            let existing = try Self.all(db, orderID)
            let plan = try ShipmentRules.plan(order, shipments: existing, requested: lines)
            try db.execute(sql: """
                INSERT INTO shipments (order_id, carrier, tracking_code, shipped_at, operator) VALUES (?, ?, ?, ?, ?)
                """, arguments: [orderID, carrier, code, now, SQLiteOrderService.operatorName])
            let id = db.lastInsertedRowID
            for line in plan {
                try db.execute(sql: "INSERT INTO shipment_lines (shipment_id, line_number, quantity) VALUES (?, ?, ?)",
                               arguments: [id, line.lineNumber, line.quantity])
            }
            let shipments = try Self.all(db, orderID)
            let status = try Self.follow(db, order, shipments, at: now)
            guard let shipment = shipments.last else { throw ShopError.storage("shipping order \(orderID): the shipment is gone") }
            try SQLiteAuditLog.record(.shipment(shipment, action: "ship", before: order.status, after: status), in: db, at: now)
            return shipment
        }
    }

    func deliver(_ orderID: Int64, shipment id: Int64?) async throws -> [Shipment] {
        let now = clock.timestamp()
        return try database.shopWrite { db in
            let order = try SQLiteOrderService.find(db, orderID)
            let marked = try ShipmentRules.toDeliver(order, shipments: try Self.all(db, orderID), id: id)
            for shipment in marked {
                try db.execute(sql: "UPDATE shipments SET delivered_at = ? WHERE id = ?", arguments: [now, shipment.id])
            }
            let shipments = try Self.all(db, orderID)
            let status = try Self.follow(db, order, shipments, at: now)
            let delivered = shipments.filter { shipment in marked.contains { $0.id == shipment.id } }
            for shipment in delivered {
                try SQLiteAuditLog.record(.shipment(shipment, action: "deliver", before: order.status, after: status), in: db, at: now)
            }
            return delivered
        }
    }

    // MARK: - Rows

    /// Moves the order to the status its shipments give it (ShipmentRules.status); returns it.
    static func follow(_ db: Database, _ order: Order, _ shipments: [Shipment], at now: String) throws -> OrderStatus {
        let status = ShipmentRules.status(of: order, shipments: shipments)
        if status != order.status {
            try db.execute(sql: "UPDATE orders SET status = ?, updated_at = ? WHERE id = ?", arguments: [status.rawValue, now, order.id])
        }
        return status
    }

    static func all(_ db: Database, _ orderID: Int64) throws -> [Shipment] {
        var lines: [Int64: [ShipmentLine]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT l.shipment_id, l.line_number, l.quantity FROM shipment_lines l JOIN shipments s ON s.id = l.shipment_id
            WHERE s.order_id = ? ORDER BY l.shipment_id, l.line_number
            """, arguments: [orderID]) {
            lines[row[0], default: []].append(ShipmentLine(lineNumber: row[1], quantity: row[2]))
        }
        return try Row.fetchAll(db, sql: """
            SELECT id, carrier, tracking_code, shipped_at, delivered_at FROM shipments WHERE order_id = ? ORDER BY id
            """, arguments: [orderID]).map { row in
            Shipment(id: row[0], orderID: orderID, carrier: row[1], trackingCode: row[2], shippedAt: row[3], deliveredAt: row[4],
                     lines: lines[row[0]] ?? [])
        }
    }
}
