// CompletionEngineTests: the completion engine over a small command tree and a fake store.

import ArgumentParser
import Foundation
import ShopCore
import Synchronization
import Testing
@testable import ShellKit
@testable import LineEditor
import ShopCommandKit

/// A store with a few users, products, orders, categories and currencies; records the calls.
private final class FakeSource: CompletionSource {
    let calls = Mutex<[String]>([])
    let users = [UserMatch(id: 1, username: "emilys", email: "emily.johnson@x.dummyjson.com"),
                 UserMatch(id: 2, username: "emilyt", email: "emily.brown@x.dummyjson.com"),
                 UserMatch(id: 3, username: "michaelw", email: "michael.williams@x.dummyjson.com")]
    let products: [(id: Int64, title: String)] = [(1, "Mascara"), (12, "Lipstick"), (120, "Bed"), (2, "Soap")]

    func users(prefix: String, limit: Int) async throws -> [UserMatch] {
        calls.withLock { $0.append("users \(prefix)") }
        let lowered = prefix.lowercased()
        return Array(users.filter { $0.username.hasPrefix(lowered) || $0.email.hasPrefix(lowered) }.prefix(limit))
    }
    func productIDs(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        calls.withLock { $0.append("ids \(prefix)") }
        return Array(products.filter { String($0.id).hasPrefix(prefix) }.prefix(limit))
    }
    func productTitles(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        calls.withLock { $0.append("titles \(prefix)") }
        return [(122, "iPhone 6"), (123, "iPhone 13 Pro")].filter { $0.title.lowercased().contains(prefix.lowercased()) }
    }

    func barcodes(prefix: String, limit: Int) async throws -> [(barcode: String, title: String)] {
        calls.withLock { $0.append("barcodes \(prefix)") }
        return [("1200000000009", "Bed"), ("5784719087687", "Mascara")].filter { $0.barcode.hasPrefix(prefix) }
    }

    func skus(prefix: String, limit: Int) async throws -> [String] {
        calls.withLock { $0.append("skus \(prefix)") }
        return ["BEA-ESS-ESS-001", "FUR-BED-BED-120"].filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }
    func orderIDs(prefix: String, limit: Int) async throws -> [Int64] {
        [7, 70, 71].filter { String($0).hasPrefix(prefix) }
    }
    func categories(prefix: String, limit: Int) async throws -> [String] {
        ["beauty", "furniture", "groceries"].filter { $0.hasPrefix(prefix) }
    }
    func currencyCodes(prefix: String, limit: Int) async throws -> [String] {
        ["EUR", "JPY", "USD"].filter { $0.hasPrefix(prefix.uppercased()) }
    }
    func couponCodes(prefix: String, limit: Int) async throws -> [String] {
        ["BF-2024", "SUMMER10"].filter { $0.hasPrefix(prefix.uppercased()) }
    }
    func auditOperators(prefix: String, limit: Int) async throws -> [String] {
        ["alice", "bob"].filter { $0.hasPrefix(prefix) }
    }
}

private struct Widgets: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "widgets", subcommands: [ListWidgets.self, ShowWidget.self, AddWidget.self, ImportWidgets.self, ShipWidget.self])
}

private struct ListWidgets: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "list")
    @Option(completion: .shop(.category)) var category: String?
    @Option(completion: .list(["open", "shut"])) var status: String?
    @Option(completion: .shop(.currency)) var currency: String?
    @Flag var all = false
    @OptionGroup var output: OutputOptions
    func run(in context: CommandContext) async throws {}
}

private struct ShowWidget: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "show")
    @Argument(completion: .shop(.product)) var product: String
    @Option var note: String?
    func run(in context: CommandContext) async throws {}
}

private struct AddWidget: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "add")
    @OptionGroup var words: CustomerArguments<ProductWord>
    @Option var qty: Int?
    func run(in context: CommandContext) async throws {}
}

private struct ImportWidgets: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "import")
    @Argument(completion: .file(extensions: ["csv"])) var file: String
    func run(in context: CommandContext) async throws {}
}

private struct ShipWidget: ShellCommand {
    static let configuration = CommandConfiguration(commandName: "ship")
    @Argument(completion: .shop(.order)) var order: String
    @Argument(completion: .list(["fast", "slow"])) var speed: String
    func run(in context: CommandContext) async throws {}
}

@Suite struct CompletionEngineTests {
    private let source = FakeSource()

    private func engine(customer: String? = nil) -> CompletionEngine {
        CompletionEngine(commands: [("widgets", Widgets.self), ("exit", ExitCommand.self)], source: source,
                         currentCustomer: { customer })
    }

