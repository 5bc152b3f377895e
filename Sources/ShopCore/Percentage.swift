// Percentage and Rating: small exact decimals with two digits, used for discounts and ratings.

/// A percentage with two decimals held exactly, e.g. a 10.48 % discount is 1048 hundredths.
public struct Percentage: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let hundredths: Int

    public init(hundredths: Int) { self.hundredths = hundredths }

    public static let zero = Percentage(hundredths: 0)

    /// Every percentage a shop keeps (a discount): 0 to 100 %, in hundredths. The stores'
    /// CHECK constraints read this bound too.
    public static let hundredthsRange = 0...10_000

    public var decimal: ExactDecimal { ExactDecimal(units: Int64(hundredths), scale: 2) }
    public var description: String { decimal.description }

    /// Parses `10`, `10.5` or `10.48` in the range 0…100.
    public static func parse(_ text: String) throws(ShopError) -> Percentage {
        guard let value = ExactDecimal.parse(text, maxScale: 2), value.units <= Int64(hundredthsRange.upperBound) else {
            throw .invalidInput("invalid percentage \"\(text)\": expected a number from 0 to 100 with at most 2 decimals")
        }
        return Percentage(hundredths: Int(value.units))
    }

    public static func < (lhs: Percentage, rhs: Percentage) -> Bool { lhs.hundredths < rhs.hundredths }
}

/// A product rating from 0 to 5 with two decimals, held exactly (4.94 is 494 hundredths).
public struct Rating: Hashable, Sendable, CustomStringConvertible {
    public let hundredths: Int

    public init(hundredths: Int) { self.hundredths = hundredths }

    public var decimal: ExactDecimal { ExactDecimal(units: Int64(hundredths), scale: 2) }
    public var description: String { decimal.description }
}
