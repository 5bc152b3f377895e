// OrdersCommand: the `orders` plugin: orders placed by checkout (list, show), their life
// (status, cancel: cancelling restocks), the team's notes on them, and statistics (stats).

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// The orders plugin, as the executable registers it.
public let ordersPlugin = ShellPlugin(OrdersCommand.self)

/// `orders`.
struct OrdersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders",
        abstract: "Look into orders, move them through their statuses, count them.",
        discussion: """
            Orders are placed by `basket checkout`. Statuses: placed → paid → shipped → delivered; \
            placed or paid → cancelled (which puts the stock back). Paid, shipped and delivered orders take \
            returns (orders return) and refunds (orders refund); an order whose every cent went back is refunded.
            """,
        subcommands: [List.self, Show.self, Status.self, Cancel.self, Return.self, Refund.self, Ship.self, Deliver.self, Track.self, Note.self,
                      Stats.self])
}

/// `--user`, `--status`, `--since`, `--until`.
struct OrderFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only this customer's orders (id, username or email).", valueName: "user"),
            completion: .shop(.user))
    var user: String?

    @Option(help: ArgumentHelp("Only orders with this status: \(OrderStatus.choices).", valueName: "status"))
    var status: OrderStatus?

    @OptionGroup var days: DayRangeOptions

    @Option(help: ArgumentHelp("Only orders going to this country (ISO 3166-1 alpha-2: US, DE, GB).", valueName: "CC"))
    var country: String?

    @Option(help: ArgumentHelp("Only orders going to this city (any case).", valueName: "city"))
    var city: String?

    /// The filter, with its days resolved on `today` and checked under the flags' names.
    func filter(today: CalendarDay) throws(ShopError) -> OrderFilter {
        let (since, until) = try days.days(today: today)
        return OrderFilter(user: try SelectionText.check(user, for: "--user"), status: status,
                           since: since, until: until,
                           country: try country.map { text throws(ShopError) in
                               try AddressRules.country(try SelectionText.check(text, for: "--country"))
                           },
                           city: try SelectionText.check(city, for: "--city"))
    }
}

