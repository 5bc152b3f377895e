// BasketCommand: the `basket` plugin: a customer's basket (show, add, set, remove, clear, total)
// and checkout, which turns it into an order; every basket at once (list: the abandoned ones).
// USER may be left out after `use USER`.

import ArgumentParser
import Glibc
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// The basket plugin, as the executable registers it.
public let basketPlugin = ShellPlugin(BasketCommand.self)

/// `basket`.
struct BasketCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basket",
        abstract: "Look into and change a customer's basket; check it out into an order.",
        discussion: """
            USER is an id, username or email and may be left out after `use USER`; PRODUCT is an id or SKU. \
            Quantities are whole numbers from 1 to \(BasketLimits.maxQuantity).
            """,
        subcommands: [Show.self, Add.self, Set.self, Remove.self,
                      Clear.self, Total.self, Explain.self, Coupon.self, Checkout.self, List.self])
}

extension BasketCommand {
    /// `basket show [USER]`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show a basket's lines and totals.",
            discussion: """
                Table, csv and tsv list the lines and print the totals on stderr. json prints one object: \
                {"user_id", "user", "total_quantity", "total", "discounted_total", "currency", "coupon", \
                "coupon_discount", "coupon_reason", "coupon_note", "to_pay", "lines": [...]}; ndjson prints the same \
                object on one line. coupon_discount is what the coupon gives now; when it gives nothing, coupon_reason \
                says why (expired, below minimum, no eligible line, used up, …). --fields picks the lines' fields.
                """)

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @OptionGroup var asOf: AsOfOption
        @Flag(help: "Then print each change as it happens (one JSON object per line with -o ndjson), until Ctrl-C.")
        var follow = false

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            if follow, asOf.asOf != nil { throw ShopError.usage("--follow shows the basket from now on: it cannot start --as-of a past time") }
            if follow { try FollowOutput.checkFormat(context.format(output), streamsRows: false) }
            let moment = try await asOf.moment(in: context)
            let lastSeen = follow ? try await context.services.history.lastAuditID() : 0
            let basket = if let moment {
                try await PastShop(services: context.services, moment: moment).basket(user)
            } else {
                try await context.services.baskets.basket(user)
            }
            let display = try await context.moneyDisplay(currencyOption)
            let quote = try basket.couponQuote(on: moment.flatMap { CalendarDay(iso: String($0.description.prefix(10))) } ?? context.services.clock.day)
            var view = NestedView(record: (BasketRows.showColumns(display), try BasketRows.showCells(basket, quote, display)),
                                  key: "lines",
                                  rows: (BasketRows.lineColumns(display), try basket.lines.map { try BasketRows.cells($0, display) }))
            view.tableShowsRecord = false
            try context.nested(view, options: output, tableView: BasketRows.lineTableView(display),
                               emptyNote: "the basket of \(basket.user.username) is empty",
                               flatNote: { try BasketRows.summary(basket, quote, display) })
            if follow { try await BasketFollower(user: basket.user, display: display).run(after: lastSeen, output: output, context: context) }
        }
    }

    /// `basket add [USER] PRODUCT [--qty N]`.
    struct Add: ShellCommand {
        static let operation: ShopOperation? = .addToBasket
        static let configuration = CommandConfiguration(abstract: "Put a product in a basket (adding to the line if it is there).")

        @OptionGroup var words: CustomerArguments<ProductWord>

        @Option(name: .customLong("qty"), parsing: .unconditional, help: ArgumentHelp("How many to add (default 1).", valueName: "N"))
        var quantity: Int = 1

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, rest) = try words.resolve(in: context)
            let display = try await context.moneyDisplay(currencyOption)
            let line = try await context.services.baskets.addToBasket(user, product: rest[0], quantity: quantity)
            try await show(line, display, note: "added \(quantity) × \(line.sku) to the basket of \(user): now \(line.quantity)",
                           output: output, context: context)
        }
    }

    /// `basket set [USER] PRODUCT QTY`.
    struct Set: ShellCommand {
        static let operation: ShopOperation? = .setBasketQuantity
        static let configuration = CommandConfiguration(abstract: "Set how many of a product a basket holds (0 removes the line).")

        @OptionGroup var words: CustomerArguments<ProductAndQuantityWords>

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, rest) = try words.resolve(in: context)
            guard let quantity = Int(rest[1]), rest[1].allSatisfy(\.isASCII) else {
                throw ShopError.invalidInput("invalid quantity \"\(rest[1])\": expected a whole number from 0 to \(BasketLimits.maxQuantity)")
            }
            let display = try await context.moneyDisplay(currencyOption)
            guard let line = try await context.services.baskets.setBasketQuantity(user, product: rest[0], quantity: quantity) else {
                context.note("removed \(rest[0]) from the basket of \(user)")
                return
            }
            try await show(line, display, note: "the basket of \(user) now holds \(line.quantity) × \(line.sku)",
                           output: output, context: context)
        }
    }

    /// `basket remove [USER] PRODUCT`.
    struct Remove: ShellCommand {
        static let operation: ShopOperation? = .removeFromBasket
        static let configuration = CommandConfiguration(abstract: "Take a product out of a basket.")

        @OptionGroup var words: CustomerArguments<ProductWord>

        func run(in context: CommandContext) async throws {
            let (user, rest) = try words.resolve(in: context)
            try await context.services.baskets.removeFromBasket(user, product: rest[0])
            context.note("removed \(rest[0]) from the basket of \(user)")
        }
    }

    /// `basket clear [USER]`.
    struct Clear: ShellCommand {
        static let operation: ShopOperation? = .clearBasket
        static let configuration = CommandConfiguration(abstract: "Empty a basket.",
            discussion: "Asks for confirmation at a terminal (--yes skips it); scripts and pipes are never asked.")

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @Flag(name: [.short, .long], help: "Do not ask for confirmation at a terminal.")
        var yes = false

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            if !yes, context.canAsk {
                let lines = try await context.services.baskets.basket(user).lines
                guard !lines.isEmpty else { return context.note("the basket of \(user) was already empty") }
                let items = lines.totalQuantity
                guard try context.ask("clear the basket of \(user): \(lines.count) line\(lines.count == 1 ? "" : "s"), \(items) item\(items == 1 ? "" : "s")?") else {
                    return context.note("the basket of \(user) was not cleared")
                }
            }
            let count = try await context.services.baskets.clearBasket(user)
            context.note(count == 0 ? "the basket of \(user) was already empty"
                                    : "cleared the basket of \(user): \(count) line\(count == 1 ? "" : "s") removed")
        }
    }

    /// `basket total [USER]`.
    struct Total: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show a basket's totals.",
            discussion: "One record: user_id, user, lines, total_quantity, total, discounted_total, currency.")

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            let basket = try await context.services.baskets.basket(user)
            let display = try await context.moneyDisplay(currencyOption)
            try context.record(columns: BasketRows.totalsColumns(display), row: BasketRows.totalsCells(basket, display),
                               options: output)
        }
    }

    /// `basket checkout [USER]`.
    struct Checkout: ShellCommand {
        static let operation: ShopOperation? = .checkout
        static let configuration = CommandConfiguration(abstract: "Turn a basket into an order (stock is taken, the basket emptied).",
            discussion: """
                All or nothing: when any line lacks stock, nothing changes and the error names the products. The order \
                keeps a copy of where it goes: the customer's default shipping address, or --address ID (one of theirs: \
                users address USER list); a later change to their addresses leaves the order's copy as it was.
                """)

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @Option(name: .customLong("address"), parsing: .unconditional,
                help: ArgumentHelp("Ship to this saved address of the customer's instead of their default.", valueName: "ID"))
        var address: Int64?

        @Flag(name: .customLong("without-coupon"), help: "Check out at full price, taking the basket's coupon off.")
        var withoutCoupon = false

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            let display = try await context.moneyDisplay(currencyOption)
            let username = try await context.services.baskets.basket(user).user.username
            let order = try await context.services.baskets.checkout(user, shipTo: address, withoutCoupon: withoutCoupon)
            try context.record(columns: BasketRows.orderColumns(display),
                               row: BasketRows.orderCells(order, user: username, display), options: output)
            let coupon = order.coupon.map { " with coupon \($0.code) (−\($0.discount))" } ?? ""
            context.note("placed order \(order.id) for \(username): \(order.discountedTotal)\(coupon) (see: orders show \(order.id))")
        }
    }
}

