// CommandNameTests: the shell's quick command names are argument-parser's own, for every command
// in the binary's tree, and the kebab-case rule on names the tree does not have yet.

import ArgumentParser
import Testing
@testable import ShellKit
@testable import shopsh

@Suite struct CommandNameTests {
    /// Every command under `root`, root included.
    static func tree(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap(tree)
    }

    @Test func everyCommandInTheTreeHasArgumentParsersName() {
        let commands = Self.tree(ShopshCommand.self)
        #expect(commands.count >= 90)   // modes, plugins and built-ins, with their subcommands
        // Both ways of naming are exercised: most leaves are named after their types.
        #expect(commands.filter { $0.configuration.commandName == nil }.count >= 50)
        #expect(commands.contains { $0.configuration.commandName != nil })
        for command in commands {
            #expect(command.shellName == command._commandName, "\(command)")
        }
    }

    /// argument-parser's own table for `convertedToSnakeCase(separator: "-")` (its
    /// StringSnakeCaseTests), with two names of ours.
    static let kebabCases: [(String, String)] = [
        ("simpleOneTwo", "simple-one-two"), ("myURL", "my-url"),
        ("singleCharacterAtEndX", "single-character-at-end-x"), ("thisIsAnXMLProperty", "this-is-an-xml-property"),
        ("single", "single"), ("", ""), ("a", "a"), ("aA", "a-a"), ("version4Thing", "version4-thing"),
        ("partCAPS", "part-caps"), ("partCAPSLowerAGAIN", "part-caps-lower-again"),
        ("manyWordsInThisThing", "many-words-in-this-thing"), ("asdf\u{106}qer", "asdf-\u{107}qer"),
        ("already_snake_case", "already_snake_case"), ("dataPoint22", "data-point22"),
        ("dataPoint22Word", "data-point22-word"), ("_oneTwoThree", "_one-two-three"),
        ("oneTwoThree_", "one-two-three_"), ("__oneTwoThree__", "__one-two-three__"), ("_test_", "_test_"),
        ("\u{1F427}\u{1F41F}", "\u{1F427}\u{1F41F}"), ("URLSession", "url-session"), ("RADAR", "radar"),
        ("Sample", "sample"), ("_Sample", "_-sample"), ("_IAmAnAPPDeveloper", "_-i-am-an-app-developer"),
        ("StockHistory", "stock-history"), ("Already-Kebab", "already-kebab"),
    ]

    @Test(arguments: kebabCases)
    func typeNamesAreKebabCasedLikeArgumentParser(_ example: (String, String)) {
        #expect(CommandName.kebabCased(example.0) == example.1)
    }

    /// A command without a configured name is named from its type, not by its configuration.
    @Test func anUnnamedCommandIsNamedFromItsType() {
        struct ShowAllTheThings: ParsableCommand {}
        #expect(ShowAllTheThings.shellName == "show-all-the-things")
        #expect(ShowAllTheThings.shellName == ShowAllTheThings._commandName)
    }
}
