// CompletionEngine: answers "what could come next?" from the command tree, for Tab in the shell.

import ArgumentParser

/// Completes command lines from the registered commands: command names, then subcommand names.
public struct CompletionEngine: Sendable {
    let roots: [(name: String, command: any ParsableCommand.Type)]

    public init(shell: Shell) {
        roots = shell.plugins.map { ($0.name, $0.command) }
            + shell.builtins.flatMap { builtin in
                ([builtin._commandName] + builtin.configuration.aliases).map { ($0, builtin as any ParsableCommand.Type) }
            }
    }

    /// The candidates for the word being typed, given the words before it.
    public func candidates(before words: [String], prefix: String) -> [String] {
        guard let first = words.first else {
            return roots.map(\.name).filter { $0.hasPrefix(prefix) }.sorted()
        }
        guard let root = roots.first(where: { $0.name == first })?.command else { return [] }
        var current: any ParsableCommand.Type = root
        for word in words.dropFirst() {
            guard let sub = current.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            current = sub
        }
        if words.count == 1 || current != root {
            let subs = current.configuration.subcommands.map { $0._commandName }
            if !subs.isEmpty && !prefix.hasPrefix("-") { return subs.filter { $0.hasPrefix(prefix) }.sorted() }
        }
        return []
    }

    /// Completes a readline request: splits the line before the cursor into words.
    public func complete(_ request: CompletionRequest) -> [String] {
        let before = String(request.line.prefix(request.wordStart))
        let words = (try? LineParser.parse(before).words) ?? before.split(separator: " ").map(String.init)
        return candidates(before: words, prefix: request.word)
    }
}
