// Currency: an ISO 4217 code with the number of minor-unit digits that decides rounding.

/// An ISO 4217 currency: its three-letter code and how many digits its minor unit has
/// (USD 2, JPY 0, KWD 3).
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    public let code: String
    public let minorUnitDigits: Int

    public init(code: String, minorUnitDigits: Int) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
    }

    public var description: String { code }

    /// The shop's base currency: prices are stored in US dollars.
    public static let usd = Currency(code: "USD", minorUnitDigits: 2)
    /// The ECB reference rates are quoted against the euro.
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2)

    /// Whether `code` has the shape of an ISO 4217 code (three ASCII capital letters).
    public static func isWellFormedCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}
