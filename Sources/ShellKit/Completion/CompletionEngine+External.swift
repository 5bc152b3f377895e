// CompletionEngine+External: Tab for external plugins: their names, commands and options, and
// their arguments' and options' values by kind (live kinds from the store, files, formats).

import ShopOutput
import LineEditor
import PluginHost
import PluginProtocol

extension CompletionEngine {
    /// The external plugins that can run (described, not shadowed).
    func externalPlugins() -> [ExternalPlugin] {
        guard let environment = externalEnvironment else { return [] }
        return ExternalPluginFinder.all(environment: environment, builtinNames: Set(roots.map(\.name)))
            .filter { $0.description != nil }
    }

    /// Candidates after an external plugin's name `name` (`words` are those typed after it).
    func externalCandidates(_ name: String, words: [String], prefix: String) async -> [CompletionCandidate] {
        guard let environment = externalEnvironment,
              let description = ExternalPluginFinder.find(name, environment: environment,
                                                          builtinNames: Set(roots.map(\.name)))?.description else { return [] }
        let outputOptions = ["--format", "--fields", "--no-header", "--wide", "--color", "--no-pager", "--help"]
        guard let commandName = words.first else {
            return prefix.hasPrefix("-") ? plain(["--help"], prefix: prefix) : plain(description.commands.map(\.name), prefix: prefix)
        }
        guard let command = description.command(commandName) else { return [] }
        var pending: String?
        var positionals = 0
        var afterDoubleDash = false
        for word in words.dropFirst() {
            if pending != nil {
                pending = nil
            } else if afterDoubleDash || !word.hasPrefix("-") || Self.isNumber(word) {
                positionals += 1
            } else if word == "--" {
                afterDoubleDash = true
            } else if !word.contains("="), word != "--help",
                      ExternalInvocation.outputOptionsWithValue.contains(word)
                        || command.options.contains(where: { "--" + $0.name == word }) {
                pending = word
            }
        }
        if let option = pending {
            switch option {
            case "-o", "--format": return plain(OutputFormat.allCases.map(\.rawValue), prefix: prefix, sorted: false)
            case "--color": return plain(ColorMode.allCases.map(\.rawValue), prefix: prefix, sorted: false)
            case "--fields": return []
            default:
                let kind = command.options.first { "--" + $0.name == option }?.kind ?? .text
                return await live(kind.completion, prefix: prefix)
            }
        }
        if !afterDoubleDash, prefix.hasPrefix("-"), !Self.isNumber(prefix) {
            return plain(command.options.map { "--" + $0.name } + outputOptions, prefix: prefix)
        }
        guard positionals < command.arguments.count else { return [] }
        return await live(command.arguments[positionals].kind.completion, prefix: prefix)
    }
}

extension PluginDescription.Kind {
    /// How Tab completes a value of this kind.
    public var completion: CompletionKind {
        switch self {
        case .text, .integer, .decimal: return .none
        case .file: return .file(extensions: [])
        case .user: return .user
        case .product: return .product
        case .order: return .order
        case .category: return .category
        case .currency: return .currency
        }
    }
}
