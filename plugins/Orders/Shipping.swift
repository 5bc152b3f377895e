// Shipping: `orders ship`, `orders deliver` and `orders track`
// — where an order is: its parcels with carrier, tracking code and link, what is left to ship,
// where it goes and the team's last notes; for a customer, their open orders.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// `--lines 1:2,3`: lines of an order, each with the units to ship (none: every unit left).
struct ShipmentLinesText {
    /// The lines `text` names (`LINE[:UNITS]`, comma-separated), with the units left for a line
    /// named alone; one line naming the part that is wrong otherwise.
    static func parse(_ text: String, left: [Int: Int]) throws(ShopError) -> [ShipmentLine] {
        var lines: [ShipmentLine] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = String(part).trimmingASCIISpaces.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), let line = Int(pieces[0]), line >= 1 else {
                throw .usage("--lines takes LINE[:UNITS] separated by commas, like 1:2,3; not \(String(part).quotedForMessage())")
            }
            if pieces.count == 2 {
                guard let units = Int(pieces[1]) else {
                    throw .usage("--lines takes LINE[:UNITS] separated by commas, like 1:2,3; not \(String(part).quotedForMessage())")
                }
                lines.append(ShipmentLine(lineNumber: line, quantity: units))
            } else {
                lines.append(ShipmentLine(lineNumber: line, quantity: left[line] ?? 0))
            }
        }
        return lines
    }
}

/// How shipments become output.
enum ShipmentRows {
    static let columns = ["id", "order_id", "carrier", "tracking_code", "tracking_url", "shipped_at", "delivered_at", "units", "lines"]
        .map(Column.init)

    static func cells(_ shipment: Shipment) -> [Cell] {
        [.integer(shipment.id), .integer(shipment.orderID), .text(shipment.carrier), .text(shipment.trackingCode),
         shipment.trackingURL.map(Cell.text) ?? .null, .text(shipment.shippedAt), shipment.deliveredAt.map(Cell.text) ?? .null,
         .integer(Int64(shipment.lines.reduce(0) { $0 + $1.quantity })),
         .list(shipment.lines.map { "\($0.lineNumber):\($0.quantity)" })]
    }

    /// At a terminal: the parcel, its carrier and code, when it left and arrived; the link last.
    static let tableView = TableView(["id", "carrier", "tracking_code", "shipped_at", "delivered_at", "units", "tracking_url"],
                                     optional: ["units", "tracking_url"],
                                     headers: ["tracking_code": "tracking", "shipped_at": "shipped", "delivered_at": "delivered",
                                               "tracking_url": "link"])
}

extension OrdersCommand {
    /// `orders ship ID --carrier NAME --tracking CODE [--lines LINE[:UNITS],…]`.
    struct Ship: ShellCommand {
        static let operation: ShopOperation? = .shipOrder
        static let configuration = CommandConfiguration(
            abstract: "Ship an order's units with a carrier and a tracking code (some lines or units, or all that is left).",
            discussion: """
                For a paid order, or one partly shipped. --lines 1:2,3 ships 2 units of line 1 and every unit left of \
                line 3; without it, every unit left. The order is shipped once every unit (not returned) has shipped. \
                Known carriers get a tracking link: \(Carrier.allCases.map(\.rawValue).joined(separator: ", ")); others \
                keep the code alone.
                """)

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Option(help: ArgumentHelp("The carrier (dhl, ups, fedex, usps, royal-mail, dpd, gls, or another name).", valueName: "name"))
        var carrier: String

        @Option(help: ArgumentHelp("The parcel's tracking code.", valueName: "code"))
        var tracking: String

        @Option(help: ArgumentHelp("Lines to ship: LINE[:UNITS], comma-separated (default: every unit left).", valueName: "lines"))
        var lines: String?

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let orderID = try parseOrderID(id)
            var requested: [ShipmentLine]?
            if let lines {
                let order = try await context.services.orders.order(orderID)
                let left = ShipmentRules.unshipped(order, shipments: try await context.services.shipments.shipments(orderID))
                requested = try ShipmentLinesText.parse(lines, left: left)
            }
            let shipment = try await context.services.shipments.ship(orderID, carrier: carrier, trackingCode: tracking, lines: requested)
            try context.record(columns: ShipmentRows.columns, row: ShipmentRows.cells(shipment), options: output)
            let order = try await context.services.orders.order(orderID)
            context.note("shipment \(shipment.id) of order \(orderID) left with \(shipment.carrier) \(shipment.trackingCode); the order is \(order.status.rawValue)")
        }
    }

    /// `orders deliver ID [--shipment N]`.
    struct Deliver: ShellCommand {
        static let operation: ShopOperation? = .shipOrder
        static let configuration = CommandConfiguration(
            abstract: "Mark an order's parcels delivered (one with --shipment, else every one on its way).",
            discussion: "The order is delivered once it shipped whole and every parcel arrived. Before anything shipped, nothing is delivered.")

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Option(parsing: .unconditional, help: ArgumentHelp("Only this shipment.", valueName: "N"))
        var shipment: Int64?

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let orderID = try parseOrderID(id)
            let delivered = try await context.services.shipments.deliver(orderID, shipment: shipment)
            try await context.list(columns: ShipmentRows.columns, tableView: ShipmentRows.tableView, options: output, page: Page(),
                                   emptyNote: "nothing was delivered") { emit in
                for shipment in delivered { try emit(ShipmentRows.cells(shipment)) }
            }
            let order = try await context.services.orders.order(orderID)
            context.note("order \(orderID) is \(order.status.rawValue)")
        }
    }
}

