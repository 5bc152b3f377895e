// CurrencyCommand: the `currency` plugin: ECB rates, conversion, ISO 4217 codes, rate imports.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput

/// The currency plugin, as the executable registers it.
public let currencyPlugin = ShellPlugin(CurrencyCommand.self)

/// `currency`.
struct CurrencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "currency",
        abstract: "Exchange rates (ECB, against EUR), conversion and ISO 4217 codes.",
        subcommands: [Rates.self, Convert.self, Codes.self, Import.self])
}

/// `--date YYYY-MM-DD`.
struct RateDateOption: ParsableArguments {
    @Option(help: ArgumentHelp("Use the rates of this day (or the latest day before it with rates).", valueName: "YYYY-MM-DD"))
    var date: String?

    func validate() throws {
        if let date {
            do {
                _ = try CalendarDay.validate(date, for: "--date")
            } catch {
                throw ValidationError(error.message)
            }
        }
    }
}

extension CurrencyCommand {
    /// `currency rates [--date D]`.
    struct Rates: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Show each currency's latest rate against EUR, with its own date.",
            discussion: "With --date, the latest rate of each currency on or before that day.")

        @OptionGroup var date: RateDateOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let rates = try await context.services.currencies.rates(on: date.date)
            let columns = ["currency", "rate", "base", "date"].map(Column.init)
            try await context.list(columns: columns, options: output, page: Page(), emptyNote: "no rates") { emit in
                for rate in rates {
                    try emit([.text(rate.currency), .decimal(rate.rate.normalized), .text("EUR"), .text(rate.date)])
                }
            }
        }
    }

    /// `currency convert AMOUNT FROM TO [--date D]`.
    struct Convert: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Convert an amount between currencies through EUR cross rates.",
            discussion: """
                Both currencies' rates come from the latest day (on or before --date) on which both have one \
                (EUR, the base, has one every day); rate_date names it, and a note on stderr says when that day \
                is more than 7 days older than the newest rates. The result is rounded once, half away from zero, \
                to the target currency's minor unit (JPY 0 digits, KWD 3).
                """)

        @Argument(help: "The amount, e.g. 100 or 12.50.")
        var amount: String

        @Argument(help: "The currency it is in, e.g. USD.", completion: .shop(.currency))
        var from: String

        @Argument(help: "The currency to convert to, e.g. JPY.", completion: .shop(.currency))
        var to: String

        @OptionGroup var date: RateDateOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let currencies = context.services.currencies
            let source = try await currencies.currency(from)
            let target = try await currencies.currency(to)
            let money = try Money.parse(amount, currency: source)
            let rates = try await currencies.ratePair(from: source.code, to: target.code, on: date.date)
            if let note = rates.stalenessNote { context.note(note) }
            let converted = try rates.convert(money, to: target)
            // The cross rate, for information (the conversion itself uses the exact rates).
            let crossRate = try rates.crossRate()
            let columns = ["amount", "from", "converted", "to", "rate", "rate_date"].map(Column.init)
            try context.record(columns: columns, row: [
                .decimal(money.amount), .text(source.code), .decimal(converted.amount), .text(target.code),
                .decimal(crossRate.normalized), .text(rates.date),
            ], options: output)
        }
    }

    /// `currency codes`.
    struct Codes: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List ISO 4217 currency codes with their minor units.")

        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let currencies = try await context.services.currencies.currencies()
            let columns = ["code", "name", "minor_units"].map(Column.init)
            try await context.list(columns: columns, options: output, page: Page(), emptyNote: "no currencies") { emit in
                for currency in currencies {
                    try emit([.text(currency.code), .text(currency.name), currency.minorUnits.map { .integer(Int64($0)) } ?? .null])
                }
            }
        }
    }

    /// `currency import FILE`.
    struct Import: ShellCommand {
        static let operation: ShopOperation? = .importRates
        static let configuration = CommandConfiguration(abstract: "Import ECB rates: daily XML, daily CSV or the full history CSV (all or nothing).",
            discussion: "Refuses, naming the line, days that do not exist, codes not in the ISO 4217 list (see: currency codes) and a EUR rate other than 1.")

        @Argument(help: "An ECB rates file.", completion: .file(extensions: ["xml", "csv"]))
        var file: String

        func run(in context: CommandContext) async throws {
            let rates: [CurrencyRate]
            do {
                rates = try await context.services.currencies.importRates(from: try FileInput.read(file))
            } catch ShopError.invalidInput(let message) {
                throw ShopError.invalidInput("\(file): \(message)")
            }
            let count = rates.count
            let dates = Set(rates.map(\.date)).sorted()
            let span = dates.count == 1 ? "for \(dates[0])" : "for \(dates.count) days, \(dates.first ?? "") to \(dates.last ?? "")"
            context.note("imported \(count) rates \(span) from \(file)")
        }
    }
}
