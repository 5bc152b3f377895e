// CommandName: the word that names a command, as argument-parser names it, without the
// runtime's conformance lookups that argument-parser's own `_commandName` costs.

import ArgumentParser

extension ParsableCommand {
    /// The word that names this command (`list` for `Products.Command.List`): its configuration's
    /// `commandName`, else its type's name in kebab case — argument-parser's `_commandName`.
    ///
    /// argument-parser spells the type's name with `String(describing:)`, which asks the runtime
    /// whether the metatype is `TextOutputStreamable`, `CustomStringConvertible`, … — each a scan of
    /// the binary's ~9,800 conformance records: about 5M instructions for the first `products list`,
    /// a tenth of a one-shot command's start-up. `_typeName` reads the name from the type's
    /// descriptor. CommandNameTests holds this equal to `_commandName` for every command in the tree.
    public static var shellName: String {
        configuration.commandName ?? CommandName.kebabCased(_typeName(Self.self, qualified: false))
    }
}

enum CommandName {
    /// `StockHistory` → `stock-history`, `URLSession` → `url-session`: argument-parser's
    /// `convertedToSnakeCase(separator: "-")`, rule for rule.
    static func kebabCased(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        var separateOnUppercase = true
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                if separateOnUppercase && !result.isEmpty { result.append("-") }
                // "L" in "URLSession": an uppercase letter followed by an uppercase and a lowercase one.
                separateOnUppercase = index + 2 < characters.count
                    && characters[index + 1].isUppercase && characters[index + 2].isLowercase
            } else {
                separateOnUppercase = character != "-"
            }
            result += character.lowercased()
        }
        return result
    }
}
