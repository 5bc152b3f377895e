// ChoiceArguments: the shop's closed sets of names (order statuses, report groupings, roles, user
// statuses, audit entities, the best-of rankings) as argument-parser values. An option or argument
// declared with one of these types gets its help list, its Tab completions and its refusal of a
// wrong name from the type itself: one parser, and no hand-written check in a command's `run()`.

import ArgumentParser
import ShopCore

/// A closed set of names an option takes, matched ignoring case and the spaces around them.
public protocol ChoiceArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.trimmingASCIISpaces.lowercased())
    }

    /// The names, for help texts: `placed, paid, shipped, delivered, cancelled`.
    public static var choices: String { allValueStrings.joined(separator: ", ") }
}

extension OrderStatus: ChoiceArgument {}
extension OrderStatsGrouping: ChoiceArgument {}
extension UserRole: ChoiceArgument {}
extension UserStatus: ChoiceArgument {}
extension AuditEntity: ChoiceArgument {}

/// The reasons an operator gives a stock change (`products stock --reason`): StockReason's operator ones.
public enum StockChangeReason: String, ChoiceArgument, Sendable {
    case damaged, recount, supplier, correction

    public var stockReason: StockReason { StockReason(rawValue: rawValue) ?? .correction }
}

/// What a best-of list ranks by (`products top --by`, `users top --by`): revenue (net sales) or
/// units; `net` and `items`, the report's own column names, are taken too.
public enum TopRanking: String, ChoiceArgument, Sendable {
    case revenue, units

    public init?(argument: String) {
        switch argument.trimmingASCIISpaces.lowercased() {
        case "revenue", "net": self = .revenue
        case "units", "items": self = .units
        default: return nil
        }
    }

    /// The report's ranking.
    public var rank: OrderStatsRank {
        switch self {
        case .revenue: .net
        case .units: .items
        }
    }
}
