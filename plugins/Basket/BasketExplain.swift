// BasketExplain: `basket explain USER` — "why is my total different?": each line's price when it
// was added and now, its discount and the stock left, lines a deleted product took away, whether
// checkout would fail and why, and how the amount to pay moved since the basket last changed.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

extension BasketCommand {
    /// `basket explain [USER]`.
    struct Explain: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "Explain a basket: prices when added and now, stock, what would stop a checkout, the total's change.",
            discussion: """
                Prices when added come from the audit log (a line older than the log shows today's). json prints one \
                object: {"user_id", "customer", "checkout" ("ok" or "fails"), "reasons": [...], "to_pay", "last_change", \
                "to_pay_then", "to_pay_change", "currency", "lines": [...]}; each line has its "problem" (null when it \
                is fine). A line whose product was deleted is listed with price_now null. Table, csv and tsv list the \
                lines and print the rest on stderr.
                """)

        @OptionGroup var words: CustomerArguments<NoMoreWords>
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            let services = context.services
            let basket = try await services.baskets.basket(user)
            let userID = basket.user.id
            var withStock = basket
            var productRows: [Int64: [AuditEntry]] = [:]
            for index in withStock.lines.indices {
                let productID = withStock.lines[index].productID
                withStock.lines[index].stock = try await services.products.product(String(productID)).stock
                var rows: [AuditEntry] = []
                try await services.audit.listAudit(AuditFilter(entity: .product, entityID: String(productID)), page: .all) { rows.append($0) }
                productRows[productID] = rows
            }
            var basketRows: [AuditEntry] = []
            try await services.audit.listAudit(AuditFilter(entity: .basket, entityID: String(userID)), page: .all) { basketRows.append($0) }
            var deletes: [AuditEntry] = []
            try await services.audit.listAudit(AuditFilter(entity: .product), page: .all) { row in
                if row.action == "delete" { deletes.append(row) }
            }
            try await services.audit.listAudit(AuditFilter(entity: .order), page: .all) { row in
                if ShopHistory.isBasketRow(row, userID: userID) { basketRows.append(row) }
            }
            basketRows.sort { $0.id > $1.id }
            let quote = try basket.couponQuote(on: services.clock.day)
            var toPayThen: Money?
            if let last = basketRows.first(where: { $0.entity == AuditEntity.basket.rawValue }),
               let seconds = ShopClock.parse(last.time) {
                let moment = HistoryMoment(seconds: seconds)
                let then = try await PastShop(services: services, moment: moment).basket(String(userID))
                toPayThen = try then.toPay(try then.couponQuote(on: CalendarDay(iso: String(last.time.prefix(10))) ?? services.clock.day))
            }
            let explanation = try BasketExplanation.explain(withStock, quote: quote, productRows: productRows, basketRows: basketRows,
                                                            deletes: deletes, toPayThen: toPayThen)
            let display = try await context.moneyDisplay(currencyOption)
            let view = NestedView(record: (Self.recordColumns, try Self.recordCells(explanation, display)), key: "lines",
                                  rows: (Self.lineColumns, try explanation.lines.map { try Self.lineCells($0, display) }))
            var shown = view
            shown.tableShowsRecord = false
            try context.nested(shown, options: output, tableView: Self.tableView,
                               emptyNote: "the basket of \(basket.user.username) is empty",
                               flatNote: { try Self.summary(explanation, display) })
        }

        static let recordColumns = ["user_id", "customer", "checkout", "reasons", "to_pay", "last_change", "to_pay_then",
                                    "to_pay_change", "currency"].map(Column.init)
        static let lineColumns = ["product_id", "sku", "title", "quantity", "added_at", "price_added", "price_now", "price_change",
                                  "discount_percentage", "line_total", "stock", "problem"].map(Column.init)
        static let tableView = TableView(["product_id", "sku", "title", "quantity", "price_added", "price_now", "stock", "problem"],
                                         optional: ["sku"])

        static func recordCells(_ explanation: BasketExplanation, _ display: MoneyDisplay) throws -> [Cell] {
            func money(_ value: Money?) throws -> Cell { try value.map { try display.cell($0) } ?? .null }
            return [.integer(explanation.user.id), .text(explanation.user.username), .text(explanation.reasons.isEmpty ? "ok" : "fails"),
                    .list(explanation.reasons), try money(explanation.toPay), explanation.lastChange.map(Cell.text) ?? .null,
                    try money(explanation.toPayThen), try money(explanation.toPayChange), .text(display.code(explanation.toPay))]
        }

        static func lineCells(_ line: ExplainedLine, _ display: MoneyDisplay) throws -> [Cell] {
            func money(_ value: Money?) throws -> Cell { try value.map { try display.cell($0) } ?? .null }
            return [.integer(line.productID), .text(line.sku), .text(line.title), .integer(Int64(line.quantity)),
                    line.addedAt.map(Cell.text) ?? .null, try money(line.priceAdded), try money(line.priceNow), try money(line.priceChange),
                    line.discount.map { .decimal($0.decimal) } ?? .null, try money(line.lineTotal),
                    line.stock.map { .integer(Int64($0)) } ?? .null, line.problem.map(Cell.text) ?? .null]
        }

        /// What the lines leave out, on stderr: the checkout's verdict and the total's change.
        static func summary(_ explanation: BasketExplanation, _ display: MoneyDisplay) throws -> String {
            func text(_ money: Money) throws -> String { "\(try display.convert(money).decimalString) \(display.code(money))" }
            var parts = ["to pay \(try text(explanation.toPay))"]
            if let then = explanation.toPayThen, let change = explanation.toPayChange, let last = explanation.lastChange {
                parts.append("\(try text(then)) at its last change (\(last)): \(change.minorUnits >= 0 ? "+" : "")\(try text(change))")
            }
            parts.append(explanation.reasons.isEmpty ? "checkout would succeed" : "checkout would fail: " + explanation.reasons.joined(separator: "; "))
            return parts.joined(separator: " · ")
        }
    }
}
