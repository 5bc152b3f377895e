// ShellNames: what may name a variable or an alias, and the script keywords no alias may take —
// the one place these rules live (the parser, `let`, `alias` and completion ask here).

/// Names of variables, arguments and aliases.
public enum ShellNames {
    /// The words that open, divide and close blocks in command files (see ``ScriptBlocks``).
    public static let keywords: Set<String> = ["if", "else", "end", "for"]
    /// The longest variable or alias name.
    public static let maxNameLength = 64

    /// `A`–`Z`, `a`–`z` or `_`: what a name starts with.
    static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    /// A letter, a digit or `_`: what the rest of a variable name is made of.
    static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
        startsName(scalar) || ("0"..."9").contains(scalar)
    }

    /// `ORDER`, `low_stock`, `_x1`: a letter or `_`, then letters, digits and `_`.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, startsName(first), name.unicodeScalars.count <= maxNameLength else { return false }
        return name.unicodeScalars.allSatisfy(continuesName)
    }

    /// `1` … `9`: an alias's arguments.
    public static func isArgumentName(_ name: String) -> Bool {
        name.count == 1 && ("1"..."9").contains(name)
    }

    /// `vip`, `low-stock`: as a variable name, and `-` inside it too.
    public static func isAliasName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, startsName(first), name.unicodeScalars.count <= maxNameLength else { return false }
        return name.unicodeScalars.allSatisfy { continuesName($0) || $0 == "-" }
    }
}
