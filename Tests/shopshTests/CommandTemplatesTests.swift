// CommandTemplatesTests: a command parsed from a template of its shape is the command
// argument-parser itself makes of the line, for every plugin, and errors stay argument-parser's.

import ArgumentParser
import Testing
@testable import ShellKit
@testable import shopsh

@Suite struct CommandTemplatesTests {
    /// Pairs of lines with one shape: the first becomes the template, the second is compared.
    static let pairs: [(String, String)] = [
        ("basket add 1 2 --qty 3", "basket add emilys 7 --qty 9"),
        ("basket add 5", "basket add BEA-ESS-ESS-001"),
        ("basket set 1 2 3", "basket set emilys 4 0"),
        ("basket show 1 -o json --fields quantity", "basket show emilys -o tsv --fields sku,quantity"),
        ("basket show 1 --currency EUR --no-header", "basket show 9 --currency JPY --no-header"),
        ("basket remove 1 2", "basket remove emily.johnson@x.dummyjson.com 30"),
        ("basket total 3 --format=csv", "basket total 4 --format=json"),
        ("products list --limit 5 --sort price:desc --category beauty", "products list --limit 7 --sort title --category groceries"),
        ("products list --all --no-header -o csv", "products list --all --no-header -o json"),
        ("products list --color=always --wide", "products list --color=never --wide"),
        ("products list --offset 10 --in-stock --max-price 20", "products list --offset 0 --in-stock --max-price 5.50"),
        ("products search phone --min-price 10", "products search 'lamp shade' --min-price 20.50"),
        ("products show 1 --currency EUR", "products show BEA-ESS-ESS-001 --currency JPY"),
        ("products categories -o json", "products categories -o ndjson"),
        ("orders list --status paid --user 3", "orders list --status shipped --user emilys"),
        ("orders show 1", "orders show 12"),
        ("users list --role admin --search em", "users list --role user --search jo"),
        ("users show 1 -o json", "users show emilys -o table"),
        ("favorites add 1 2", "favorites add emilys 7"),
        ("favorites top --limit 3", "favorites top --limit 10"),
        ("currency convert 100 USD JPY", "currency convert 5.5 EUR KWD"),
        ("currency rates --date 2026-04-01", "currency rates --date 2025-12-31"),
        ("products stock 1 +5", "products stock BEA-ESS-ESS-001 =7"),
        ("products stock 1 =3 =4", "products stock 2 +1 +2"),
        ("products stock 1 -o csv", "products stock 2 -o json"),
    ]

    /// The leaf command type and its path under the plugin's root.
    static func resolve(_ words: [String]) throws -> (leaf: any ParsableCommand.Type, root: any ParsableCommand.Type,
                                                      path: [String], arguments: [String]) {
        let root = try #require(allPlugins.first { $0.name == words[0] }?.command)
        let leaf = try #require(root.configuration.subcommands.first { $0._commandName == words[1] })
        return (leaf, root, [words[1]], Array(words.dropFirst(2)))
    }

    static func words(_ line: String) throws -> [String] { try LineParser.parse(line).words }

    static func describe(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test(arguments: pairs)
    func aTemplatedParseEqualsArgumentParsersOwn(_ pair: (String, String)) throws {
        let templates = CommandTemplates()
        let model = try Self.resolve(Self.words(pair.0))
        let target = try Self.resolve(Self.words(pair.1))
        // The first line of a command goes to argument-parser alone; the second makes the template.
        _ = try templates.parse(model.leaf, root: model.root, path: model.path, model.arguments)
        _ = try templates.parse(model.leaf, root: model.root, path: model.path, model.arguments)
        #expect(templates.hits == 0)
        let fast = try templates.parse(target.leaf, root: target.root, path: target.path, target.arguments)
        #expect(templates.hits == 1, "the second line did not use the template")
        let own = try target.leaf.parseAsRoot(target.arguments)
        #expect(Self.describe(fast) == Self.describe(own))
        // The template itself is left as it was.
        let again = try templates.parse(model.leaf, root: model.root, path: model.path, model.arguments)
        #expect(Self.describe(again) == Self.describe(try model.leaf.parseAsRoot(model.arguments)))
    }

    @Test func theComparisonSeesEveryValue() throws {
        let three = try Self.resolve(Self.words("basket show 1 -o json --fields a"))
        let four = try Self.resolve(Self.words("basket show 1 -o json --fields b"))
        #expect(Self.describe(try three.leaf.parseAsRoot(three.arguments)) != Self.describe(try four.leaf.parseAsRoot(four.arguments)))
    }

    @Test func everyPluginCommandLinesUpWithItsDump() throws {
        // A command whose wrappers do not line up with argument-parser's dump never gets a template.
        for pair in Self.pairs {
            let model = try Self.resolve(Self.words(pair.0))
            let layout = try #require(CommandInfoCache.info(root: model.root, path: model.path).flatMap(CommandLayout.init))
            #expect(layout.matches(CommandTemplates.Template(try model.leaf.parseAsRoot(model.arguments))), "\(pair.0)")
        }
    }

    /// Lines the reader leaves to argument-parser (bad values, repeats, unknown options, failing
    /// validation) end as argument-parser ends them: the same command or the same error.
    @Test(arguments: [
        ("basket add 1 2 --qty 3", "basket add 1 2 --qty x"),
        ("products list --limit 5", "products list --limit -1"),
        ("products list -o json", "products list -o xml"),
        ("products list --color=always", "products list --color=sometimes"),
        ("products list --limit 5 --all", "products list --limit 5 --all"),
        ("basket add 1 2 --qty 3", "basket add 1 2 --qty 3 --qty 4"),
        ("basket add 1 2 --qty 3", "basket add 1 2 --bogus 3"),
        ("basket add 1 2 --qty 3", "basket add 1 2 3 --qty 3"),
        ("basket set 1 2 3", "basket set 1 2 -3"),
        ("currency rates --date 2026-04-01", "currency rates --date 2026-4-1"),
        ("products list --wide", "products list --wide=yes"),
        ("products stock 1 +5", "products stock 1 -5"),
        ("products stock 1 +5", "products stock 1 +5 --bogus"),
        ("users delete 5 --yes", "users delete 6 -y"),
    ])
    func linesTheReaderLeavesToArgumentParserEndTheSame(_ pair: (String, String)) throws {
        let templates = CommandTemplates()
        let model = try Self.resolve(Self.words(pair.0))
        let target = try Self.resolve(Self.words(pair.1))
        _ = try? templates.parse(model.leaf, root: model.root, path: model.path, model.arguments)
        _ = try? templates.parse(model.leaf, root: model.root, path: model.path, model.arguments)
        func outcome(_ parse: () throws -> any ParsableCommand) -> String {
            do { return Self.describe(try parse()) } catch { return "error: " + target.leaf.message(for: error) }
        }
        let fast = outcome { try templates.parse(target.leaf, root: target.root, path: target.path, target.arguments) }
        let own = outcome { try target.leaf.parseAsRoot(target.arguments) }
        #expect(fast == own)
    }
}