extension OrdersCommand {
    /// `orders list`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List orders, newest first.",
            discussion: "Sortable by \(OrderRows.sortFields.joined(separator: ", ")).")

        @OptionGroup var filters: OrderFilterOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        @Flag(help: "Then print an order's row again each time it is placed or changes (status, refunds), until Ctrl-C.")
        var follow = false

        func run(in context: CommandContext) async throws {
            if follow { try FollowOutput.checkFormat(context.format(output), streamsRows: true) }
            let lastSeen = follow ? try await context.services.history.lastAuditID() : 0
            let filter = try filters.filter(today: try context.today())
            let page = try context.page(paging)
            let display = try await context.moneyDisplay(currencyOption)
            try await context.list(columns: OrderRows.columns(display),
                                   tableView: OrderRows.tableView.appending(display.extraColumns.map(\.key)), options: output, page: page,
                                   emptyNote: "no orders match") { emit in
                try await context.services.orders.listOrders(filter, page: page) { order in
                    try emit(try OrderRows.cells(order, display))
                }
            }
            guard follow else { return }
            let customer = try await filter.user.asyncMap { try await context.services.users.user($0).id }
            let stream = try FollowOutput(columns: OrderRows.columns(display), options: output, context: context)
            try await AuditFollower.follow(after: lastSeen, filter: AuditFilter(entity: .order), context: context) { rows in
                var touched: [Int64] = []
                for row in rows { if let id = Int64(row.entityID), !touched.contains(id) { touched.append(id) } }
                for id in touched {
                    guard let order = try? await context.services.orders.order(id) else { continue }
                    // The filter, as the stores apply it.
                    if let customer, order.userID != customer { continue }
                    if let country = filter.country, order.shipTo?.country != country { continue }
                    if let city = filter.city, order.shipTo?.city.lowercased() != city.lowercased() { continue }
                    if let status = filter.status, order.status != status { continue }
                    let day = String(order.createdAt.prefix(10))
                    if let since = filter.since, day < since { continue }
                    if let until = filter.until, day > until { continue }
                    try stream.emit(row: try OrderRows.cells(order, display),
                                    line: "order \(order.id)  \(order.customer)  \(order.status.rawValue)  \(order.discountedTotal)  (\(order.updatedAt))")
                }
                try stream.flush()
            }
        }
    }

    /// `orders show ID`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show an order with its lines as sold.",
            discussion: """
                table: the order as key/value lines, then its lines. json: one object, the order's fields with \
                "lines": [...]; ndjson: the same on one line. csv and tsv: the lines, each with its order_id \
                (the totals go to stderr). --fields picks the lines' fields.
                """)

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let order = try await context.services.orders.order(try parseOrderID(id))
            let notes = try await context.services.notes.notes(on: .order(order.id))
            let display = try await context.moneyDisplay(currencyOption)
            try showOrder(order, notes: notes, display: display, output: output, context: context)
        }
    }

    /// `orders status ID NEW`.
    struct Status: ShellCommand {
        static let operation: ShopOperation? = .setOrderStatus
        static let configuration = CommandConfiguration(abstract: "Move an order to a new status (placed → paid → shipped → delivered; placed/paid → cancelled).")

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Argument(help: ArgumentHelp("The new status: \(OrderStatus.choices).", valueName: "status"))
        var status: OrderStatus

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            try await changeStatus(try parseOrderID(id), to: status, currencyOption: currencyOption,
                                   output: output, context: context)
        }
    }

    /// `orders cancel ID`.
    struct Cancel: ShellCommand {
        static let operation: ShopOperation? = .setOrderStatus
        static let configuration = CommandConfiguration(abstract: "Cancel a placed or paid order and put its stock back.",
            discussion: "Asks for confirmation at a terminal (--yes skips it); scripts and pipes are never asked.")

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation at a terminal.")
        var yes = false

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let orderID = try parseOrderID(id)
            if !yes, context.canAsk {
                let order = try await context.services.orders.order(orderID)
                let items = order.lines.totalQuantity
                guard try context.ask("cancel order \(order.id) (\(order.status.rawValue), \(order.lines.count) line\(order.lines.count == 1 ? "" : "s"), \(items) item\(items == 1 ? "" : "s")) and put its stock back?") else {
                    return context.note("order \(order.id) was not cancelled")
                }
            }
            try await changeStatus(orderID, to: .cancelled, currencyOption: currencyOption, output: output, context: context)
        }
    }

    /// `orders note ID [TEXT] [--delete NOTE]`.
    struct Note: ShellCommand {
        /// Adding needs support, deleting an admin; listing, any role.
        static let operation: ShopOperation? = .addNote
        var invocationOperation: ShopOperation? { note.operation }
        static let configuration = CommandConfiguration(
            abstract: "Add a note to an order for the team, list its notes, or delete one.",
            discussion: """
                orders note ID TEXT adds a note (support); its author (you) and time are the store's. orders note ID lists \
                the order's notes; orders note ID --delete NOTE deletes one (admin only). A note may hold line breaks and \
                tabs, no other control characters, at most \(NoteRules.maxLength) characters. orders show lists them too.
                """)

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @OptionGroup var note: NoteArguments

        func run(in context: CommandContext) async throws {
            try await note.run(on: .order(try parseOrderID(id)), in: context)
        }
    }

    /// `orders stats [--by …]`.
    struct Stats: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Sales per day, week, month, status, category, product or customer, with a chart.",
            discussion: """
                Columns: orders, items (units, less the units returned), gross (before discounts), discounts, refunds, \
                net (as paid, less refunds), average order value (net over orders) and currency; products and categories \
                count the orders holding their lines. Refunds count on the day they were made (a day, week or month of \
                the report counts the orders placed in it and the refunds given in it); products and categories count \
                returns only, as a goodwill refund belongs to no line. \
                Cancelled orders are no sales: they are left out unless --by status or --status asks for them. \
                Days are UTC; weeks start on Monday and are named by it; months are YYYY-MM. Periods come in time \
                order, the empty ones too; other groups best first by net sales. In a table a bar beside each row \
                shows net sales (scaled to the terminal; dropped when it is narrower than 40 columns, or with \
                --no-chart), and under periods a sparkline; json, ndjson, csv and tsv carry the figures alone.
                """)

        @Option(help: ArgumentHelp("Group by \(OrderStatsGrouping.choices).", valueName: "grouping"))
        var by: OrderStatsGrouping = .day

        @Option(parsing: .unconditional, help: ArgumentHelp("Only the best N groups by net sales (periods too: the N best days, weeks or months).", valueName: "N"))
        var top: Int?

        @OptionGroup var filters: OrderFilterOptions
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var chart: ChartOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let query = OrderStatsQuery(grouping: by, filter: try filters.filter(today: try context.today()),
                                        top: try OrderStatsQuery.checkTop(top))
            try await context.showSalesReport(query, currency: currencyOption, output: output, chart: chart)
        }
    }
}

