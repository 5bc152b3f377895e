// ShipmentService: shipping an order's units and delivering its parcels, as every
// store does it — one transaction each, the order's status following its shipments
// (ShipmentRules: shipped when no unit is left to ship, delivered when every parcel arrived, never
// backwards), one audit row each (`ship`, `deliver`).

/// The shipments of orders.
public protocol ShipmentService: Sendable {
    /// The order's shipments, oldest first, with their lines.
    func shipments(_ orderID: Int64) async throws -> [Shipment]
    /// Ships `lines` of the order (nil: every unit left to ship) with `carrier` and
    /// `trackingCode` (ShippingRules); refused as ShipmentRules.plan refuses.
    func ship(_ orderID: Int64, carrier: String, trackingCode: String, lines: [ShipmentLine]?) async throws -> Shipment
    /// Marks shipment `id` of the order delivered, or (nil) every shipment not delivered yet;
    /// returns the shipments it marked. Refused before anything shipped.
    func deliver(_ orderID: Int64, shipment id: Int64?) async throws -> [Shipment]
}

extension ShipmentRules {
    /// The shipments `deliver` marks: `id` (one of the order's, not delivered yet) or every one
    /// not delivered yet; one line when there is none.
    public static func toDeliver(_ order: Order, shipments: [Shipment], id: Int64?) throws(ShopError) -> [Shipment] {
        guard !shipments.isEmpty else {
            throw .conflict("order \(order.id) has not shipped yet: nothing to deliver (orders ship \(order.id) --carrier NAME --tracking CODE)")
        }
        if let id {
            guard let shipment = shipments.first(where: { $0.id == id }) else {
                throw .notFound("order \(order.id) has no shipment \(id) (it has \(shipments.map { String($0.id) }.joined(separator: ", ")))")
            }
            guard shipment.deliveredAt == nil else {
                throw .conflict("shipment \(id) of order \(order.id) was delivered on \(shipment.deliveredAt?.prefix(10) ?? "")")
            }
            return [shipment]
        }
        let open = shipments.filter { $0.deliveredAt == nil }
        guard !open.isEmpty else { throw .conflict("every shipment of order \(order.id) was delivered") }
        return open
    }
}

extension AuditChange {
    /// Units of order `orderID` shipped (`ship`) or a parcel delivered (`deliver`), with the
    /// order's status before and after.
    public static func shipment(_ shipment: Shipment, action: String, before: OrderStatus, after: OrderStatus) -> AuditChange {
        let lines = shipment.lines.map { "line \($0.lineNumber) × \($0.quantity)" }
        return AuditChange(entity: .order, entityID: String(shipment.orderID), action: action,
                           before: AuditFields([("status", .text(before.rawValue))]),
                           after: AuditFields([("status", .text(after.rawValue)), ("shipment", .integer(shipment.id)),
                                               ("carrier", .text(shipment.carrier)), ("tracking", .text(shipment.trackingCode)),
                                               ("lines", .list(lines))]))
    }
}