    @Test func commandsAndSubcommands() async {
        #expect(await engine().candidates(before: [], prefix: "") == ["exit", "widgets"])
        #expect(await engine().candidates(before: [], prefix: "wi") == ["widgets"])
        #expect(await engine().candidates(before: ["widgets"], prefix: "") == ["add", "import", "list", "ship", "show"])
        #expect(await engine().candidates(before: ["widgets"], prefix: "s") == ["ship", "show"])
        #expect(await engine().candidates(before: ["nothing"], prefix: "") == [])
    }

    @Test func aliasesCompleteAndTheirArgumentsAsTheirFirstCommandsDo() async {
        var engine = CompletionEngine(commands: [("widgets", Widgets.self), ("unalias", UnaliasCommand.self)], source: source,
                                      currentCustomer: { nil })
        engine.aliases = { ["ws": "widgets show $1; widgets list", "wl": "widgets list", "wide": "widgets $@"] }
        #expect(await engine.candidates(before: [], prefix: "w") == ["wide", "widgets", "wl", "ws"])
        // After `ws ` comes what `widgets show ` takes; past its one argument, nothing.
        #expect(await engine.candidates(before: ["ws"], prefix: "") == (await self.engine().candidates(before: ["widgets", "show"], prefix: "")))
        #expect(await engine.candidates(before: ["ws", "1"], prefix: "") == [])
        // A body that reads no argument takes them after its command; $@ stands where they go.
        #expect(await engine.candidates(before: ["wl"], prefix: "--") == (await self.engine().candidates(before: ["widgets", "list"], prefix: "--")))
        #expect(await engine.candidates(before: ["wide"], prefix: "s") == ["ship", "show"])
        #expect(await engine.candidates(before: ["unalias"], prefix: "w") == ["wide", "wl", "ws"])
    }

    @Test func flagsOfTheCommandBeingTyped() async {
        let flags = await engine().candidates(before: ["widgets", "list"], prefix: "--")
        #expect(flags.contains("--category") && flags.contains("--all") && flags.contains("--format") && flags.contains("--help"))
        #expect(!flags.contains("--note"))
        #expect(await engine().candidates(before: ["widgets", "list"], prefix: "--cat") == ["--category"])
        #expect(await engine().candidates(before: ["widgets", "show"], prefix: "--") == ["--help", "--note"])
    }

    @Test func enumeratedValuesAfterAFlag() async {
        #expect(await engine().candidates(before: ["widgets", "list", "-o"], prefix: "") == ["table", "json", "ndjson", "csv", "tsv"])
        #expect(await engine().candidates(before: ["widgets", "list", "--format"], prefix: "n") == ["ndjson"])
        #expect(await engine().candidates(before: ["widgets", "list", "--color"], prefix: "") == ["auto", "always", "never"])
        #expect(await engine().candidates(before: ["widgets", "list", "--status"], prefix: "") == ["open", "shut"])
        #expect(await engine().candidates(before: ["widgets", "list"], prefix: "--format=j") == ["--format=json"])
        // A flag without a value does not swallow the next word.
        #expect(await engine().candidates(before: ["widgets", "list", "--all", "--status"], prefix: "o") == ["open"])
    }

    @Test func liveOptionValues() async {
        #expect(await engine().candidates(before: ["widgets", "list", "--category"], prefix: "") == ["beauty", "furniture", "groceries"])
        #expect(await engine().candidates(before: ["widgets", "list", "--currency"], prefix: "e") == ["EUR"])
    }

