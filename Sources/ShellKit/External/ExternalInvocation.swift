// ExternalInvocation: the words after an external plugin's name, checked against its
// description: the command, its options and arguments, and the output flags the shell keeps.

import ArgumentParser
import ShopCore
import PluginProtocol

/// What `NAME COMMAND ARGS…` asks for.
///
/// The output flags (`-o/--format`, `--fields`, `--no-header`, `--wide`, `--color`,
/// `--no-pager`) are the shell's: it renders the plugin's rows, so they are taken out and never
/// passed to the plugin (a plugin cannot declare options with those names).
struct ExternalInvocation {
    /// The command to run; nil when only help was asked for (or no command given).
    var command: PluginDescription.Command?
    /// What the plugin gets after its path: the command's name, then its options and arguments as typed.
    var pluginArguments: [String] = []
    var output = OutputOptions()
    var wantsHelp = false

    /// Output flags that take a value.
    static let outputOptionsWithValue: Set<String> = ["-o", "--format", "--fields", "--color"]
    /// Output flags without a value.
    static let outputFlags: Set<String> = ["--no-header", "--wide", "--no-pager"]

    /// Reads `words` (those after the plugin's name). Usage errors name the plugin.
    static func parse(_ words: [String], description: PluginDescription) throws(ShopError) -> ExternalInvocation {
        var invocation = ExternalInvocation()
        var outputWords: [String] = []
        var positionals: [String] = []
        var index = 0
        var onlyArguments = false
        let plugin = description.name
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyArguments || !word.hasPrefix("-") || word == "-" || word.dropFirst().first?.isNumber == true {
                if invocation.command == nil && !invocation.wantsHelp {
                    guard let command = description.command(word) else {
                        throw .usage("\(plugin) has no command \"\(word)\"; commands: "
                                     + description.commands.map(\.name).joined(separator: ", "))
                    }
                    invocation.command = command
                    invocation.pluginArguments.append(word)
                } else {
                    positionals.append(word)
                    invocation.pluginArguments.append(word)
                }
                continue
            }
            if word == "--" {
                onlyArguments = true
                invocation.pluginArguments.append(word)
                continue
            }
            if word == "-h" || word == "--help" {
                invocation.wantsHelp = true
                continue
            }
            let (flag, inlineValue) = split(word)
            if outputFlags.contains(flag) && inlineValue == nil {
                outputWords.append(word)
                continue
            }
            if outputOptionsWithValue.contains(flag) {
                outputWords.append(flag)
                if let inlineValue {
                    outputWords.append(inlineValue)
                } else {
                    guard index < words.count else { throw .usage("\(flag) needs a value") }
                    outputWords.append(words[index])
                    index += 1
                }
                continue
            }
            guard let command = invocation.command else {
                if invocation.wantsHelp { continue }
                throw .usage("\(plugin): give a command before \(word); commands: "
                             + description.commands.map(\.name).joined(separator: ", "))
            }
            guard flag.hasPrefix("--"), let option = command.options.first(where: { "--" + $0.name == flag }) else {
                throw .usage("\(plugin) \(command.name) has no option \(flag)"
                             + (command.options.isEmpty ? "" : "; options: " + command.options.map { "--" + $0.name }.joined(separator: ", ")))
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw .usage("\(flag) needs a value (\(option.kind.rawValue))") }
                value = words[index]
                index += 1
            }
            try check(value, kind: option.kind, what: flag)
            invocation.pluginArguments += [flag, value]
        }
        if let command = invocation.command, !invocation.wantsHelp {
            let required = command.arguments.filter { !$0.optional }.count
            if positionals.count < required, let missing = command.arguments.filter({ !$0.optional }).dropFirst(positionals.count).first {
                throw .usage("\(plugin) \(command.name) needs \(missing.name.uppercased()) (\(missing.kind.rawValue))")
            }
            if positionals.count > command.arguments.count {
                throw .usage("\(plugin) \(command.name) takes at most \(command.arguments.count) argument(s); got \(positionals.count)")
            }
            for (argument, value) in zip(command.arguments, positionals) {
                try check(value, kind: argument.kind, what: argument.name.uppercased())
            }
        }
        do {
            invocation.output = try OutputOptions.parse(outputWords)
        } catch {
            throw .usage(OutputOptions.message(for: error))
        }
        return invocation
    }

    /// `--name=value` → (`--name`, `value`).
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// Numbers must be numbers; other kinds are checked by the plugin (and the store).
    private static func check(_ value: String, kind: PluginDescription.Kind, what: String) throws(ShopError) {
        switch kind {
        case .integer where Int64(value) == nil:
            throw .usage("\(what) must be a whole number, not \"\(value)\"")
        case .decimal where { if case .text = ExternalRow.numberCell(value) { return true } else { return false } }():
            throw .usage("\(what) must be a decimal number, not \"\(value)\"")
        default:
            break
        }
    }
}
