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
        ("basket explain 3 --format=csv", "basket explain emilys --format=json"),
        ("basket show 3 --as-of 2h", "basket show emilys --as-of 2026-11-27"),
        ("basket coupon 1 SUMMER", "basket coupon emilys bf-7kq2"),
        ("basket coupon 1 --remove", "basket coupon emilys --remove"),
        ("basket checkout 1 --without-coupon", "basket checkout emilys --without-coupon"),
        ("coupons add A1 --percent 10 --max-uses 5", "coupons add SUMMER --percent 12.5 --max-uses 50"),
        ("coupons add A1 --amount 5 EUR --min-total 20", "coupons add B2 --amount 7.50 USD --min-total 30"),
        ("coupons generate 3 --prefix BF- --percent 10 --expires 2026-12-31", "coupons generate 500 --prefix X- --percent 20 --expires 2027-01-31"),
        ("coupons list --state active -o json", "coupons list --state used-up -o csv"),
        ("coupons show A1", "coupons show summer"),
        ("reviews list --product 1 --rating-below 3 -o json", "reviews list --product 5784719087687 --rating-below 2 -o csv"),
        ("reviews list --state hidden --since 7d --all", "reviews list --state visible --since 2026-01-01 --all"),
        ("reviews show 1", "reviews show 42"),
        ("reviews hide 1 --reason spam", "reviews hide 42 --reason \"abusive language\""),
        ("reviews unhide 1", "reviews unhide 42"),
        ("reviews delete 1 --yes", "reviews delete 42 -y"),
        ("coupons disable A1", "coupons disable summer"),
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
        ("users address 1 list -o json", "users address emilys list -o csv"),
        ("users address 1 update 2 --city York", "users address emilys update 7 --city 'New York'"),
        ("users note 1 call first -o csv", "users note emilys 'hard of hearing:' 'call, do not email' -o json"),
        ("favorites add 1 2", "favorites add emilys 7"),
        ("favorites top --limit 3", "favorites top --limit 10"),
        ("currency convert 100 USD JPY", "currency convert 5.5 EUR KWD"),
        ("currency rates --date 2026-04-01", "currency rates --date 2025-12-31"),
        ("products stock 1 +5", "products stock BEA-ESS-ESS-001 =7"),
        ("products stock 1 =3 =4", "products stock 2 +1 +2"),
        ("products stock 1 -o csv", "products stock 2 -o json"),
        ("products stock-history 1 --since 7d", "products stock-history BEA-ESS-ESS-001 --since 2026-01-01"),
        ("products stock-history 1 --on today -o json", "products stock-history 2 --on yesterday -o csv"),
        ("products add --title Mug --price 12.50 --category kitchen --stock 3", "products add --title Cup --price 2 --category home --stock 9"),
        ("products update 5 --price 19.99 --stock +2", "products update 7 --price *1.1 --stock =0"),
        ("products update 5 --barcode 4006381333931 --dimensions \"1 x 2 x 3\" --images https://a.example/1.webp",
         "products update 7 --barcode \"\" --dimensions 4x5x6 --images \"\""),
        ("products update --category beauty --set-brand Acme --dry-run", "products update --category home --set-brand Other --dry-run"),
        ("products delete 5 --yes", "products delete SKU-7 --yes"),
        ("products import a.json", "products import b.csv"),
        ("products top --by units --top 3 --since 30d", "products top --by revenue --top 5 --since 7d"),
        ("basket clear emilys --yes", "basket clear 9 --yes"),
        ("basket checkout emilys --currency EUR", "basket checkout 3 --currency JPY"),
        ("basket list --idle 2h --min-total 10", "basket list --idle 3d --min-total 5.50"),
        ("favorites list emilys --sort added:desc", "favorites list 4 --sort price"),
        ("favorites remove emilys 7", "favorites remove 3 9"),
        ("favorites toggle emilys 7", "favorites toggle 3 SKU-9"),
        ("users add --username ann --email a@example.com --role moderator", "users add --username bob --email b@example.com --role user"),
        ("users update emilys --phone 555 --role admin", "users update 7 --phone '' --role moderator"),
        ("users disable emilys", "users disable 7"),
        ("users enable emilys", "users enable 7"),
        ("users passwd emilys --password-file a.txt", "users passwd 7 --password-file b.txt"),
        ("users check-password emilys --password-file a.txt", "users check-password 7 --password-file b.txt"),
        ("users top --by units --top 3", "users top --by revenue --top 8"),
        ("users delete 5 --yes", "users delete emilys --yes"),
        ("orders status 1 paid", "orders status 7 SHIPPED"),
        ("orders cancel 1 --yes", "orders cancel 9 --yes"),
        ("orders return 1 MUG-1 --qty 2 --restock --reason 'arrived broken' --yes", "orders return 9 7 --qty 1 --restock --reason late --yes"),
        ("orders refund 1 --amount 5.00 --reason shipping --dry-run", "orders refund 9 --amount '2.50 USD' --reason goodwill --dry-run"),
        ("orders note 1 --delete 2", "orders note 12 --delete 7"),
        ("orders ship 1 --carrier dhl --tracking ABCD1234", "orders ship 12 --carrier 'royal mail' --tracking 'AB 1234 5678 9GB'"),
        ("orders deliver 1 --shipment 2", "orders deliver 12 --shipment 7"),
        ("orders track 1 -o json", "orders track emilys -o csv"),
        ("orders stats --by month --status paid --top 3", "orders stats --by customer --status delivered --top 10"),
        ("currency codes -o json", "currency codes -o csv"),
        ("currency import a.xml", "currency import b.csv"),
        ("audit list --entity basket --id emilys --since 2026-01-01", "audit list --entity order --id 7 --since 2026-11-01T10:00:00Z"),
        ("audit show 1", "audit show 7"),
        ("audit revert 1 --dry-run", "audit revert 7 --dry-run"),
        ("audit revert --change-set 3 --force --yes", "audit revert --change-set 9 --force --yes"),
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

    /// Every leaf command of every plugin has a pair above: a command added later without one
    /// fails here, so the template reader is compared with argument-parser on all of them.
    @Test func everyCommandHasAPairOfSampleLines() throws {
        var missing: [String] = []
        for plugin in allPlugins {
            for leaf in plugin.command.configuration.subcommands where leaf.configuration.subcommands.isEmpty {
                let path = "\(plugin.name) \(leaf._commandName)"
                if !Self.pairs.contains(where: { $0.0.hasPrefix(path + " ") && $0.1.hasPrefix(path + " ") }) { missing.append(path) }
            }
        }
        #expect(missing.isEmpty, "no sample lines for \(missing)")
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
        ("products stock 1 -3 --reason damaged", "products stock 2 +40 --reason supplier --note 'PO 7'"),
        ("products stock 1 -3 --reason damaged", "products stock 2 +40 --reason stolen"),
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