/// What `orders track` shows of one order: where it stands, its parcels, what is left to ship,
/// where it goes and the team's last notes.
struct OrderTracking {
    var order: Order
    var shipments: [Shipment]
    var notes: [ShopCore.Note]

    /// How many of the newest notes the answer lists.
    static let lastNotes = 3

    static func read(_ id: Int64, _ services: ShopServices) async throws -> OrderTracking {
        let order = try await services.orders.order(id)
        return OrderTracking(order: order, shipments: try await services.shipments.shipments(id),
                             notes: try await services.notes.notes(on: .order(id)))
    }

    var left: [Int: Int] { ShipmentRules.unshipped(order, shipments: shipments) }

    static let recordColumns = ["id", "customer", "status", "created_at", "ship_to", "ship_city", "ship_country", "parcels",
                                "delivered", "units_left"].map(Column.init)

    var recordCells: [Cell] {
        [.integer(order.id), .text(order.customer), .text(order.status.rawValue), .text(order.createdAt),
         order.shipTo.map { .text($0.singleLine) } ?? .null, order.shipTo.map { .text($0.city) } ?? .null,
         order.shipTo.map { .text($0.country) } ?? .null, .integer(Int64(shipments.count)),
         .integer(Int64(shipments.filter { $0.deliveredAt != nil }.count)), .integer(Int64(left.values.reduce(0, +)))]
    }

    static let leftColumns = ["line", "sku", "title", "units"].map(Column.init)

    var leftCells: [[Cell]] {
        left.keys.sorted().map { number in
            let line = order.lines[number - 1]
            return [.integer(Int64(number)), .text(line.sku), .text(line.title), .integer(Int64(left[number] ?? 0))]
        }
    }

    func view() -> NestedView {
        var view = NestedView(record: (Self.recordColumns, recordCells), key: "shipments",
                              rows: (ShipmentRows.columns, shipments.map(ShipmentRows.cells)))
        view.sections = [("left_to_ship", Self.leftColumns, leftCells, nil),
                         ("notes", NoteRows.columns, notes.suffix(Self.lastNotes).map(NoteRows.cells), NoteRows.tableView.fields)]
        return view
    }
}

extension OrdersCommand {
    /// `orders track ID|USER`.
    struct Track: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "Where is my order? Its status, parcels with tracking links, address, what is left to ship, last notes.",
            discussion: """
                For an order id: the order, each parcel (carrier, tracking code, link, shipped, delivered), what is left \
                to ship and the team's last \(OrderTracking.lastNotes) notes; json one object with "shipments", \
                "left_to_ship" and "notes" arrays (for a support bot), csv and tsv the parcels. For a customer (id, \
                username or email; a number is an order id, #ID too): their open orders (placed, paid, shipped), one \
                row each with the newest parcel.
                """)

        @Argument(help: ArgumentHelp("An order id, or a customer (username or email).", valueName: "order-or-user"),
                  completion: .shop(.order))
        var target: String

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            if let id = try? parseOrderID(target) {
                let tracking = try await OrderTracking.read(id, context.services)
                return try context.nested(tracking.view(), options: output, tableView: ShipmentRows.tableView,
                                          emptyNote: "order \(id) has not shipped yet",
                                          flatNote: { "order \(id) (\(tracking.order.status.rawValue))" })
            }
            var open: [Order] = []
            for status in [OrderStatus.placed, .paid, .shipped] {
                try await context.services.orders.listOrders(OrderFilter(user: target, status: status), page: .all) { open.append($0) }
            }
            open.sort { $0.id > $1.id }
            let columns = ["id", "status", "created_at", "ship_city", "ship_country", "carrier", "tracking_code", "tracking_url",
                           "shipped_at", "delivered_at"].map(Column.init)
            try await context.list(columns: columns,
                                   tableView: TableView(["id", "status", "created_at", "carrier", "tracking_code", "shipped_at", "tracking_url"],
                                                        optional: ["tracking_url", "shipped_at"],
                                                        headers: ["created_at": "placed", "tracking_code": "tracking",
                                                                  "shipped_at": "shipped", "tracking_url": "link"]),
                                   options: output, page: Page(), emptyNote: "no open orders for \(target)") { emit in
                for order in open {
                    let newest = try await context.services.shipments.shipments(order.id).last
                    try emit([.integer(order.id), .text(order.status.rawValue), .text(order.createdAt),
                              order.shipTo.map { .text($0.city) } ?? .null, order.shipTo.map { .text($0.country) } ?? .null,
                              newest.map { .text($0.carrier) } ?? .null, newest.map { .text($0.trackingCode) } ?? .null,
                              newest?.trackingURL.map(Cell.text) ?? .null, newest.map { .text($0.shippedAt) } ?? .null,
                              newest?.deliveredAt.map(Cell.text) ?? .null])
                }
            }
        }
    }
}
