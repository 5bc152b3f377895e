// MoneyDisplay: how a command shows money: as stored, or converted with --currency / `set currency`.

import ArgumentParser
import ShopCore
import ShopOutput

/// `--currency CODE`, for every command that shows money.
public struct CurrencyOption: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Show money in this currency (ECB rates through EUR), e.g. EUR or JPY.", valueName: "code"))
    public var currency: String?

    public init() {}
}

/// Converts amounts for display. Without a target currency it shows them as stored.
public struct MoneyDisplay: Sendable {
    /// The currency shown, when converting.
    public let target: Currency?
    /// The date of the rates used, when converting.
    public let rateDate: String?
    private let rates: [String: ExactDecimal]

    /// No conversion.
    public static let asStored = MoneyDisplay(target: nil, rateDate: nil, rates: [:])

    init(target: Currency?, rateDate: String?, rates: [String: ExactDecimal]) {
        self.target = target
        self.rateDate = rateDate
        self.rates = rates
    }

    /// `money` in the target currency (rounded once), or unchanged.
    public func convert(_ money: Money) throws(ShopError) -> Money {
        guard let target, target != money.currency else { return money }
        guard let source = rates[money.currency.code], let destination = rates[target.code] else {
            throw .notFound("no exchange rate for \(money.currency.code) → \(target.code)")
        }
        return try CurrencyConverter.convert(money, to: target, sourceRate: source, targetRate: destination)
    }

    /// The amount cell of `money` as shown.
    public func cell(_ money: Money) throws(ShopError) -> Cell { .decimal(try convert(money).amount) }

    /// The currency code shown for `money`.
    public func code(_ money: Money) -> String { target?.code ?? money.currency.code }

    /// Columns that say which rates were used (`rate_date`) when converting; none otherwise.
    public var extraColumns: [Column] { target == nil ? [] : [Column("rate_date")] }
    public var extraCells: [Cell] { target == nil ? [] : [.text(rateDate ?? "")] }
}

extension CommandContext {
    /// The money display for this command: its `--currency`, else `set currency`, else as stored.
    public func moneyDisplay(_ option: CurrencyOption, base: Currency = .usd) async throws -> MoneyDisplay {
        guard let code = (option.currency ?? session.currency)?.uppercased(), code != base.code else { return .asStored }
        guard Currency.isWellFormedCode(code) else {
            throw ShopError.invalidInput("invalid currency code \"\(code)\": expected three letters like EUR")
        }
        let currencies = services.currencies
        let target = try await currencies.currency(code)
        let baseRate = try await currencies.rate(base.code, on: nil)
        let targetRate = try await currencies.rate(code, on: baseRate.date)
        guard targetRate.date == baseRate.date else {
            throw ShopError.notFound("no \(code) rate on \(baseRate.date), the date of the latest \(base.code) rate")
        }
        return MoneyDisplay(target: target, rateDate: baseRate.date,
                            rates: [base.code: baseRate.rate, code: targetRate.rate])
    }
}
