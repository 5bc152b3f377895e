// CommandTemplates: parses a command line of a shape seen before without argument-parser's
// per-call reflection, by copying argument-parser's own result for that shape with new values.

import ArgumentParser
import Foundation
import Synchronization

/// Fast parsing of leaf commands for long batches.
///
/// argument-parser rebuilds a command's argument tables through `Mirror` on every parse (about
/// 0.25 ms of CPU for a basket command: most of a batch's time). A line's *shape* is its command,
/// the options and flags it gives, and how many positional words it has. From a command's second
/// line on, the first line of each shape is parsed by argument-parser and kept as a template; a
/// later line of the same shape is
/// read with the command's option table (argument-parser's own dump) and decoded into a copy of
/// the template, with the template's property wrappers carrying the new values (so defaults and
/// everything the line leaves out are argument-parser's). Then `validate()` runs as usual.
///
/// Anything out of the ordinary — an unknown or repeated option, `--`, a value that starts with
/// `-`, joined short options, a value argument-parser would not accept, a failing `validate()` —
/// goes to argument-parser, which parses it or reports the error in its own words. A test parses
/// a corpus of lines both ways and compares the results.
final class CommandTemplates: Sendable {
    private struct Shape: Hashable {
        var command: ObjectIdentifier
        var given: [Int]         // slots given by the line, in slot order
        var positionals: Int
    }

    private let layouts = Mutex<[ObjectIdentifier: CommandLayout?]>([:])
    private let templates = Mutex<[Shape: Template]>([:])
    private let hitCount = Mutex(0)
    private let seen = Mutex<Set<ObjectIdentifier>>([])

    /// How many lines were parsed from a template (the rest went through argument-parser).
    var hits: Int { hitCount.withLock { $0 } }

    /// A parsed command kept as the model for its shape, with its property wrappers by path
    /// ("quantity", "output", "output.format") and the path of each layout slot, read once with
    /// `Mirror`. Commands are plain value types that are only copied; the lock guards the dictionary.
    struct Template: @unchecked Sendable {
        let command: any ParsableCommand
        let wrappers: [String: Any]
        let slotPaths: [String]

        init(_ command: any ParsableCommand) {
            self.command = command
            var wrappers: [String: Any] = [:]
            var slotPaths: [String] = []
            func collect(_ value: Any, prefix: String) {
                for child in Mirror(reflecting: value).children {
                    guard let label = child.label, label.hasPrefix("_") else { continue }
                    let path = prefix + label.dropFirst()
                    wrappers[path] = child.value
                    if let group = child.value as? any GroupWrapper {
                        collect(group.groupValue, prefix: path + ".")
                    } else if child.value is any ValueWrapper {
                        slotPaths.append(path)
                    }
                }
            }
            collect(command, prefix: "")
            self.wrappers = wrappers
            self.slotPaths = slotPaths
        }
    }

    /// Parses `arguments` for `leaf` (the command `path` names under `root`).
    func parse(_ leaf: any ParsableCommand.Type, root: any ParsableCommand.Type, path: [String],
               _ arguments: [String]) throws -> any ParsableCommand {
        // The option table costs a few milliseconds to make: a command run once (`-c`, the
        // prompt) is parsed by argument-parser alone; templates start with its second line.
        guard seenBefore(leaf), let layout = layout(of: leaf, root: root, path: path),
              let line = layout.read(arguments) else {
            return try leaf.parseAsRoot(arguments)
        }
        let shape = Shape(command: ObjectIdentifier(leaf), given: line.values.keys.sorted(), positionals: line.positionals.count)
        if let template = templates.withLock({ $0[shape] }),
           let command = try? layout.rebuild(template, with: line) {
            hitCount.withLock { $0 += 1 }
            return command
        }
        let parsed = try leaf.parseAsRoot(arguments)
        let template = Template(parsed)
        if layout.matches(template) {
            templates.withLock { $0[shape] = template }
        }
        return parsed
    }

    /// Whether `leaf` was parsed before (and notes that it now was).
    private func seenBefore(_ leaf: any ParsableCommand.Type) -> Bool {
        !seen.withLock { $0.insert(ObjectIdentifier(leaf)).inserted }
    }

