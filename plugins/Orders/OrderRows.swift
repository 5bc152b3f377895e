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
        ["id", "user_id", "customer", "status", "total", "discounted_total", "currency", "created_at", "updated_at"]
            .map(Column.init) + display.extraColumns
    }

    static func cells(_ order: Order, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(order.id), order.userID.map(Cell.integer) ?? .null, .text(order.customer), .text(order.status.rawValue),
         try display.cell(order.total), try display.cell(order.discountedTotal), .text(display.code(order.total)),
         .text(order.createdAt), .text(order.updatedAt)] + display.extraCells
    }

    /// What a table of orders shows for people: who, where it stands, what it comes to, when placed.
    static let tableView = TableView(["id", "customer", "status", "total", "discounted_total", "currency", "created_at"],
                                     optional: ["total"],
                                     headers: ["total": "gross", "discounted_total": "total", "created_at": "placed"])

    /// What a table of an order's lines shows for people.
    static let lineTableView = TableView(["line", "product_id", "sku", "title", "unit_price", "discount_percentage",
                                          "quantity", "discounted_total", "currency"],
                                         optional: ["sku", "discount_percentage"],
                                         headers: ["discounted_total": "total"])

    /// Sortable fields of `orders list` (they match the store's).
    static let sortFields = ["id", "user_id", "customer", "status", "total", "discounted_total", "currency", "created_at", "updated_at"]

    // MARK: - Lines as sold

    static func lineColumns(_ display: MoneyDisplay, withOrderID: Bool) -> [Column] {
        (withOrderID ? [Column("order_id")] : [])
            + ["line", "product_id", "sku", "title", "unit_price", "discount_percentage", "quantity", "total",
               "discounted_total", "currency"].map(Column.init) + display.extraColumns
    }

    static func lineCells(_ order: Order, _ display: MoneyDisplay, withOrderID: Bool) throws -> [[Cell]] {
        try order.lines.enumerated().map { index, line in
            (withOrderID ? [Cell.integer(order.id)] : [])
                + [.integer(Int64(index + 1)), line.productID.map(Cell.integer) ?? .null, .text(line.sku),
                   .text(line.title), try display.cell(line.unitPrice), .decimal(line.discount.decimal),
                   .integer(Int64(line.quantity)), try display.cell(line.total), try display.cell(line.discountedTotal),
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
        if let date = display.rateDate { text += " (ECB rates of \(date))" }
        return text
    }
}
