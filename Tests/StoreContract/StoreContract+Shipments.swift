// StoreContract+Shipments: an order's parcels — 2 of 5 units
// ship, then the rest: paid stays paid, then shipped; delivering every parcel delivers the order;
// deliver before ship, more units than are left, a placed order and a cancel after a shipment are
// refused with nothing changed; each ship and deliver one audit row.

import ShopCore
import Testing

extension StoreContract {
    /// `ShipmentService`.
    public static func shipments(_ fixture: some StoreFixture) async {
        await run("shipments", fixture, [
            Case("two of five units, then the rest: shipped, then delivered", partialShipments),
            Case("what cannot ship or be delivered changes nothing", shipmentsRefused),
        ])
    }

    /// A paid order of 5 MUG and 1 PEN.
    static func paidOrder(_ shop: ShopServices) async throws -> Order {
        try await ContractData.addProduct(shop, sku: "MUG", stock: 10)
        try await ContractData.addProduct(shop, sku: "PEN", stock: 10)
        try await ContractData.addUser(shop, "ada")
        let order = try await ContractData.placeOrder(shop, "ada", [("MUG", 5), ("PEN", 1)])
        return try await shop.orders.setOrderStatus(order.id, .paid)
    }

    static func partialShipments(_ shop: ShopServices) async throws {
        let order = try await paidOrder(shop)
        let first = try await shop.shipments.ship(order.id, carrier: "DHL", trackingCode: "00340434161094015902",
                                                  lines: [ShipmentLine(lineNumber: 1, quantity: 2)])
        #expect(first.carrier == "dhl" && first.lines == [ShipmentLine(lineNumber: 1, quantity: 2)] && first.deliveredAt == nil)
        #expect(try await shop.orders.order(order.id).status == .paid)
        let rest = try await shop.shipments.ship(order.id, carrier: "ups", trackingCode: "1z 999 aa1 01 2345 6784", lines: nil)
        #expect(rest.lines == [ShipmentLine(lineNumber: 1, quantity: 3), ShipmentLine(lineNumber: 2, quantity: 1)])
        #expect(rest.trackingCode == "1Z999AA10123456784")
        #expect(try await shop.orders.order(order.id).status == .shipped)
        #expect(try await shop.shipments.shipments(order.id).map(\.id) == [first.id, rest.id])
        // Delivering one parcel leaves the order shipped; the other delivers it.
        #expect(try await shop.shipments.deliver(order.id, shipment: first.id).map(\.id) == [first.id])
        #expect(try await shop.orders.order(order.id).status == .shipped)
        #expect(try await shop.shipments.deliver(order.id, shipment: nil).map(\.id) == [rest.id])
        #expect(try await shop.orders.order(order.id).status == .delivered)
        #expect(try await shop.shipments.shipments(order.id).allSatisfy { $0.deliveredAt != nil })
        let rows = try await auditEntries(shop, AuditFilter(entity: .order, entityID: String(order.id)))
            .filter { $0.action == "ship" || $0.action == "deliver" }.sorted { $0.id < $1.id }
        #expect(rows.map(\.action) == ["ship", "ship", "deliver", "deliver"], "\(rows)")
        #expect(rows[1].after?["status"] == .text("shipped") && rows[3].after?["status"] == .text("delivered"))
    }

    static func shipmentsRefused(_ shop: ShopServices) async throws {
        let order = try await paidOrder(shop)
        try await expectRefused(.conflict, shop) { try await shop.shipments.deliver(order.id, shipment: nil) }
        try await expectRefused(.conflict, shop) {
            try await shop.shipments.ship(order.id, carrier: "dhl", trackingCode: "ABCD1234", lines: [ShipmentLine(lineNumber: 1, quantity: 6)])
        }
        try await expectRefused(.invalidInput, shop) {
            try await shop.shipments.ship(order.id, carrier: "dhl", trackingCode: "ABCD1234", lines: [ShipmentLine(lineNumber: 3, quantity: 1)])
        }
        try await expectRefused(.invalidInput, shop) { try await shop.shipments.ship(order.id, carrier: "dhl", trackingCode: "x", lines: nil) }
        try await expectRefused(.invalidInput, shop) { try await shop.shipments.ship(order.id, carrier: " ", trackingCode: "ABCD1234", lines: nil) }
        try await expectRefused(.notFound, shop) { try await shop.shipments.ship(order.id + 100, carrier: "dhl", trackingCode: "ABCD1234", lines: nil) }
        // After a parcel left: no cancel.
        _ = try await shop.shipments.ship(order.id, carrier: "dhl", trackingCode: "ABCD1234", lines: [ShipmentLine(lineNumber: 2, quantity: 1)])
        let error = try await expectRefused(.conflict, shop) { try await shop.orders.setOrderStatus(order.id, .cancelled) }
        #expect(error?.message.contains("shipment") == true, "\(String(describing: error))")
        // A placed order does not ship.
        _ = try await shop.baskets.addToBasket("ada", product: "PEN", quantity: 1)
        let placed = try await shop.baskets.checkout("ada")
        try await expectRefused(.conflict, shop) { try await shop.shipments.ship(placed.id, carrier: "dhl", trackingCode: "ABCD1234", lines: nil) }
    }
}