extension OrdersCommand {
    /// `orders return ID PRODUCT --qty N [--restock] --reason TEXT`.
    struct Return: ShellCommand {
        static let operation: ShopOperation? = .refundOrder
        static let configuration = CommandConfiguration(
            abstract: "Take back units of an order's line and refund their share of what the line cost.",
            discussion: """
                For a paid (not yet shipped), shipped or delivered order. The refund is the units' share of the line's \
                total as paid, split over its units so that returning every unit, in any steps, refunds exactly that \
                total (never more than is left to refund on the order). --restock puts the units back into stock. \
                Asks at a terminal, naming the amount (--yes skips it); scripts and pipes are never asked; --dry-run \
                shows the refund only. Prints the refund.
                """)

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Argument(help: "The returned product: its id or SKU as the order line has it.", completion: .shop(.product))
        var product: String

        @Option(name: .customLong("qty"), parsing: .unconditional, help: ArgumentHelp("How many units come back.", valueName: "N"))
        var quantity: Int

        @Flag(help: "Put the units back into stock.")
        var restock = false

        @OptionGroup var refund: RefundOptions

        func run(in context: CommandContext) async throws {
            let orderID = try parseOrderID(id)
            let request = ReturnRequest(orderID: orderID, product: product, quantity: quantity, restock: restock,
                                        reason: try RefundRules.checkReason(refund.reason))
            let order = try await context.services.orders.order(orderID)
            let (lineNumber, amount) = try RefundRules.plan(request, order: order)
            let line = order.lines[lineNumber - 1]
            let planned = OrderRefund(id: 0, orderID: orderID, lineNumber: lineNumber, productID: line.productID, sku: line.sku,
                                      quantity: quantity, restocked: restock && line.productID != nil, amount: amount,
                                      reason: request.reason, operatorName: "", createdAt: "")
            let summary = "refund \(amount) to \(order.customer) for \(quantity) × \(line.sku) returned from order \(orderID)"
                + (planned.restocked ? " (back into stock)" : "")
            try await refund.giveBack(planned, summary: summary, order: order, context: context) {
                try await context.services.orders.returnUnits(request)
            }
        }
    }

    /// `orders refund ID --amount X --reason TEXT`.
    struct Refund: ShellCommand {
        static let operation: ShopOperation? = .refundOrder
        static let configuration = CommandConfiguration(
            abstract: "Refund money of an order, tied to no units (goodwill, shipping).",
            discussion: """
                For a paid, shipped or delivered order; never more than is left to refund (what was paid less the \
                refunds so far). The amount is in the order's currency (`12.50` or `12.50 USD`). Asks at a terminal, \
                naming the amount (--yes skips it); scripts and pipes are never asked; --dry-run shows the refund only.
                """)

        @Argument(help: "The order's id.", completion: .shop(.order))
        var id: String

        @Option(help: ArgumentHelp("How much, in the order's currency.", valueName: "amount"))
        var amount: String

        @OptionGroup var refund: RefundOptions

        func run(in context: CommandContext) async throws {
            let orderID = try parseOrderID(id)
            let reasonText = try RefundRules.checkReason(refund.reason)
            let order = try await context.services.orders.order(orderID)
            let money = try Self.parseAmount(amount, currency: order.total.currency)
            try RefundRules.checkAmount(money, order: order)
            let planned = OrderRefund(id: 0, orderID: orderID, lineNumber: nil, productID: nil, sku: nil, quantity: 0,
                                      restocked: false, amount: money, reason: reasonText, operatorName: "", createdAt: "")
            try await refund.giveBack(planned, summary: "refund \(money) to \(order.customer) on order \(orderID)", order: order,
                                      context: context) {
                try await context.services.orders.refund(orderID, amount: money, reason: reasonText)
            }
        }

