// CouponsCommand: the `coupons` plugin — promotion codes: add one, generate many, list them with
// where they stand, show one with the orders that used it, disable one. Only an admin changes
// coupons (ShopOperation.manageCoupons); `basket coupon` attaches one to a basket.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// The coupons plugin, as the executable registers it.
public let couponsPlugin = ShellPlugin(CouponsCommand.self)

/// `coupons`.
struct CouponsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coupons",
        abstract: "Promotion codes: add, generate, list, show and disable coupons.",
        discussion: """
            CODE is case-insensitive (kept upper case): letters, digits, - and _. A coupon takes --percent P of \
            its eligible lines' total after product discounts (rounded once, half away from zero) or a fixed \
            --amount (capped at that total); the discount is split over the eligible lines in proportion (largest \
            remainder), so a return refunds exactly its line's part. Attach one to a basket with basket coupon USER CODE.
            """,
        subcommands: [List.self, Show.self, Add.self, Generate.self, Disable.self])
}

/// What `coupons add` and `coupons generate` share: the coupon's terms.
struct CouponTerms: ParsableArguments {
    @Option(help: ArgumentHelp("Take this percentage off (0.01 to 100).", valueName: "P"))
    var percent: String?

    @Option(help: ArgumentHelp("Take this amount off: --amount X CUR (or 'X CUR'; USD when no currency is given).", valueName: "X"))
    var amount: String?

    @Argument(help: ArgumentHelp("The currency of --amount X (default USD).", valueName: "cur"), completion: .shop(.currency))
    var amountCurrency: String?

    @Option(name: .customLong("min-total"), help: ArgumentHelp("Only for baskets of at least this total after product discounts, in the coupon's currency.", valueName: "X"))
    var minTotal: String?

    @Option(help: ArgumentHelp("The first day it may be used (UTC).", valueName: "YYYY-MM-DD"))
    var starts: String?

    @Option(help: ArgumentHelp("The last day it may be used (UTC, the whole day).", valueName: "YYYY-MM-DD"))
    var expires: String?

    @Option(name: .customLong("max-uses"), help: ArgumentHelp("Uses in all.", valueName: "N"))
    var maxUses: Int?

    @Option(name: .customLong("per-customer"), help: ArgumentHelp("Uses per customer.", valueName: "N"))
    var perCustomer: Int?

    @Option(help: ArgumentHelp("Only products of this category.", valueName: "slug"), completion: .shop(.category))
    var category: String?

    @Option(help: ArgumentHelp("Only these products (ids, comma-separated).", valueName: "ids"))
    var products: String?

    @Option(help: ArgumentHelp("A note for the team.", valueName: "text"))
    var description: String = ""

    /// The definition these options give, for `code`.
    func definition(code: String, currencies: any CurrencyService) async throws -> CouponDefinition {
        let value: CouponValue
        var currency = Currency.usd
        if amount == nil, let amountCurrency {
            throw ShopError.usage("unexpected argument \(amountCurrency.quotedForMessage()): a currency goes after --amount X")
        }
        switch (percent, amount) {
        case (let percent?, nil): value = .percent(try Percentage.parse(percent))
        case (nil, let amount?):
            let words = amount.split(separator: " ").map(String.init) + (amountCurrency.map { [$0] } ?? [])
            guard (1...2).contains(words.count) else {
                throw ShopError.usage("--amount takes X [CUR], like 5 or 5 EUR")
            }
            if words.count == 2 { currency = try await currencies.currency(words[1].uppercased()) }
            value = .amount(try Money.parse(words[0], currency: currency))
        case (nil, nil): throw ShopError.usage("a coupon needs --percent P or --amount X [CUR]")
        case (_?, _?): throw ShopError.usage("give --percent or --amount, not both")
        }
        let scope: CouponScope
        switch (category, products) {
        case (let category?, nil): scope = .category(category)
        case (nil, let products?):
            var ids: [Int64] = []
            for part in products.split(separator: ",", omittingEmptySubsequences: false) {
                guard let id = Int64(String(part).trimmingASCIISpaces) else {
                    throw ShopError.usage("--products takes product ids separated by commas, like 1,2,3; not \(String(part).quotedForMessage())")
                }
                ids.append(id)
            }
            scope = .products(ids)
        case (nil, nil): scope = .everything
        case (_?, _?): throw ShopError.usage("give --category or --products, not both")
        }
        return CouponDefinition(
            code: code, value: value, minTotal: try minTotal.map { text throws(ShopError) in try Money.parse(text, currency: currency) },
            starts: try starts.map { text throws(ShopError) in try CalendarDay.validate(text, for: "--starts", typed: true) },
            expires: try expires.map { text throws(ShopError) in try CalendarDay.validate(text, for: "--expires", typed: true) },
            maxUses: maxUses, perCustomer: perCustomer, scope: scope, description: description)
    }
}

private extension String {
    /// `used up` → `used-up`: a state as one word.
    var replacingSpaces: String { String(map { $0 == " " || $0 == "_" ? "-" : $0 }) }
}

