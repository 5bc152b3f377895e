// ChoiceArgumentsTests: an option typed with one of the shop's closed sets takes each name in any
// case, refuses anything else through argument-parser with every name listed on one line, and
// offers the names to Tab — all from the type's declaration.

import ArgumentParser
import ShellKit
import ShopCommandKit
import ShopCore
import Testing

/// A command with one option of each kind, to parse lines with.
private struct Choices: ParsableCommand {
    @Option var status: OrderStatus?
    @Option var by: OrderStatsGrouping = .day
    @Option var role: UserRole?
    @Option var state: UserStatus?
    @Option var entity: AuditEntity?
    @Option var rank: TopRanking = .revenue
}

@Suite struct ChoiceArgumentsTests {
    /// Every name of `type`, as typed by someone in a hurry, parses to its case; the type's values
    /// for help and Tab are exactly its cases' names.
    func check<T: ChoiceArgument>(_ type: T.Type) {
        let names = T.allCases.map(\.rawValue)
        #expect(T.allValueStrings == names)
        #expect(T.choices == names.joined(separator: ", "))
        #expect(String(describing: T.defaultCompletionKind) == String(describing: CompletionKind.list(names)))
        for value in T.allCases {
            #expect(T(argument: value.rawValue)?.rawValue == value.rawValue)
            #expect(T(argument: " \(value.rawValue.uppercased()) ")?.rawValue == value.rawValue)
        }
        #expect(T(argument: "") == nil)
        #expect(T(argument: "no such \(T.self)") == nil)
    }

    @Test func everyShopChoiceTakesItsNamesInAnyCase() {
        check(OrderStatus.self)
        check(OrderStatsGrouping.self)
        check(UserRole.self)
        check(UserStatus.self)
        check(AuditEntity.self)
        check(TopRanking.self)
    }

    @Test func aRankingTakesTheReportsColumnNamesToo() {
        #expect(TopRanking(argument: "net")?.rank == .net)
        #expect(TopRanking(argument: "ITEMS")?.rank == .items)
        #expect(TopRanking(argument: "revenue")?.rank == .net)
        #expect(TopRanking(argument: "units")?.rank == .items)
    }

    @Test func aLineParsesToTheChosenCases() throws {
        let parsed = try Choices.parse(["--status", "Shipped", "--by", "CUSTOMER", "--role", "moderator",
                                        "--state", "disabled", "--entity", "favourite", "--rank", "items"])
        #expect(parsed.status == .shipped && parsed.by == .customer && parsed.role == .moderator)
        #expect(parsed.state == .disabled && parsed.entity == .favourite && parsed.rank == .units)
        let defaults = try Choices.parse([])
        #expect(defaults.status == nil && defaults.by == .day && defaults.rank == .revenue)
    }

    /// argument-parser lists more than a few values one a line; the shell's error is one line
    /// naming each of them.
    @Test(arguments: [(["--by", "year"], "'--by <by>'", OrderStatsGrouping.allCases.map(\.rawValue)),
                      (["--entity", "planet"], "'--entity <entity>'", AuditEntity.allCases.map(\.rawValue)),
                      (["--status", "lost"], "'--status <status>'", OrderStatus.allCases.map(\.rawValue)),
                      (["--role", "boss"], "'--role <role>'", UserRole.allCases.map(\.rawValue))])
    func aWrongNameIsRefusedInOneLineNamingEveryChoice(_ arguments: [String], _ option: String, _ names: [String]) {
        do {
            _ = try Choices.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let message = ParserMessage.oneLine(Choices.self, error)
            #expect(!message.contains("\n"))
            #expect(message.hasPrefix("The value '\(arguments[1])' is invalid for \(option). Please provide one of "))
            let quoted = names.map { "'\($0)'" }
            #expect(message.hasSuffix(quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1] + "."),
                    "\(message)")
        }
    }

    @Test func aMessageWithoutAListIsKeptAsItWasOnOneLine() {
        #expect(ParserMessage.oneLine("Missing expected argument '<id>'") == "Missing expected argument '<id>'")
        #expect(ParserMessage.oneLine("first\nsecond") == "first second")
        #expect(ParserMessage.oneLine("Please provide one of the following:\n  - a\n  - b\n") == "Please provide one of 'a' or 'b'.")
    }
}