    private func layout(of leaf: any ParsableCommand.Type, root: any ParsableCommand.Type,
                        path: [String]) -> CommandLayout? {
        let key = ObjectIdentifier(leaf)
        if let known = layouts.withLock({ $0[key] }) { return known }
        let layout = CommandInfoCache.info(root: root, path: path).flatMap(CommandLayout.init)
        layouts.withLock { $0[key] = .some(layout) }
        return layout
    }
}

/// A command's arguments in declaration order, from argument-parser's dump: the order in which
/// `Mirror` lists its property wrappers and its `init(from:)` decodes them.
struct CommandLayout: Sendable {
    enum Kind: Sendable { case positional, option, flag }

    struct Slot: Sendable {
        var kind: Kind
        var names: [String]      // "--qty", "-o"
        var isRepeating: Bool
    }

    /// One line read against the layout: the strings for each slot it gives, and the positionals.
    struct Line {
        var values: [Int: [String]] = [:]
        var positionals: [String] = []
    }

    let slots: [Slot]
    private let slotByName: [String: Int]

    init?(_ info: CommandInfo) {
        var slots: [Slot] = []
        for argument in info.arguments {
            let names = (argument.names ?? []).map { name in
                name.kind == "short" || name.kind == "longWithSingleDash" ? "-" + name.name : "--" + name.name
            }
            if names.contains("--help") { continue }   // added by argument-parser, not a property
            let kind: Kind
            switch argument.kind {
            case "positional": kind = .positional
            case "option": kind = .option
            case "flag": kind = .flag
            default: return nil
            }
            slots.append(Slot(kind: kind, names: names, isRepeating: argument.isRepeating ?? false))
        }
        // Only shapes this reader understands: repeating options or flags go to argument-parser.
        guard !slots.contains(where: { $0.kind != .positional && $0.isRepeating }) else { return nil }
        self.slots = slots
        var byName: [String: Int] = [:]
        for (index, slot) in slots.enumerated() {
            for name in slot.names { byName[name] = index }
        }
        slotByName = byName
    }

    /// Reads `arguments`, or nil when anything needs argument-parser's full rules.
    func read(_ arguments: [String]) -> Line? {
        var line = Line()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                line.positionals.append(word)
                continue
            }
            var name = word
            var attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                attached = String(word[word.index(after: equals)...])
            } else if !word.hasPrefix("--") && word.count != 2 {
                return nil   // joined short options, negative numbers: argument-parser decides
            }
            guard let slot = slotByName[name], line.values[slot] == nil else { return nil }
            switch slots[slot].kind {
            case .flag:
                guard attached == nil else { return nil }
                line.values[slot] = []
            case .option:
                if let attached {
                    line.values[slot] = [attached]
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
                    line.values[slot] = [arguments[index]]
                    index += 1
                }
            case .positional:
                return nil
            }
        }
        // Positionals fill the positional slots in order; a repeating one takes the rest.
        var remaining = line.positionals[...]
        for (index, slot) in slots.enumerated() where slot.kind == .positional {
            guard !remaining.isEmpty else { break }
            if slot.isRepeating {
                line.values[index] = Array(remaining)
                remaining = []
            } else {
                line.values[index] = [remaining.removeFirst()]
            }
        }
        return remaining.isEmpty ? line : nil
    }

    /// Whether the template's property wrappers line up with the slots, kind by kind.
    func matches(_ template: CommandTemplates.Template) -> Bool {
        guard template.slotPaths.count == slots.count else { return false }
        return zip(template.slotPaths, slots).allSatisfy { path, slot in
            let wrapper = template.wrappers[path]
            switch slot.kind {
            case .positional: return wrapper is any PositionalWrapper
            case .option: return wrapper is any OptionWrapper
            case .flag: return wrapper is any FlagWrapper
            }
        }
    }

    /// A copy of the template's command holding the values of `line`; throws when
    /// argument-parser must decide.
    func rebuild(_ template: CommandTemplates.Template, with line: Line) throws -> any ParsableCommand {
        var replacements: [String: [String]] = [:]
        for (slot, strings) in line.values {
            replacements[template.slotPaths[slot]] = strings
        }
        // Commands are values: decoding makes a new one and leaves the template as it was.
        let decoder = TemplateDecoder(wrappers: template.wrappers, path: "", replacements: replacements)
        var command = try type(of: template.command).init(from: decoder)
        try command.validate()
        return command
    }
}

// MARK: - Decoding a copy of the template

