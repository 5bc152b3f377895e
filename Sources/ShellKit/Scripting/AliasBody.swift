// AliasBody: an alias's body — commands separated by `;` — checked when it is defined (it parses,
// it does not call itself, directly or through other aliases) and turned into the command lines
// one call runs, with the call's arguments.

import ShopCore

/// The rules of alias bodies.
public enum AliasBody {
    /// The command texts of `body`: split at each `;` (or line break) outside quotes and `$(…)`,
    /// blank ones left out.
    public static func commandTexts(_ body: String) -> [String] {
        var texts: [String] = []
        var current = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        var depth = 0
        var scalars = body.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if let open = quote {
                current.append(scalar)
                if scalar == open { quote = nil } else if scalar == "\\" && open == "\"", let next = scalars.next() { current.append(next) }
                continue
            }
            switch scalar {
            case "'", "\"":
                quote = scalar
            case "\\":
                current.append(scalar)
                if let next = scalars.next() { current.append(next) }
                continue
            case "(":
                depth += 1
            case ")":
                depth = max(0, depth - 1)
            case ";" where depth == 0, "\n" where depth == 0:
                texts.append(String(current))
                current = String.UnicodeScalarView()
                continue
            default:
                break
            }
            current.append(scalar)
        }
        texts.append(String(current))
        return texts.map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
    }

    /// Checks a new alias: its name, that no command or keyword has it (`taken`), that its body
    /// parses, and that it does not call itself (through `aliases`, the others defined).
    public static func check(name: String, body: String, aliases: [String: String],
                             taken: (String) -> Bool) throws(ShopError) {
        guard ShellNames.isAliasName(name) else {
            throw .usage("alias \(name.escapingControls): an alias name is a letter or _, then letters, digits, _ and - (at most \(ShellNames.maxNameLength))")
        }
        guard !taken(name) else { throw .usage("alias \(name): \(name) is a command; an alias never hides a command") }
        guard body.utf8.count <= ScriptLimits.maxAliasBytes else {
            throw .invalidInput("alias \(name): the body is \(body.utf8.count) bytes; at most \(ScriptLimits.maxAliasBytes)")
        }
        let texts = commandTexts(body)
        guard !texts.isEmpty else { throw .usage("alias \(name) needs commands: alias \(name) 'COMMAND [; COMMAND…]'") }
        for text in texts {
            let template = try LineParser.template(text)
            guard let first = template.words.first?.literal else { continue }
            if ShellNames.keywords.contains(first) {
                throw .usage("alias \(name): \(first) blocks belong in command files, not in aliases")
            }
        }
        var others = aliases
        others[name] = body
        if let cycle = cycle(from: name, aliases: others) {
            throw .usage("alias \(name) would call itself (\(cycle.joined(separator: " → ")))")
        }
    }

    /// The first path of calls from `name` back to an alias already on it, if there is one.
    static func cycle(from name: String, aliases: [String: String], path: [String] = []) -> [String]? {
        if path.contains(name) { return path + [name] }
        guard let body = aliases[name], path.count <= ScriptLimits.maxAliasDepth else { return nil }
        for text in commandTexts(body) {
            guard let first = (try? LineParser.template(text))?.words.first?.literal, aliases[first] != nil else { continue }
            if let found = cycle(from: first, aliases: aliases, path: path + [name]) { return found }
        }
        return nil
    }

    /// The lines one call of alias `name` runs with `arguments`: the body's commands, or, when
    /// the body reads no argument, its one command with the arguments added.
    public static func commands(of name: String, body: String, arguments: [String]) throws(ShopError) -> [LineTemplate] {
        var templates: [LineTemplate] = []
        for text in commandTexts(body) { templates.append(try LineParser.template(text)) }
        let expansions = templates.flatMap(\.expansions)
        let readsAll = expansions.contains(.allArguments)
        let highest = expansions.compactMap(\.argumentNumber).max()
        if !readsAll && highest == nil && !arguments.isEmpty {
            guard templates.count == 1 else {
                throw .usage("alias \(name) takes no arguments (its body uses no $1 or $@), got \(arguments.count)")
            }
            templates[0].words += arguments.map { ShellWord($0) }
        } else if !readsAll, let highest, arguments.count > highest {
            throw .usage("alias \(name) takes \(highest) argument\(highest == 1 ? "" : "s") ($1\(highest > 1 ? "…$\(highest)" : "")), got \(arguments.count)")
        }
        return templates
    }
}
