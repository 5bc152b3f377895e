// OrderRows: the one place where orders and their lines become output columns and cells (money
// converted through the command's MoneyDisplay; reports are SalesReportRows').

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

enum OrderRows {
    // MARK: - Orders

    /// A listing row, and the head of `orders show`.
    static func columns(_ display: MoneyDisplay) -> [Column] {
        ["id", "user_id", "customer", "status", "total", "discounted_total", "refunded", "net", "refund_state", "currency",
         "created_at", "updated_at", "coupon", "coupon_discount"].map(Column.init) + shipToColumns + display.extraColumns
    }

    static func cells(_ order: Order, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(order.id), order.userID.map(Cell.integer) ?? .null, .text(order.customer), .text(order.status.rawValue),
         try display.cell(order.total), try display.cell(order.discountedTotal), try display.cell(order.refunded),
         try display.cell(order.net), .text(order.refundState.rawValue), .text(display.code(order.total)),
         .text(order.createdAt), .text(order.updatedAt), order.coupon.map { .text($0.code) } ?? .null,
         try order.coupon.map { coupon throws in try display.cell(coupon.discount) } ?? .null]
            + shipToCells(order.shipTo) + display.extraCells
    }

    /// Where the order goes, one field per part (`ship_city`…): null when it goes nowhere yet.
    static let shipToColumns = ["ship_name", "ship_line1", "ship_line2", "ship_city", "ship_state", "ship_postal_code",
                                "ship_country", "ship_phone"].map(Column.init)

    static func shipToCells(_ address: PostalAddress?) -> [Cell] {
        guard let address else { return Array(repeating: .null, count: shipToColumns.count) }
        return [.text(address.name), .text(address.line1), .text(address.line2), .text(address.city), .text(address.state),
                .text(address.postalCode), .text(address.country), address.phone.map(Cell.text) ?? .null]
    }

    /// What a table of orders shows for people: who, where it stands, what it comes to, when placed,
    /// where it goes.
    static let tableView = TableView(["id", "customer", "status", "total", "discounted_total", "refunded", "currency", "created_at",
                                      "ship_country"],
                                     optional: ["total", "refunded", "ship_country"],
                                     headers: ["total": "gross", "discounted_total": "total", "created_at": "placed", "ship_country": "to"])

    /// What a table of an order's lines shows for people.
    static let lineTableView = TableView(["line", "product_id", "sku", "title", "unit_price", "discount_percentage",
                                          "quantity", "returned", "discounted_total", "currency"],
                                         optional: ["sku", "discount_percentage", "returned"],
                                         headers: ["discounted_total": "total"])

    /// Sortable fields of `orders list` (they match the store's).
    static let sortFields = ["id", "user_id", "customer", "status", "total", "discounted_total", "refunded", "currency", "created_at", "updated_at"]

    // MARK: - Lines as sold

    static func lineColumns(_ display: MoneyDisplay, withOrderID: Bool) -> [Column] {
        (withOrderID ? [Column("order_id")] : [])
            + ["line", "product_id", "sku", "title", "unit_price", "discount_percentage", "quantity", "returned", "total",
               "discounted_total", "coupon_share", "paid_total", "currency"].map(Column.init) + display.extraColumns
    }

    static func lineCells(_ order: Order, _ display: MoneyDisplay, withOrderID: Bool) throws -> [[Cell]] {
        try order.lines.enumerated().map { index, line in
            (withOrderID ? [Cell.integer(order.id)] : [])
                + [.integer(Int64(index + 1)), line.productID.map(Cell.integer) ?? .null, .text(line.sku),
                   .text(line.title), try display.cell(line.unitPrice), .decimal(line.discount.decimal),
                   .integer(Int64(line.quantity)), .integer(Int64(line.returned)), try display.cell(line.total), try display.cell(line.discountedTotal),
                   try display.cell(Money(minorUnits: line.couponShare, currency: line.unitPrice.currency)), try display.cell(line.paidTotal),
                   .text(display.code(line.unitPrice))] + display.extraCells
        }
    }

    /// `order 12 (placed): total 119.96 USD · discounted 105.41 USD · 4 items in 1 line`.
    static func summary(_ order: Order, _ display: MoneyDisplay) throws -> String {
        let code = display.code(order.total)
        let items = order.lines.totalQuantity
        var text = "order \(order.id) (\(order.status.rawValue)): total \(try display.convert(order.total).decimalString) \(code)"
            + " · discounted \(try display.convert(order.discountedTotal).decimalString) \(code)"
            + " · \(items) item\(items == 1 ? "" : "s") in \(order.lines.count) line\(order.lines.count == 1 ? "" : "s")"
        if let coupon = order.coupon {
            text += " · coupon \(coupon.code) −\(try display.convert(coupon.discount).decimalString) \(code)"
        }
        if order.refundState != .none {
            text += " · refunded \(try display.convert(order.refunded).decimalString) \(code)"
                + (order.refundState == .partial ? " (partly)" : "") + " · net \(try display.convert(order.net).decimalString) \(code)"
        }
        if let date = display.rateDate { text += " (ECB rates of \(date))" }
        return text
    }

    // MARK: - Refunds

    static func refundColumns(_ display: MoneyDisplay, withOrderID: Bool = true) -> [Column] {
        ((withOrderID ? ["id", "order_id"] : ["id"]) + ["kind", "line", "product_id", "sku", "quantity", "restocked", "amount",
                                                        "currency", "reason", "operator", "created_at"]).map(Column.init)
            + display.extraColumns
    }

    static func refundCells(_ refund: OrderRefund, _ display: MoneyDisplay, withOrderID: Bool = true) throws -> [Cell] {
        [.integer(refund.id)] + (withOrderID ? [.integer(refund.orderID)] : [])
            + [.text(refund.kind), refund.lineNumber.map { .integer(Int64($0)) } ?? .null, refund.productID.map(Cell.integer) ?? .null,
               refund.sku.map(Cell.text) ?? .null, .integer(Int64(refund.quantity)), .bool(refund.restocked),
               try display.cell(refund.amount), .text(display.code(refund.amount)), .text(refund.reason),
               .text(refund.operatorName), .text(refund.createdAt)] + display.extraCells
    }

    /// What a table of refunds shows for people.
    static let refundTableView = TableView(["id", "kind", "sku", "quantity", "amount", "currency", "reason", "created_at"],
                                           optional: ["sku", "created_at"], headers: ["quantity": "units"])
}
