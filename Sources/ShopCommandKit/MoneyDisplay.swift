// MoneyDisplay: how a command shows money: as stored, or converted with --currency / `set currency`
// at the rates ShopCore picks for the pair (`CurrencyService.ratePair`).

import ArgumentParser
import ShopCore
import ShopOutput
import ShellKit

/// `--currency CODE`, for every command that shows money.
public struct CurrencyOption: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Show money in this currency (ECB rates through EUR), e.g. EUR or JPY.", valueName: "code"),
            completion: .shop(.currency))
    public var currency: String?

    public init() {}
}

/// Converts amounts for display. Without a target currency it shows them as stored.
public struct MoneyDisplay: Sendable {
    /// The currency shown, when converting.
    public let target: Currency?
    /// The rates used (from the shop's base currency to `target`), when converting.
    public let rates: RatePair?

    /// No conversion.
    public static let asStored = MoneyDisplay(target: nil, rates: nil)

    init(target: Currency?, rates: RatePair?) {
        self.target = target
        self.rates = rates
    }

    /// The date of the rates used, when converting.
    public var rateDate: String? { rates?.date }

    /// `money` in the target currency (rounded once), or unchanged.
    public func convert(_ money: Money) throws(ShopError) -> Money {
        guard let target, target != money.currency else { return money }
        guard let rates else { throw .notFound("no exchange rate for \(money.currency.code) → \(target.code)") }
        return try rates.convert(money, to: target)
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
        let target = try await services.currencies.currency(code)
        let rates = try await services.currencies.ratePair(from: base.code, to: target.code, on: nil)
        if let note = rates.stalenessNote { self.note(note) }
        return MoneyDisplay(target: target, rates: rates)
    }
}
