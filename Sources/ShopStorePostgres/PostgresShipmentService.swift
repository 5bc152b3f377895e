// PostgresShipmentService: ShipmentService on PostgreSQL — the
// client reads the order and its parcels and checks with ShipmentRules (so that a refusal is in
// ShopCore's words), then the server ships or delivers (`shopsh_ship`, `shopsh_deliver`: the same
// rules again under the order's lock, the status moved, one audit row each).

import Logging
import PostgresNIO
import ShopCore

struct PostgresShipmentService: ShipmentService {
    let database: PostgresDatabase

    func shipments(_ orderID: Int64) async throws -> [Shipment] {
        try await database.read("reading shipments") { connection in
            _ = try await PostgresOrderService.find(connection, orderID, addresses: database.orderAddressesSource, logger: database.logger)
            return try await Self.all(connection, orderID, logger: database.logger)
        }
    }

    func ship(_ orderID: Int64, carrier: String, trackingCode: String, lines: [ShipmentLine]?) async throws -> Shipment {
        let carrier = try ShippingRules.carrier(carrier)
        let code = try ShippingRules.trackingCode(trackingCode)
        return try await database.write(.shipOrder, action: "ship") { connection in
            let logger = database.logger
            let order = try await PostgresOrderService.find(connection, orderID, addresses: database.orderAddressesSource, logger: logger)
            let plan = try ShipmentRules.plan(order, shipments: try await Self.all(connection, orderID, logger: logger), requested: lines)
            let numbers = plan.map { Int32($0.lineNumber) }, quantities = plan.map { Int32($0.quantity) }
            var id: Int64?
            for try await shipped in try await connection.query(
                "SELECT shopsh_ship(\(orderID), \(carrier), \(code), \(numbers), \(quantities))", logger: logger
            ).decode(Int64.self) {
                id = shipped
            }
            guard let id, let shipment = try await Self.all(connection, orderID, logger: logger).first(where: { $0.id == id }) else {
                throw ShopError.storage("shipping order \(orderID): the server made no shipment")
            }
            return shipment
        }
    }

    func deliver(_ orderID: Int64, shipment id: Int64?) async throws -> [Shipment] {
        try await database.write(.shipOrder, action: "deliver") { connection in
            let logger = database.logger
            let order = try await PostgresOrderService.find(connection, orderID, addresses: database.orderAddressesSource, logger: logger)
            let marked = try ShipmentRules.toDeliver(order, shipments: try await Self.all(connection, orderID, logger: logger), id: id)
            _ = try await connection.query("SELECT shopsh_deliver(\(orderID), \(id))", logger: logger).collect()
            let ids = Set(marked.map(\.id))
            return try await Self.all(connection, orderID, logger: logger).filter { ids.contains($0.id) }
        }
    }

    // MARK: - Rows

    static func all(_ connection: PostgresConnection, _ orderID: Int64, logger: Logger) async throws -> [Shipment] {
        var lines: [Int64: [ShipmentLine]] = [:]
        for try await row in try await connection.query("""
            SELECT l.shipment_id, l.line_number, l.quantity FROM shipment_lines l JOIN shipments s ON s.id = l.shipment_id
            WHERE s.order_id = \(orderID) ORDER BY l.shipment_id, l.line_number
            """, logger: logger).decode((Int64, Int, Int).self) {
            lines[row.0, default: []].append(ShipmentLine(lineNumber: row.1, quantity: row.2))
        }
        var shipments: [Shipment] = []
        for try await row in try await connection.query("""
            SELECT id, carrier, tracking_code, floor(extract(epoch FROM shipped_at))::bigint,
                   floor(extract(epoch FROM delivered_at))::bigint
            FROM shipments WHERE order_id = \(orderID) ORDER BY id
            """, logger: logger).decode((Int64, String, String, Int64, Int64?).self) {
            shipments.append(Shipment(id: row.0, orderID: orderID, carrier: row.1, trackingCode: row.2,
                                      shippedAt: ShopClock.timestamp(row.3), deliveredAt: row.4.map(ShopClock.timestamp),
                                      lines: lines[row.0] ?? []))
        }
        return shipments
    }
}
