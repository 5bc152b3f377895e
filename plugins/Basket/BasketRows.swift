// BasketRows: the one place where basket lines, basket totals and a placed order become output
// columns and cells (money converted through the command's MoneyDisplay).

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

enum BasketRows {
    // MARK: - Lines

    static func lineColumns(_ display: MoneyDisplay) -> [Column] {
        ["product_id", "sku", "title", "unit_price", "discount_percentage", "quantity", "total", "discounted_total",
         "currency"].map(Column.init) + display.extraColumns
    }

    /// What a table of basket lines shows for people: what, how many, at what price, for how much.
    static func lineTableView(_ display: MoneyDisplay) -> TableView {
        TableView(["product_id", "sku", "title", "quantity", "unit_price", "discount_percentage", "discounted_total", "currency"]
                    + display.extraColumns.map(\.key),
                  optional: ["sku", "discount_percentage"], headers: ["discounted_total": "total"])
    }

    static func cells(_ line: BasketLine, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(line.productID), .text(line.sku), .text(line.title), try display.cell(line.unitPrice),
         .decimal(line.discount.decimal), .integer(Int64(line.quantity)), try display.cell(line.total),
         try display.cell(line.discountedTotal), .text(display.code(line.unitPrice))] + display.extraCells
    }

    // MARK: - Totals

    /// `basket total`: who, how many lines and items, and the two totals.
    static func totalsColumns(_ display: MoneyDisplay) -> [Column] {
        ["user_id", "customer", "lines", "total_quantity", "total", "discounted_total", "currency"].map(Column.init)
            + display.extraColumns
    }

    static func totalsCells(_ basket: Basket, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(basket.user.id), .text(basket.user.username), .integer(Int64(basket.lines.count)),
         .integer(Int64(basket.totalQuantity)), try display.cell(basket.total), try display.cell(basket.discountedTotal),
         .text(try display.code(basket.total))] + display.extraCells
    }

    /// `basket list`: the totals of each basket and its last change.
    static func listColumns(_ display: MoneyDisplay) -> [Column] {
        ["user_id", "customer", "lines", "total_quantity", "total", "discounted_total", "currency", "last_change"].map(Column.init)
            + display.extraColumns
    }

    static func listCells(_ basket: BasketSummary, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(basket.userID), .text(basket.username), .integer(Int64(basket.lines)), .integer(Int64(basket.items)),
         try display.cell(basket.total), try display.cell(basket.discountedTotal), .text(display.code(basket.total)),
         .text(basket.lastChange)] + display.extraCells
    }

    /// `basket list` in a table: every column, but the line count goes first when the terminal is
    /// narrow (the last change, to the minute, is never cut: 80 columns hold the rest).
    static func listTableView(_ columns: [Column]) -> TableView {
        TableView(columns.map(\.key), optional: ["lines"])
    }

    /// The fields `basket list --sort` takes (the store sorts: BasketListQuery).
    static var listSortFields: [String] { BasketListQuery.sortColumns.map(\.key) }

    /// The head of `basket show -o json`: the totals without the line count (`lines` is the array),
    /// then the coupon: its code, what it gives now (or why nothing), what is left to pay.
    static func showColumns(_ display: MoneyDisplay) -> [Column] {
        totalsColumns(display).filter { $0.key != "lines" }
            + ["coupon", "coupon_discount", "coupon_reason", "coupon_note", "to_pay"].map(Column.init)
    }

    static func showCells(_ basket: Basket, _ quote: CouponQuote?, _ display: MoneyDisplay) throws -> [Cell] {
        var cells = try totalsCells(basket, display)
        cells.remove(at: 2)
        let discount = quote?.discount ?? .zero(basket.currency)
        cells += [basket.coupon.map { .text($0.coupon.code) } ?? .null, quote == nil ? .null : try display.cell(discount),
                  quote?.refusal.map { .text($0.name) } ?? .null, quote?.refusal.map { .text($0.detail) } ?? .null,
                  try display.cell(try basket.toPay(quote))]
        return cells
    }

    /// The trailer of a table: `total 13037.88 USD · discounted 11510.81 USD · 12 items in 4 lines`.
    /// With a coupon: ` · coupon BF-7KQ2 (10.00%) −1.15 USD · to pay 10.35 USD`, or why it gives
    /// nothing now (a note wraps at a terminal's width).
    static func summary(_ basket: Basket, _ quote: CouponQuote? = nil, _ display: MoneyDisplay) throws -> String {
        let code = try display.code(basket.total)
        var text = "basket of \(basket.user.username): total \(try display.convert(basket.total).decimalString) \(code)"
            + " · discounted \(try display.convert(basket.discountedTotal).decimalString) \(code)"
            + " · \(basket.totalQuantity) item\(basket.totalQuantity == 1 ? "" : "s") in \(basket.lines.count) line\(basket.lines.count == 1 ? "" : "s")"
        if let date = display.rateDate { text += " (ECB rates of \(date))" }
        if let coupon = basket.coupon, let quote {
            let head = "coupon \(coupon.coupon.code) (\(coupon.coupon.value.described))"
            if let refusal = quote.refusal {
                text += " · \(head) gives nothing now: \(refusal.detail)"
            } else {
                text += " · \(head) −\(try display.convert(quote.discount).decimalString) \(code)"
                    + " · to pay \(try display.convert(try basket.toPay(quote)).decimalString) \(code)"
            }
        }
        return text
    }

    // MARK: - The order a checkout placed

    static func orderColumns(_ display: MoneyDisplay) -> [Column] {
        ["id", "user_id", "customer", "status", "lines", "total_quantity", "total", "discounted_total", "currency",
         "created_at", "coupon", "coupon_discount"].map(Column.init) + display.extraColumns
    }

    static func orderCells(_ order: Order, user: String, _ display: MoneyDisplay) throws -> [Cell] {
        [.integer(order.id), order.userID.map(Cell.integer) ?? .null, .text(user), .text(order.status.rawValue),
         .integer(Int64(order.lines.count)), .integer(Int64(order.lines.totalQuantity)),
         try display.cell(order.total), try display.cell(order.discountedTotal), .text(display.code(order.total)),
         .text(order.createdAt), order.coupon.map { .text($0.code) } ?? .null,
         try order.coupon.map { coupon throws in try display.cell(coupon.discount) } ?? .null] + display.extraCells
    }
}
