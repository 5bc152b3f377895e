// Shipment: a parcel that left with some units of an order's lines — its carrier, tracking code
// and dates — and the rules that keep shipments and an order's status in step: units ship at
// most once, an order is shipped when every unit (not returned before shipping) has, delivered
// when every shipment is, and nothing moves back.

/// Units of one order line in a shipment.
public struct ShipmentLine: Hashable, Sendable {
    public var lineNumber: Int
    public var quantity: Int

    public init(lineNumber: Int, quantity: Int) {
        self.lineNumber = lineNumber
        self.quantity = quantity
    }
}

/// A parcel of an order.
public struct Shipment: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var orderID: Int64
    /// The carrier as given (`Carrier(name:)` finds a known one).
    public var carrier: String
    public var trackingCode: String
    public var shippedAt: String
    public var deliveredAt: String?
    public var lines: [ShipmentLine]

    public init(id: Int64, orderID: Int64, carrier: String, trackingCode: String, shippedAt: String, deliveredAt: String? = nil,
                lines: [ShipmentLine]) {
        self.id = id
        self.orderID = orderID
        self.carrier = carrier
        self.trackingCode = trackingCode
        self.shippedAt = shippedAt
        self.deliveredAt = deliveredAt
        self.lines = lines
    }

    /// The carrier's tracking page, for a carrier in the table; nil otherwise.
    public var trackingURL: String? { Carrier(name: carrier)?.trackingURL(trackingCode) }
}

/// The shape rules of a shipment's fields.
public enum ShippingRules {
    /// The longest carrier name and tracking code.
    public static let maxCarrierLength = 50
    public static let maxTrackingCodeLength = 40

    /// A carrier: a known one's canonical name (`royal mail` → `royal-mail`), or another name of
    /// 1–50 printable characters kept as given.
    public static func carrier(_ text: String) throws(ShopError) -> String {
        if let known = Carrier(name: text) { return known.rawValue }
        let trimmed = text.trimmingASCIISpaces
        guard !trimmed.isEmpty else { throw .invalidInput("a shipment needs its carrier (--carrier NAME)") }
        try ProductRules.checkText(trimmed, field: "carrier", maxLength: maxCarrierLength)
        return trimmed
    }

    /// A tracking code: 4–40 of A-Z, a-z, 0-9 and '-', spaces between groups dropped, upper-cased
    /// (`1z 999 aa1` → `1Z999AA1`).
    public static func trackingCode(_ text: String) throws(ShopError) -> String {
        let code = String(text.unicodeScalars.filter { $0 != " " }).uppercased()
        let allowed = code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard (4...maxTrackingCodeLength).contains(code.count), allowed else {
            throw .invalidInput("invalid tracking code \(text.quotedForMessage()): use 4 to \(maxTrackingCodeLength) letters, digits and '-'")
        }
        return code
    }
}

/// How shipments move an order: what is left to ship, what a new shipment takes, and the status
/// that follows (never backwards).
public enum ShipmentRules {
    /// Units of each line (by line number, from 1) not shipped yet: ordered, less returned before
    /// shipping, less shipped. Lines with none left are left out.
    public static func unshipped(_ order: Order, shipments: [Shipment]) -> [Int: Int] {
        var left: [Int: Int] = [:]
        for (index, line) in order.lines.enumerated() { left[index + 1] = max(0, line.quantity - line.returned) }
        for shipment in shipments {
            for line in shipment.lines { left[line.lineNumber, default: 0] -= line.quantity }
        }
        return left.filter { $0.value > 0 }
    }

    /// The lines a new shipment of `order` takes: `requested` (nil: every unit left), each line
    /// once, with 1 or more units and no more than are left. A placed, cancelled, refunded or
    /// fully shipped order ships nothing (one line saying why).
    public static func plan(_ order: Order, shipments: [Shipment], requested: [ShipmentLine]?) throws(ShopError) -> [ShipmentLine] {
        guard order.status == .paid || order.status == .shipped else {
            let why = order.status == .placed ? "is placed and not paid yet" : "is \(order.status.rawValue)"
            throw .conflict("order \(order.id) \(why); only a paid order ships")
        }
        let left = unshipped(order, shipments: shipments)
        guard !left.isEmpty else { throw .conflict("order \(order.id) has nothing left to ship") }
        guard let requested else {
            return left.keys.sorted().map { ShipmentLine(lineNumber: $0, quantity: left[$0] ?? 0) }
        }
        guard !requested.isEmpty else { throw .invalidInput("a shipment takes at least one line") }
        var seen: Set<Int> = []
        for line in requested {
            guard (1...order.lines.count).contains(line.lineNumber) else {
                throw .invalidInput("order \(order.id) has no line \(line.lineNumber) (it has \(order.lines.count))")
            }
            guard seen.insert(line.lineNumber).inserted else { throw .invalidInput("line \(line.lineNumber) is named twice") }
            guard line.quantity >= 1 else { throw .invalidInput("a shipment takes 1 or more units of line \(line.lineNumber)") }
            let available = left[line.lineNumber] ?? 0
            guard line.quantity <= available else {
                throw .conflict("line \(line.lineNumber) of order \(order.id) has \(available) unit\(available == 1 ? "" : "s") left to ship, not \(line.quantity)")
            }
        }
        return requested.sorted { $0.lineNumber < $1.lineNumber }
    }

    /// The order's status once `shipments` are its shipments: `shipped` when no unit is left to
    /// ship, `delivered` when moreover every shipment was delivered; otherwise as it is.
    public static func status(of order: Order, shipments: [Shipment]) -> OrderStatus {
        guard order.status == .paid || order.status == .shipped, !shipments.isEmpty, unshipped(order, shipments: shipments).isEmpty else {
            return order.status
        }
        return shipments.allSatisfy { $0.deliveredAt != nil } ? .delivered : .shipped
    }

    /// Refuses to cancel an order that has shipped units, naming the first shipment.
    public static func checkCancel(_ order: Order, shipments: [Shipment]) throws(ShopError) {
        if let first = shipments.first {
            throw .conflict("order \(order.id) is not cancelled: shipment \(first.id) (\(first.carrier) \(first.trackingCode)) left on \(first.shippedAt.prefix(10))")
        }
    }
}