extension BasketCommand {
    /// `basket coupon [USER] CODE` / `basket coupon [USER] --remove`.
    struct Coupon: ShellCommand {
        static let operation: ShopOperation? = .attachCoupon
        static let configuration = CommandConfiguration(
            abstract: "Put a coupon on a basket (one per basket), or take it off with --remove.",
            discussion: """
                Refused when the coupon can give nothing any more (disabled, expired, used up, the customer's limit \
                reached); one that starts later, or that the basket does not reach yet, may wait in the basket. \
                basket show says what it gives now; checkout applies it.
                """)

        @OptionGroup var words: CustomerArguments<CouponWord>

        @Flag(help: "Take the basket's coupon off.")
        var remove = false

        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            if remove {
                let user = try words.resolveCustomerOnly(in: context, because: "--remove")
                let basket = try await context.services.baskets.basket(user)
                _ = try await context.services.coupons.setBasketCoupon(user, code: nil)
                context.note("took coupon \(basket.coupon?.coupon.code ?? "") off the basket of \(basket.user.username)")
                return
            }
            let (user, rest) = try words.resolve(in: context)
            _ = try await context.services.coupons.setBasketCoupon(user, code: rest[0])
            let basket = try await context.services.baskets.basket(user)
            let display = try await context.moneyDisplay(currencyOption)
            let quote = try basket.couponQuote(on: context.services.clock.day)
            try context.record(columns: BasketRows.showColumns(display), row: try BasketRows.showCells(basket, quote, display),
                               options: output)
            context.note(try BasketRows.summary(basket, quote, display))
        }
    }
}