extension CouponsCommand {
    /// `coupons list [--prefix P] [--state S]`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "List coupons by code: terms, uses, what is left and where each stands.",
            discussion: "--state is one of: \(CouponState.allCases.map { $0.rawValue.replacingSpaces }.joined(separator: ", ")) (today, UTC).")

        @Option(help: ArgumentHelp("Only codes beginning with this.", valueName: "prefix"))
        var prefix: String?

        @Option(help: ArgumentHelp("Only coupons in this state.", valueName: "state"),
                completion: .list(CouponState.allCases.map { $0.rawValue.replacingSpaces }))
        var state: String?

        @OptionGroup var paging: PagingOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let wanted = try state.map { text throws(ShopError) in
                guard let state = CouponState.allCases.first(where: { $0.rawValue.replacingSpaces == text.lowercased().replacingSpaces }) else {
                    throw ShopError.usage("invalid --state \(text.quotedForMessage()): one of \(CouponState.allCases.map { $0.rawValue.replacingSpaces }.joined(separator: ", "))")
                }
                return state
            }
            var page = try context.page(paging)
            if wanted != nil { page.limit = nil }
            let today = context.services.clock.day
            try await context.list(columns: CouponRows.columns, tableView: CouponRows.tableView, options: output, page: page,
                                   emptyNote: "no coupons") { emit in
                try await context.services.coupons.listCoupons(CouponFilter(prefix: prefix), page: page) { coupon in
                    if let wanted, coupon.state(on: today) != wanted { return }
                    try emit(CouponRows.cells(coupon, today: today))
                }
            }
        }
    }

    /// `coupons show CODE`.
    struct Show: ShellCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a coupon with the orders that used it and the discount each got.",
            discussion: "json: the coupon's fields and \"orders\": [{order_id, customer, status, used_at, discount, currency}].")

        @Argument(help: "The coupon's code (any case).", completion: .shop(.coupon))
        var code: String

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let coupon = try await context.services.coupons.coupon(code)
            let uses = try await context.services.coupons.couponUses(code)
            let view = NestedView(record: (CouponRows.columns, CouponRows.cells(coupon, today: context.services.clock.day)),
                                  key: "orders", rows: (CouponRows.useColumns, uses.map(CouponRows.useCells)))
            try context.nested(view, options: output, emptyNote: "coupon \(coupon.code) was not used yet",
                               flatNote: { "coupon \(coupon.code): \(coupon.uses) use\(coupon.uses == 1 ? "" : "s")" })
        }
    }

    /// `coupons add CODE (--percent P | --amount X [CUR]) …`.
    struct Add: ShellCommand {
        static let operation: ShopOperation? = .manageCoupons
        static let configuration = CommandConfiguration(abstract: "Add a coupon.")

        @Argument(help: "The code (letters, digits, - and _; any case).")
        var code: String

        @OptionGroup var terms: CouponTerms
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let definition = try await terms.definition(code: code, currencies: context.services.currencies)
            let added = try await context.services.coupons.addCoupons([definition])
            for coupon in added {
                try context.record(columns: CouponRows.columns, row: CouponRows.cells(coupon, today: context.services.clock.day),
                                   options: output)
                context.note("added coupon \(coupon.code): \(coupon.value.described) off \(coupon.scope.described)")
            }
        }
    }

    /// `coupons generate N --prefix BF- …`.
    struct Generate: ShellCommand {
        static let operation: ShopOperation? = .manageCoupons
        static let configuration = CommandConfiguration(
            abstract: "Generate N coupons with unguessable codes (from the system's CSPRNG), one per customer to mail.",
            discussion: """
                Codes are the prefix and \(CouponRules.generatedLength) symbols of \(String(CouponRules.generatedAlphabet)) \
                (no 0/O, 1/I/L look-alikes). All are added in one transaction, or none. Every format lists them: \
                -o csv --fields code for a mail merge.
                """)

        @Argument(help: ArgumentHelp("How many (1 to \(CouponRules.maxGenerated)).", valueName: "N"))
        var count: Int

        @Option(help: ArgumentHelp("What every code begins with, like BF-.", valueName: "prefix"))
        var prefix: String = ""

        @OptionGroup var terms: CouponTerms
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            var generator = SystemRandomNumberGenerator()
            let codes = try CouponRules.generate(count, prefix: prefix, using: &generator)
            let definition = try await terms.definition(code: codes.first ?? "", currencies: context.services.currencies)
            let added = try await context.services.coupons.addCoupons(codes.map(definition.withCode))
            let today = context.services.clock.day
            try await context.list(columns: CouponRows.columns, defaultFields: ["code", "value", "expires", "max_uses", "per_customer"],
                                   tableView: CouponRows.tableView, options: output, page: .all, emptyNote: "no coupons") { emit in
                for coupon in added { try emit(CouponRows.cells(coupon, today: today)) }
            }
            context.note("added \(added.count) coupon\(added.count == 1 ? "" : "s"): \(definition.value.described) off \(definition.scope.described)")
        }
    }

    /// `coupons disable CODE`.
    struct Disable: ShellCommand {
        static let operation: ShopOperation? = .manageCoupons
        static let configuration = CommandConfiguration(
            abstract: "Disable a coupon: baskets holding it can no longer check out with it; orders keep it.")

        @Argument(help: "The coupon's code (any case).", completion: .shop(.coupon))
        var code: String

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let coupon = try await context.services.coupons.disableCoupon(code)
            try context.record(columns: CouponRows.columns, row: CouponRows.cells(coupon, today: context.services.clock.day), options: output)
            context.note("coupon \(coupon.code) is disabled")
        }
    }
}