/// Decodes a command by handing its `init(from:)` the template's own property wrappers, with
/// new values where the line gives them.
private struct TemplateDecoder: Decoder {
    let wrappers: [String: Any]
    let path: String
    let replacements: [String: [String]]
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(TemplateContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw TemplateMismatch() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw TemplateMismatch() }
}

private struct TemplateMismatch: Error {}

private struct TemplateContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TemplateDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let path = decoder.path + key.stringValue
        guard let wrapper = decoder.wrappers[path] else { throw TemplateMismatch() }
        if let group = wrapper as? any GroupWrapper {
            let nested = TemplateDecoder(wrappers: decoder.wrappers, path: path + ".", replacements: decoder.replacements)
            guard let typed = try group.rebuilt(from: nested) as? T else { throw TemplateMismatch() }
            return typed
        }
        guard var settable = wrapper as? any ValueWrapper else { throw TemplateMismatch() }
        if let strings = decoder.replacements[path] {
            guard settable.set(strings) else { throw TemplateMismatch() }
        }
        guard let typed = settable as? T else { throw TemplateMismatch() }
        return typed
    }

    func decodeNil(forKey key: Key) throws -> Bool { false }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw TemplateMismatch()
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw TemplateMismatch() }
    func superDecoder() throws -> any Decoder { throw TemplateMismatch() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw TemplateMismatch() }
}

// MARK: - Property wrappers with new values

/// An `@Option`, `@Argument` or `@Flag` whose value can be replaced from the line's strings.
protocol ValueWrapper {
    /// Sets the value from the strings the line gave; false when argument-parser would refuse them.
    mutating func set(_ strings: [String]) -> Bool
}

protocol OptionWrapper: ValueWrapper {}
protocol PositionalWrapper: ValueWrapper {}
protocol FlagWrapper: ValueWrapper {}

/// An `@OptionGroup`: its value is decoded like a command, then validated (as argument-parser does).
protocol GroupWrapper {
    var groupValue: Any { get }
    func rebuilt(from decoder: any Decoder) throws -> Any
}

extension Option: ValueWrapper, OptionWrapper {
    mutating func set(_ strings: [String]) -> Bool {
        guard let value = ArgumentText.value(strings, as: Value.self) else { return false }
        wrappedValue = value
        return true
    }
}

extension Argument: ValueWrapper, PositionalWrapper {
    mutating func set(_ strings: [String]) -> Bool {
        guard let value = ArgumentText.value(strings, as: Value.self) else { return false }
        wrappedValue = value
        return true
    }
}

extension Flag: ValueWrapper, FlagWrapper {
    mutating func set(_ strings: [String]) -> Bool {
        guard let on = true as? Value else { return false }   // plain Bool flags only
        wrappedValue = on
        return true
    }
}

extension OptionGroup: GroupWrapper {
    var groupValue: Any { wrappedValue }

    func rebuilt(from decoder: any Decoder) throws -> Any {
        var value = try Value(from: decoder)
        try value.validate()
        var copy = self
        copy.wrappedValue = value
        return copy
    }
}

/// argument-parser's conversion of argument strings into values, for the types commands use.
enum ArgumentText {
    static func value<V>(_ strings: [String], as type: V.Type) -> V? {
        // Containers first, and every conversion unwrapped before the cast: a failed conversion
        // cast to an optional type would "succeed" as nil.
        if let container = V.self as? any ArgumentContainer.Type {
            guard let value = container.value(strings) else { return nil }
            return value as? V
        }
        if let scalar = V.self as? any ExpressibleByArgument.Type {
            guard strings.count == 1, let value = scalar.init(argument: strings[0]) else { return nil }
            return value as? V
        }
        return nil
    }
}

/// `T?` and `[T]` of argument values.
protocol ArgumentContainer {
    static func value(_ strings: [String]) -> Any?
}

extension Optional: ArgumentContainer {
    static func value(_ strings: [String]) -> Any? {
        guard let wrapped = ArgumentText.value(strings, as: Wrapped.self) else { return nil }
        return Optional(wrapped) as Any
    }
}

extension Array: ArgumentContainer {
    static func value(_ strings: [String]) -> Any? {
        var elements: [Element] = []
        for string in strings {
            guard let element = ArgumentText.value([string], as: Element.self) else { return nil }
            elements.append(element)
        }
        return elements
    }
}