        /// `12.50` or `12.50 USD` (the code must be the order's).
        static func parseAmount(_ text: String, currency: Currency) throws(ShopError) -> Money {
            let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard words.count == 1 || words.count == 2 else {
                throw .invalidInput("invalid amount \"\(text)\": expected an amount in \(currency.code), like 12.50")
            }
            if words.count == 2, words[1].uppercased() != currency.code {
                throw .invalidInput("the order was paid in \(currency.code): a refund is in \(currency.code), not \(words[1])")
            }
            return try Money.parse(words[0], currency: currency)
        }
    }
}

// MARK: - Shared

/// `--reason`, `--yes`, `--dry-run`, `--currency` and the output options of `orders return` and `orders refund`.
struct RefundOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Why (kept with the refund and in the audit log).", valueName: "text"))
    var reason: String

    @OptionGroup var preview: ChangePreviewOptions
    @OptionGroup var currencyOption: CurrencyOption
    @OptionGroup var output: OutputOptions

    /// Shows a planned refund and asks (`preview`), then makes it (`give`), prints it and says
    /// where the order stands.
    func giveBack(_ planned: OrderRefund, summary: String, order: Order, context: CommandContext,
                  give: () async throws -> OrderRefund) async throws {
        let display = try await context.moneyDisplay(currencyOption)
        let columns = OrderRows.refundColumns(display)
        let (apply, _) = try await context.proceed(with: summary, affecting: 1, things: "refunds", preview) {
            var cells = try OrderRows.refundCells(planned, display)
            cells[0] = .null
            try context.record(columns: columns, row: cells, options: output)
        }
        guard apply else { return }
        let refund = try await give()
        try context.record(columns: columns, row: OrderRows.refundCells(refund, display), options: output)
        let after = try await context.services.orders.order(order.id)
        let what = refund.lineNumber == nil ? "" : " for \(refund.quantity) × \(refund.sku ?? "?")\(refund.restocked ? " (back in stock)" : "")"
        context.note("order \(order.id): refunded \(refund.amount)\(what); "
                     + (after.status == .refunded ? "the order is now refunded" : "\(after.leftToRefund) left to refund"))
    }
}

/// Moves an order and shows it, with a note of what changed.
private func changeStatus(_ id: Int64, to status: OrderStatus, currencyOption: CurrencyOption, output: OutputOptions,
                          context: CommandContext) async throws {
    let display = try await context.moneyDisplay(currencyOption)
    let before = try await context.services.orders.order(id)
    let after = try await context.services.orders.setOrderStatus(id, status)
    try context.record(columns: OrderRows.columns(display), row: OrderRows.cells(after, display), options: output)
    var note = "order \(id): \(before.status.rawValue) → \(after.status.rawValue)"
    if status == .cancelled {
        let restocked = after.lines.filter { $0.productID != nil }.totalQuantity
        note += " (\(restocked) item\(restocked == 1 ? "" : "s") put back in stock)"
    }
    context.note(note)
}

/// Renders an order with its lines: in csv and tsv each line carries its order id and the totals go to stderr.
private func showOrder(_ order: Order, notes: [ShopCore.Note], display: MoneyDisplay, output: OutputOptions,
                       context: CommandContext) throws {
    var view = NestedView(record: (OrderRows.columns(display), try OrderRows.cells(order, display)), key: "lines",
                          rows: (OrderRows.lineColumns(display, withOrderID: false),
                                 try OrderRows.lineCells(order, display, withOrderID: false)))
    view.flatRows = (OrderRows.lineColumns(display, withOrderID: true), try OrderRows.lineCells(order, display, withOrderID: true))
    view.sections = [("refunds", OrderRows.refundColumns(display, withOrderID: false),
                      try order.refunds.map { try OrderRows.refundCells($0, display, withOrderID: false) },
                      OrderRows.refundTableView.fields),
                     ("notes", NoteRows.columns, notes.map(NoteRows.cells), NoteRows.tableView.fields)]
    try context.nested(view, options: output, tableView: OrderRows.lineTableView.appending(display.extraColumns.map(\.key)),
                       emptyNote: "order \(order.id) has no lines",
                       flatNote: { try OrderRows.summary(order, display) })
}

/// An order id: a positive whole number.
func parseOrderID(_ text: String) throws(ShopError) -> Int64 {
    let trimmed = text.trimmingASCIISpaces
    let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
    guard let id = Int64(digits), id > 0, digits.allSatisfy(\.isASCII), !digits.hasPrefix("+") else {
        throw .invalidInput("invalid order id \"\(text)\": expected a positive whole number, like 12")
    }
    return id
}

