// GlobalArgumentsTests: the quick scan of the binary's arguments agrees with argument-parser's
// GlobalOptions wherever it answers alone, and hands everything else to it.

import ArgumentParser
import Testing
import ShellKit
@testable import shopsh

@Suite struct GlobalArgumentsTests {
    /// Vectors the quick scan reads alone: scripts' and jobs' usual invocations.
    static let quickVectors: [[String]] = [
        [],
        ["products", "list", "--all", "-o", "json"],
        ["--store", "/tmp/a.sqlite", "-c", "products list --limit 10 -o csv"],
        ["--store=/tmp/a.sqlite", "--command=basket show 1", "-f", "jobs.shop", "-c", "orders list"],
        ["--continue-on-error", "-c", "products list", "-f", "jobs.shop"],
        ["--atomic", "--dry-run", "-f", "jobs.shop"],
        ["--file=a.shop", "--file", "b.shop", "--continue-on-error", "--", "products", "show", "1"],
        ["--store", "x.sqlite", "products", "show", "1", "--store", "y", "-c", "z"],
    ]

    @Test(arguments: quickVectors)
    func quickScanAgreesWithArgumentParser(_ arguments: [String]) throws {
        let scanned = GlobalArguments(arguments)
        #expect(!scanned.needsFullParse)
        let parsed = try GlobalOptions.parse(arguments)
        #expect(scanned.store == parsed.options.store)
        #expect(scanned.continueOnError == parsed.options.continueOnError)
        #expect(scanned.atomic == parsed.options.atomic)
        #expect(scanned.dryRun == parsed.options.dryRun)
        #expect(scanned.words == Array(parsed.words.drop { $0 == "--" }))
        let commands = scanned.steps.compactMap { step -> String? in
            if case .command(let text, _) = step { return text } else { return nil }
        }
        let files = scanned.steps.compactMap { step -> String? in
            if case .file(let path) = step { return path } else { return nil }
        }
        #expect(commands == parsed.options.commands)
        #expect(files == parsed.options.files)
    }

    /// The quick scan's list of options that take a value is the declaration's, read back from
    /// argument-parser's dump of the command tree's root.
    @Test func optionsWithValuesAreTheRootsOptionsThatTakeOne() throws {
        let root = try #require(CommandInfo.load(ShopshCommand.self))
        let declared = Set(root.arguments.filter { $0.kind == "option" }.flatMap(\.typedNames))
        #expect(GlobalArguments.optionsWithValues == declared)
    }

    @Test func stepsKeepTheOrderGivenAndNumberSeveralCommands() {
        let scanned = GlobalArguments(["-c", "a", "-f", "x.shop", "--command", "b"])
        #expect(scanned.steps == [.command("a", label: "-c[1]"), .file("x.shop"), .command("b", label: "-c[2]")])
        #expect(GlobalArguments(["-c", "a"]).steps == [.command("a", label: "-c")])
    }

    @Test(arguments: [
        ["-o", "json", "-c", "products list"], ["--help"], ["--version"], ["--no-header", "products", "list"],
        ["--bogus"], ["-c"], ["--store"], ["-c", "--help"], ["--limit=5", "products", "list"], ["-cproducts list"],
    ])
    func otherOptionsAndMistakesGoToArgumentParser(_ arguments: [String]) {
        #expect(GlobalArguments(arguments).needsFullParse)
    }

    @Test func anOptionWithoutItsValueIsNoticed() {
        #expect(GlobalArguments(["--store"]).endsBeforeAValue)
        #expect(GlobalArguments(["-o"]).endsBeforeAValue)
        #expect(!GlobalArguments(["-o", "json"]).endsBeforeAValue)
    }

    @Test func optionValuesAreSkippedBeforeTheCommandWords() {
        let scanned = GlobalArguments(["-o", "json", "--store", "s.sqlite", "basket", "show", "emi"])
        #expect(scanned.store == "s.sqlite")
        #expect(scanned.words == ["basket", "show", "emi"])
    }
}