/// Shows a changed line with `note`, and warns when it holds more than the shop has.
private func show(_ line: BasketLine, _ display: MoneyDisplay, note: String, output: OutputOptions,
                  context: CommandContext) async throws {
    try context.record(columns: BasketRows.lineColumns(display), row: BasketRows.cells(line, display), options: output)
    context.note(note)
    try await warnAboutStock(line, context: context)
}

/// A note when a line holds more than the shop has: checkout would refuse it.
private func warnAboutStock(_ line: BasketLine, context: CommandContext) async throws {
    let stock: Int
    if let known = line.stock {
        stock = known
    } else {
        stock = try await context.services.products.product(String(line.productID)).stock
    }
    if line.quantity > stock {
        context.note("note: only \(stock) of \(line.sku) in stock; checkout needs \(line.quantity)")
    }
}

extension BasketCommand {
    /// `basket list [--idle 7d] [--min-total X] [--sort total:desc]`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every non-empty basket: customer, lines, items, totals and last change.",
            discussion: """
                By user id unless --sort says otherwise (user_id, user, lines, total_quantity, total, \
                discounted_total, last_change). --idle keeps the baskets no line of which was added or \
                changed for that long (7d: a week; 0d: all); --min-total those whose total is at \
                least that amount (USD, before discounts).
                """)

        @Option(parsing: .unconditional, help: ArgumentHelp("Only baskets not touched for this long: 30m, 12h, 7d, 2w.", valueName: "time"))
        var idle: String?

        @Option(name: .customLong("min-total"), parsing: .unconditional, help: ArgumentHelp("Only baskets whose total is at least this (USD).", valueName: "amount"))
        var minTotal: String?

        @Flag(help: "Then print a basket's row again each time it changes (emptied: 0 lines), until Ctrl-C.")
        var follow = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var currencyOption: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            if follow { try FollowOutput.checkFormat(context.format(output), streamsRows: true) }
            let lastSeen = follow ? try await context.services.history.lastAuditID() : 0
            let cutoff = try idle.map { text throws(ShopError) in try IdleTime.parse(text, for: "--idle").before(Int64(time(nil))) }
            let minimum = try minTotal.map { text throws(ShopError) in try Money.parse(text, currency: .usd) }
            let page = try context.page(paging)
            for key in page.sort where !BasketRows.listSortFields.contains(key.field) {
                throw ShopError.invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(BasketRows.listSortFields.joined(separator: ", "))")
            }
            let display = try await context.moneyDisplay(currencyOption)
            func passes(_ basket: BasketSummary) -> Bool {
                (cutoff.map { basket.lastChange <= $0 } ?? true) && (minimum.map { basket.total.minorUnits >= $0.minorUnits } ?? true)
            }
            let columns = BasketRows.listColumns(display)
            // The store filters, sorts and pages what it keeps per basket: a page never reads every basket.
            let query = BasketListQuery(changedBefore: cutoff, minTotal: minimum?.minorUnits, page: page)
            try await context.list(columns: columns, tableView: BasketRows.listTableView(columns), options: output, page: page,
                                   emptyNote: "no baskets match") { emit in
                try await context.services.baskets.listBaskets(query) { basket in try emit(try BasketRows.listCells(basket, display)) }
            }
            guard follow else { return }
            let stream = try FollowOutput(columns: columns, options: output, context: context)
            try await AuditFollower.follow(after: lastSeen, filter: AuditFilter(), context: context) { rows in
                var touched: [Int64] = []
                for row in rows {
                    let userID = row.entity == AuditEntity.basket.rawValue ? Int64(row.entityID)
                        : row.action == "checkout" ? row.after?["user"].flatMap { if case .integer(let id) = $0 { id } else { nil } } : nil
                    if let userID, !touched.contains(userID) { touched.append(userID) }
                }
                guard !touched.isEmpty else { return }
                var now: [Int64: BasketSummary] = [:]
                try await context.services.baskets.listBaskets(BasketListQuery()) { if touched.contains($0.userID) { now[$0.userID] = $0 } }
                for userID in touched {
                    let basket = if let found = now[userID] { found } else {
                        BasketSummary(userID: userID, username: (try? await context.services.users.user(String(userID)).username) ?? "",
                                      lines: 0, items: 0, total: Money(minorUnits: 0, currency: .usd),
                                      discountedTotal: Money(minorUnits: 0, currency: .usd), lastChange: rows.last?.time ?? "")
                    }
                    guard basket.lines == 0 || passes(basket) else { continue }
                    try stream.emit(row: try BasketRows.listCells(basket, display),
                                    line: "\(basket.username): \(basket.lines) lines, \(basket.items) items, \(basket.total) (\(basket.lastChange))")
                }
                try stream.flush()
            }
        }
    }
}
