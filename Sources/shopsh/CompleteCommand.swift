// CompleteCommand: `shopsh __complete WORDS…`: completion candidates for the shell scripts in
// completions/, from the same engine as Tab in the prompt.

import Foundation
import ShellKit
import ShopCore

/// `shopsh __complete [GLOBAL OPTIONS…] WORDS… PREFIX`: the last word is the one being
/// completed (empty for a fresh word); prints one candidate per line. Global options before
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
        let candidates = Blocking.run { await engine.candidates(before: before, prefix: prefix) }
        var output = ""
        for candidate in candidates where !candidate.contains("\n") {
            output += candidate + "\n"
        }
        writeToStream(output, STDOUT_FILENO)
        return 0
    }
}
