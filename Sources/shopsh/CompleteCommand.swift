// CompleteCommand: `shopsh __complete WORDS…`: completion candidates for the shell scripts in
// completions/, from the same engine as Tab in the prompt.

import Foundation
import ShellKit
import ShopCore

/// `shopsh __complete [GLOBAL OPTIONS…] WORDS… PREFIX`: the last word is the one being
/// completed (empty for a fresh word); prints one candidate per line, followed by a tab and its
/// description where it has one (a product id's title), as fish reads it. `shopsh __complete
/// --values KIND…` prints the live values of the first kind (`product`, `user`, …). Global options before
/// the command (`--store PATH`, `-o FORMAT`, …) are skipped; `--store` and `SHOPSH_STORE`
/// pick the store. The default store is never created here: without it there are no live values.
enum CompleteCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        guard let prefix = arguments.last else { return 0 }
        // Global options before the command word are skipped; completing one's value gives nothing.
        let global = GlobalArguments(Array(arguments.dropLast()))
        if global.endsBeforeAValue { return 0 }
        let words = global.words
        let store = StoreFactory.openIfPresent(StoreFactory.value(explicit: global.store, environment: environment),
                                               environment: environment)
        let source = store.flatMap { $0.services.masked(for: $0.identity.role).completions }
        var configured = CompletionEngine(plugins: allPlugins, source: source)
        configured.externalEnvironment = environment
        let engine = configured, before = words
        var output = ""
        if arguments.first == "--values", arguments.count > 1 {
            // `__complete --values KIND…` (a `.shop(…)` completion in the scripts argument-parser
            // generates, which cannot tell the words of `[USER] PRODUCT` apart): the values of
            // every kind named; the script filters them by what is typed.
            let kinds = arguments.dropFirst().map { $0 == "customer" ? "user" : $0 }
            let values = Blocking.run {
                var values: [String] = []
                for kind in kinds { values += await engine.liveValues(named: kind) }
                return values
            }
            for value in values where !value.contains("\n") { output += value + "\n" }
        } else {
            let candidates = Blocking.run { await engine.detailedCandidates(before: before, prefix: prefix) }
            for candidate in candidates where !candidate.value.contains("\n") && !candidate.value.contains("\t") {
                output += candidate.value
                if let description = candidate.description.map(oneLine), !description.isEmpty { output += "\t" + description }
                output += "\n"
            }
        }
        writeToStream(output, STDOUT_FILENO)
        return 0
    }

    /// A description on one line of printable text: control characters (tab, newline, escape…)
    /// become blanks, so a title cannot break the line or reach the terminal as a sequence.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }
}
