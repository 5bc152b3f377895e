// PluginDescription: what `shopsh-NAME --shopsh-describe` says about an external plugin
// (protocol version 1), read from its one JSON object.

import ShopCore

/// An external plugin's self-description: its commands, their arguments and options.
public struct PluginDescription: Sendable, Equatable {
    /// The protocol versions this shell speaks.
    public static let supportedProtocols = [1]

    /// What an argument or option value is; the live kinds complete from the store.
    public enum Kind: String, Sendable, CaseIterable {
        case text, integer, decimal, file, user, product, order, category, currency
    }

    public struct Argument: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        public var optional: Bool
    }

    public struct Option: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        public var summary: String
    }

    public struct Command: Sendable, Equatable {
        public var name: String
        public var summary: String
        public var arguments: [Argument]
        public var options: [Option]
        /// Whether the command may change the shop: false only when its description says
        /// `"writes": false`. Only such commands run in a read-only session and in an `--atomic`
        /// or `--dry-run` run.
        public var writes: Bool
    }

    public var name: String
    public var version: String
    public var summary: String
    public var commands: [Command]

    /// Reads the describe output. Throws a one-line reason (the plugin is then skipped).
    public static func parse(_ bytes: [UInt8]) throws(ShopError) -> PluginDescription {
        guard case .object(let root) = try JSONParser.parse(bytes) else {
            throw .invalidInput("its description is not a JSON object")
        }
        guard case .number(let protocolText)? = root["protocol"], let version = Int(protocolText) else {
            throw .invalidInput("its description has no protocol number")
        }
        guard supportedProtocols.contains(version) else {
            throw .invalidInput("protocol \(protocolText) is not one this shopsh speaks (it speaks "
                                + supportedProtocols.map(String.init).joined(separator: ", ") + ")")
        }
        let pluginName = try name(root, "name", in: "the description")
        let commands = try array(root, "commands", in: "the description").map { value throws(ShopError) in
            let command = try object(value, "a command")
            let name = try name(command, "name", in: "a command")
            let arguments = try array(command, "arguments", in: name, optional: true).map { value throws(ShopError) in
                let argument = try object(value, "an argument of \(name)")
                return Argument(name: try word(argument, "name", in: name),
                                kind: try kind(argument, in: name),
                                optional: try flag(argument, "optional", in: name, default: false))
            }
            if let required = arguments.lastIndex(where: { !$0.optional }), arguments[..<required].contains(where: \.optional) {
                throw .invalidInput("\(name): only trailing arguments may be optional")
            }
            let options = try array(command, "options", in: name, optional: true).map { value throws(ShopError) in
                let option = try object(value, "an option of \(name)")
                return Option(name: try self.name(option, "name", in: name), kind: try kind(option, in: name),
                              summary: try text(option, "summary", in: name, optional: true))
            }
            return Command(name: name, summary: try text(command, "summary", in: name), arguments: arguments, options: options,
                           writes: try flag(command, "writes", in: name, default: true))
        }
        guard !commands.isEmpty else { throw .invalidInput("the description: \"commands\" must name at least one command") }
        var seen: Set<String> = []
        if let repeated = commands.first(where: { !seen.insert($0.name).inserted }) {
            throw .invalidInput("the description: the command \(repeated.name) is declared twice")
        }
        return PluginDescription(name: pluginName, version: try text(root, "version", in: "the description"),
                                 summary: try text(root, "summary", in: "the description"), commands: commands)
    }

    /// The command named `name`.
    public func command(_ name: String) -> Command? {
        commands.first { $0.name == name }
    }

    // MARK: - Reading fields

    private static func object(_ value: JSONValue, _ what: String) throws(ShopError) -> JSONObject {
        guard case .object(let object) = value else { throw .invalidInput("\(what) is not a JSON object") }
        return object
    }

    private static func array(_ object: JSONObject, _ key: String, in place: String,
                              optional: Bool = false) throws(ShopError) -> [JSONValue] {
        switch object[key] {
        case .array(let items)?: return items
        case nil, .null?: if optional { return [] }
        default: break
        }
        throw .invalidInput("\(place): \"\(key)\" must be an array")
    }

    /// A name: letters, digits, `-` and `_`, starting with a letter (it becomes a word to type).
    private static func word(_ object: JSONObject, _ key: String, in place: String) throws(ShopError) -> String {
        guard case .string(let value)? = object[key], let first = value.unicodeScalars.first,
              first.properties.isAlphabetic, first.isASCII,
              value.utf8.allSatisfy({ isNameByte($0) })
        else { throw .invalidInput("\(place): \"\(key)\" must be a name (letters, digits, - and _)") }
        return value
    }

    /// A plugin's, command's or option's name as plugins/PROTOCOL.md says: `[a-z][a-z0-9-]*`, at
    /// most 64 characters (it becomes a word the operator types).
    private static func name(_ object: JSONObject, _ key: String, in place: String) throws(ShopError) -> String {
        guard case .string(let value)? = object[key], let first = value.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
              value.utf8.count <= maxNameLength,
              value.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") })
        else { throw .invalidInput("\(place): \"\(key)\" must be a name: lower-case letters, digits and -, starting with a letter, at most \(maxNameLength) characters") }
        return value
    }

    /// The longest name plugins/PROTOCOL.md allows.
    static let maxNameLength = 64

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// A boolean field; `fallback` when it is absent or null.
    private static func flag(_ object: JSONObject, _ key: String, in place: String,
                             default fallback: Bool) throws(ShopError) -> Bool {
        switch object[key] {
        case .bool(let value)?: return value
        case nil, .null?: return fallback
        default: throw .invalidInput("\(place): \"\(key)\" must be true or false")
        }
    }

    /// A text field: required unless `optional` (then "" when absent or null).
    private static func text(_ object: JSONObject, _ key: String, in place: String, optional: Bool = false) throws(ShopError) -> String {
        switch object[key] {
        case .string(let value)?: return value
        case nil, .null?: if optional { return "" }
        default: break
        }
        throw .invalidInput("\(place): \"\(key)\" must be a string" + (optional ? "" : " (it is required)"))
    }

    private static func kind(_ object: JSONObject, in place: String) throws(ShopError) -> Kind {
        let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let value = object["kind"] else { throw .invalidInput("\(place): \"kind\" is required; kinds: \(kinds)") }
        guard case .string(let name) = value, let kind = Kind(rawValue: name) else {
            throw .invalidInput("\(place): unknown kind; kinds: \(kinds)")
        }
        return kind
    }
}