    @Test func livePositionals() async {
        #expect(await engine().candidates(before: ["widgets", "show"], prefix: "1") == ["1", "12", "120"])
        // From three digits on, barcodes too (typed or scanned), with their products' titles.
        #expect(await engine().candidates(before: ["widgets", "show"], prefix: "120") == ["120", "1200000000009"])
        #expect(await engine().detailedCandidates(before: ["widgets", "show"], prefix: "5784")
                == [CompletionCandidate("5784719087687", description: "Mascara")])
        let detailed = await engine().detailedCandidates(before: ["widgets", "show"], prefix: "12")
        #expect(detailed == [CompletionCandidate("12", description: "Lipstick"), CompletionCandidate("120", description: "Bed")])
        #expect(await engine().candidates(before: ["widgets", "show"], prefix: "bea") == ["BEA-ESS-ESS-001"])
        #expect(await engine().candidates(before: ["widgets", "show", "--note"], prefix: "1") == [])
        // Words of a title, two letters or more, offer the products' ids with their titles.
        #expect(await engine().detailedCandidates(before: ["widgets", "show"], prefix: "iph")
                == [CompletionCandidate("122", description: "iPhone 6"), CompletionCandidate("123", description: "iPhone 13 Pro")])
        #expect(await engine().candidates(before: ["widgets", "show"], prefix: "i") == [])
        #expect(await engine().candidates(before: ["widgets", "ship"], prefix: "7") == ["7", "70", "71"])
        #expect(await engine().candidates(before: ["widgets", "ship", "7"], prefix: "") == ["fast", "slow"])
        #expect(await engine().candidates(before: ["widgets", "ship", "7", "fast"], prefix: "") == [])
    }

    @Test func usersCompleteToEmailsWhenTheEmailMatches() async {
        #expect(await engine().candidates(before: ["widgets", "add"], prefix: "emi")
                == ["emily.brown@x.dummyjson.com", "emily.johnson@x.dummyjson.com"])
        #expect(await engine().candidates(before: ["widgets", "add"], prefix: "emilys") == ["emilys"])
        #expect(await engine().candidates(before: ["widgets", "add"], prefix: "michael.") == ["michael.williams@x.dummyjson.com"])
    }

    @Test func positionsShiftAfterUseUser() async {
        // USER then PRODUCT; with a current customer the first word is already the PRODUCT.
        #expect(await engine().candidates(before: ["widgets", "add", "emilys"], prefix: "12") == ["12", "120"])
        #expect(await engine(customer: "emilys").candidates(before: ["widgets", "add"], prefix: "12") == ["12", "120"])
        #expect(await engine().candidates(before: ["widgets", "add", "--qty", "2"], prefix: "mich") == ["michael.williams@x.dummyjson.com"])
    }

    @Test func noStoreMeansNoLiveValues() async {
        let engine = CompletionEngine(commands: [("widgets", Widgets.self)], source: nil)
        #expect(await engine.candidates(before: ["widgets", "show"], prefix: "1") == [])
        #expect(await engine.candidates(before: ["widgets", "list", "-o"], prefix: "c") == ["csv"])
    }

    @Test func filePositionsCompletePaths() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("a.csv"))
        try Data().write(to: folder.appendingPathComponent("b.txt"))
        try Data().write(to: folder.appendingPathComponent(".hidden.csv"))
        let prefix = folder.path + "/"
        #expect(await engine().candidates(before: ["widgets", "import"], prefix: prefix) == [prefix + "a.csv", prefix + "sub/"])
        #expect(await engine().candidates(before: ["widgets", "import"], prefix: prefix + "s") == [prefix + "sub/"])
    }

    @Test func readlineRequestsUseTheWordsBeforeTheCursor() async {
        let request = CompletionRequest(line: "widgets list --status o", wordStart: 22, word: "o")
        #expect(await engine().complete(request).map(\.value) == ["open"])
    }
}

@Suite struct DescribedMatchesLayoutTests {
    @Test func idsInNumericOrderWithTitlesInColumns() {
        let lines = ReadlineCompletion.describedLayout(
            [("120", "Bed"), ("12", "Lipstick"), ("121", "A very long title that is cut to forty columns wide")], width: 100)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("12  Lipstick "))
        #expect(lines[0].contains("120  Bed"))
        #expect(lines[1].hasPrefix("121  A very long title"))
        #expect(lines.allSatisfy { $0.count <= 100 })
    }

    @Test func oneColumnOnANarrowTerminal() {
        #expect(ReadlineCompletion.describedLayout([("1", "A"), ("2", nil)], width: 3) == ["1  A", "2"])
    }

    @Test func theCommandAfterWatchCompletesAsACommandLineOfItsOwn() async {
        let engine = CompletionEngine(commands: [("widgets", Widgets.self), ("watch", WatchCommand.self), ("exit", ExitCommand.self)],
                                      source: FakeSource())
        #expect(await engine.candidates(before: ["watch"], prefix: "") == ["exit", "widgets"])
        #expect(await engine.candidates(before: ["watch", "-n", "0.5", "--count", "3"], prefix: "wi") == ["widgets"])
        #expect(await engine.candidates(before: ["watch", "-n", "1", "widgets"], prefix: "s") == ["ship", "show"])
        #expect(await engine.candidates(before: ["watch", "--interval=1", "widgets", "list", "-o"], prefix: "n") == ["ndjson"])
        #expect(await engine.candidates(before: ["watch", "widgets", "show"], prefix: "12") == ["12", "120"])
        #expect(await engine.candidates(before: ["watch", "--", "widgets", "list"], prefix: "--cat") == ["--category"])
        // watch's own options, then nothing for their values, and no watch inside watch.
        #expect(await engine.candidates(before: ["watch"], prefix: "--c") == ["--count"])
        #expect(await engine.candidates(before: ["watch", "-n"], prefix: "") == [])
        #expect(await engine.candidates(before: ["watch", "watch"], prefix: "") == [])
    }
}
