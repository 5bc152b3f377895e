// CompletionEngine: answers "what could come next?" from the command tree, for Tab in the shell
// and for `shopsh __complete` (the bash, zsh and fish scripts).

import ArgumentParser
import Foundation
import ShopCore
import ShopOutput
import LineEditor

/// Completes command lines from the registered commands: command and subcommand names, flags
/// of the command being typed (from argument-parser's tool info), enumerated values, file
/// paths, and live values (users, products, orders, categories, currencies) from a
/// ``CompletionSource`` where a command declared them (`completion: .shop(…)`).
public struct CompletionEngine: Sendable {
    let roots: [(name: String, command: any ParsableCommand.Type)]
    let source: (any CompletionSource)?
    /// The current customer (`use USER`), if any: a `.customer` positional may then be left out.
    let currentCustomer: @Sendable () -> String?
    /// The most live values asked of the store for one Tab.
    public var limit = 100
    /// The environment external plugins are looked for in (nil: built-in commands only).
    public var externalEnvironment: [String: String]?
    /// The session's aliases (name → body): their names complete first, and after one the
    /// words complete as its first command's.
    public var aliases: @Sendable () -> [String: String] = { [:] }
    /// The session's variable names, for `unlet`.
    public var variables: @Sendable () -> [String] = { [] }

    /// The engine of the interactive shell: its commands, its store, its current customer.
    public init(shell: Shell) {
        let session = shell.session
        self.init(plugins: shell.plugins, source: shell.services.completions,
                  currentCustomer: { session.currentUser })
        externalEnvironment = shell.environment
        aliases = { session.aliases }
        variables = { Array(session.variables.keys) }
    }

    /// An engine over `plugins` and the built-in commands.
    public init(plugins: [ShellPlugin], source: (any CompletionSource)?,
                currentCustomer: @escaping @Sendable () -> String? = { nil }) {
        self.init(commands: plugins.map { ($0.name, $0.command) }
                    + BuiltinCommands.all.flatMap { builtin in
                        ([builtin.shellName] + builtin.configuration.aliases).map { ($0, builtin as any ParsableCommand.Type) }
                    },
                  source: source, currentCustomer: currentCustomer)
    }

    /// An engine over `commands` (first word → root command type).
    public init(commands: [(name: String, command: any ParsableCommand.Type)], source: (any CompletionSource)?,
                currentCustomer: @escaping @Sendable () -> String? = { nil }) {
        roots = commands
        self.source = source
        self.currentCustomer = currentCustomer
    }

    // MARK: - Entry points

    /// The candidates' values for the word being typed (`prefix`), given the words before it.
    public func candidates(before words: [String], prefix: String) async -> [String] {
        await detailedCandidates(before: words, prefix: prefix).map(\.value)
    }

    /// Completes a readline request: splits the line before the cursor into words.
    public func complete(_ request: CompletionRequest) async -> [CompletionCandidate] {
        let before = String(request.line.prefix(request.wordStart))
        let words = (try? LineParser.parse(before).words) ?? before.split(separator: " ").map(String.init)
        return await detailedCandidates(before: words, prefix: request.word)
    }

    /// The live values of the kind `word` names (`product`, `user`, … as in a `.shop(…)`
    /// completion command), for the scripts argument-parser generates; nothing for an unknown word.
    public func liveValues(named word: String, prefix: String = "") async -> [String] {
        guard let kind = CompletionKind.liveKinds.first(where: { $0.word == word })?.kind else { return [] }
        return await live(kind, prefix: prefix).map(\.value)
    }

    /// The candidates for the word being typed, with descriptions where there are some.
    public func detailedCandidates(before words: [String], prefix: String) async -> [CompletionCandidate] {
        guard let first = words.first else {
            return plain(roots.map(\.name) + externalPlugins().map(\.name) + aliases().keys.sorted(), prefix: prefix)
        }
        if roots.first(where: { $0.name == first }) == nil, let body = aliases()[first] {
            return await aliasCandidates(body: body, typed: Array(words.dropFirst()), prefix: prefix)
        }
        guard let root = roots.first(where: { $0.name == first })?.command else {
            return await externalCandidates(first, words: Array(words.dropFirst()), prefix: prefix)
        }
        if ObjectIdentifier(root) == ObjectIdentifier(WatchCommand.self) { return await watchedCandidates(words, prefix: prefix) }
        if ObjectIdentifier(root) == ObjectIdentifier(UnaliasCommand.self) { return plain(aliases().keys.sorted(), prefix: prefix) }
        if ObjectIdentifier(root) == ObjectIdentifier(UnletCommand.self) { return plain(variables().sorted(), prefix: prefix) }
        var current: any ParsableCommand.Type = root
        var path: [String] = []
        var rest = Array(words.dropFirst())
        while let word = rest.first,
              let sub = current.configuration.subcommands.first(where: { $0.shellName == word }) {
            current = sub
            path.append(word)
            rest.removeFirst()
        }
        let subcommands = current.configuration.subcommands.map { $0.shellName }
        if !subcommands.isEmpty {
            return rest.isEmpty && !prefix.hasPrefix("-") ? plain(subcommands, prefix: prefix) : []
        }
        let info = CommandInfoCache.info(root: root, path: path)
        return await arguments(rest, prefix: prefix, info: info)
    }

    /// After an alias: the words its first command would have there (`vip ` under
    /// `alias vip 'users show $1; …'` completes as `users show `); nothing past its last argument.
    func aliasCandidates(body: String, typed: [String], prefix: String) async -> [CompletionCandidate] {
        guard let text = AliasBody.commandTexts(body).first, let template = try? LineParser.template(text) else { return [] }
        var expanded: [String] = []
        var readsArguments = false
        for word in template.words {
            guard word.parts.count == 1, case .expansion(let expansion, _) = word.parts[0],
                  expansion == .allArguments || expansion.argumentNumber != nil else {
                expanded.append(word.literal)
                continue
            }
            readsArguments = true
            if expansion == .allArguments { return await detailedCandidates(before: expanded + typed, prefix: prefix) }
            guard let number = expansion.argumentNumber, number - 1 <= typed.count else { return [] }
            if number - 1 == typed.count { return await detailedCandidates(before: expanded, prefix: prefix) }
            expanded.append(typed[number - 1])
        }
        return readsArguments ? [] : await detailedCandidates(before: expanded + typed, prefix: prefix)
    }

    /// After `watch` and its own options, the words are a command line of their own: they
    /// complete as one. (argument-parser's dump of watch cannot be had: its passthrough
    /// argument takes `--experimental-dump-help` as a word, so watch's options are listed here.)
    func watchedCandidates(_ words: [String], prefix: String) async -> [CompletionCandidate] {
        var rest = Array(words.dropFirst())
        while let word = rest.first, word.hasPrefix("-") {
            rest.removeFirst()
            if word == "--" { break }
            if ["-n", "--interval", "--count"].contains(word) {
                guard !rest.isEmpty else { return [] }   // its value: a number
                rest.removeFirst()
            }
        }
        guard let command = rest.first else {
            if prefix.hasPrefix("-") { return plain(["-n", "--interval", "--count", "--help"], prefix: prefix) }
            return plain(roots.map(\.name).filter { $0 != WatchCommand.configuration.commandName }, prefix: prefix)
        }
        if command == WatchCommand.configuration.commandName { return [] }
        return await detailedCandidates(before: rest, prefix: prefix)
    }

    // MARK: - Arguments of a leaf command

    func arguments(_ words: [String], prefix: String, info: CommandInfo?) async -> [CompletionCandidate] {
        let options = info?.arguments.filter { $0.kind != "positional" } ?? []
        // Walk the words typed so far: count positionals, skip option values.
        var positionalCount = 0
        var pendingOption: ArgumentInfo?
        var afterDoubleDash = false
        for word in words {
            if pendingOption != nil {
                pendingOption = nil   // this word was the option's value
            } else if afterDoubleDash {
                positionalCount += 1
            } else if word == "--" {
                afterDoubleDash = true
            } else if word.hasPrefix("-") && word.count > 1 && !Self.isNumber(word) {
                if !word.contains("="), let option = Self.option(named: word, in: options), option.kind == "option" {
                    pendingOption = option
                }
            } else {
                positionalCount += 1
            }
        }
        if let option = pendingOption {
            return await values(of: option, prefix: prefix)
        }
        if !afterDoubleDash, prefix.hasPrefix("--"), let equals = prefix.firstIndex(of: "=") {
            let flag = String(prefix[..<equals])
            guard let option = Self.option(named: flag, in: options), option.kind == "option" else { return [] }
            let valuePrefix = String(prefix[prefix.index(after: equals)...])
            return await values(of: option, prefix: valuePrefix)
                .map { CompletionCandidate(flag + "=" + $0.value, description: $0.description) }
        }
        if !afterDoubleDash, prefix.hasPrefix("-"), !Self.isNumber(prefix) {
            var names: [String] = []
            for option in options where option.shouldDisplay != false {
                for name in option.names ?? [] {
                    names.append(name.kind == "short" ? "-" + name.name : "--" + name.name)
                }
            }
            names.append("--help")
            return plain(names, prefix: prefix)
        }
        // A positional word: each positional declared with `.shop(…)` stands for as many words
        // as it names kinds (a customer command's USER and its words).
        let positionals = info?.arguments.filter { $0.kind == "positional" } ?? []
        var slots: [PositionalSlot] = positionals.flatMap { argument -> [PositionalSlot] in
            argument.completionKind?.shopKinds.map { $0.map(PositionalSlot.live) } ?? [.argument(argument)]
        }
        if case .live(.customer)? = slots.first, currentCustomer() != nil { slots.removeFirst() }
        let slot: PositionalSlot
        if positionalCount < slots.count {
            slot = slots[positionalCount]
        } else if let last = slots.last, case .argument(let argument) = last, argument.isRepeating == true {
            slot = last
        } else {
            return []
        }
        switch slot {
        case .live(let kind): return await live(kind, prefix: prefix)
        case .argument(let argument): return await values(of: argument, prefix: prefix)
        }
    }

    /// What one positional word is: a live kind, or whatever argument-parser knows of it.
    enum PositionalSlot {
        case live(CompletionKind)
        case argument(ArgumentInfo)
    }

    /// The values an option (or positional) takes.
    func values(of argument: ArgumentInfo, prefix: String) async -> [CompletionCandidate] {
        if let kind = argument.completionKind?.shopKinds?.first { return await live(kind, prefix: prefix) }
        if let all = argument.allValues, !all.isEmpty { return plain(all, prefix: prefix, sorted: false) }
        if let file = argument.completionKind?.file {
            return await live(.file(extensions: file.extensions ?? []), prefix: prefix)
        }
        if argument.completionKind?.directory != nil {
            return Self.paths(prefix: prefix, extensions: [], directoriesOnly: true).map { CompletionCandidate($0) }
        }
        if let list = argument.completionKind?.list?.values { return plain(list, prefix: prefix, sorted: false) }
        return []
    }

    /// Candidates of one kind; live kinds ask the store (no candidates if it fails or is absent).
    func live(_ kind: CompletionKind, prefix: String) async -> [CompletionCandidate] {
        switch kind {
        case .none:
            return []
        case .values(let values):
            return plain(values, prefix: prefix, sorted: false)
        case .file(let extensions):
            return Self.paths(prefix: prefix, extensions: extensions, directoriesOnly: false).map { CompletionCandidate($0) }
        case .time:
            return plain(Self.pastMoments(now: Int64(Date().timeIntervalSince1970)), prefix: prefix, sorted: false)
        default:
            break
        }
        guard let source else { return [] }
        do {
            switch kind {
            case .user, .customer:
                // One candidate per user: the email when it matches, else the username.
                let lowered = prefix.lowercased()
                return try await source.users(prefix: prefix, limit: limit).map { user in
                    CompletionCandidate(user.email.lowercased().hasPrefix(lowered) ? user.email : user.username)
                }.sortedByValue()
            case .product:
                var found: [CompletionCandidate] = []
                if prefix.isEmpty || Self.isDigits(prefix) {
                    found = try await source.productIDs(prefix: prefix, limit: limit)
                        .map { CompletionCandidate(String($0.id), description: $0.title) }
                }
                if !Self.isDigits(prefix) {
                    found += try await source.skus(prefix: prefix, limit: limit).map { CompletionCandidate($0) }
                }
                // A barcode, typed or scanned digit by digit (ids are shorter: from 3 digits on).
                if prefix.count >= 3, Self.isDigits(prefix) {
                    found += try await source.barcodes(prefix: prefix, limit: limit)
                        .map { CompletionCandidate($0.barcode, description: $0.title) }
                }
                // Words of a title (search's rule: the start of a word), offered as the product's id.
                if prefix.count >= 2, !Self.isDigits(prefix) {
                    found += try await source.productTitles(prefix: prefix, limit: limit)
                        .map { CompletionCandidate(String($0.id), description: $0.title) }
                }
                return found
            case .order:
                guard prefix.isEmpty || Self.isDigits(prefix) else { return [] }
                return try await source.orderIDs(prefix: prefix, limit: limit).map { CompletionCandidate(String($0)) }
            case .category:
                return try await source.categories(prefix: prefix, limit: limit).map { CompletionCandidate($0) }
            case .currency:
                return try await source.currencyCodes(prefix: prefix, limit: limit).map { CompletionCandidate($0) }
            case .coupon:
                return try await source.couponCodes(prefix: prefix, limit: limit).map { CompletionCandidate($0) }
            case .auditOperator:
                return try await source.auditOperators(prefix: prefix, limit: limit).map { CompletionCandidate($0) }
            case .none, .values, .file, .time:
                return []
            }
        } catch {
            return []
        }
    }

    // MARK: - Helpers

    /// What `--as-of` is offered: spans ago, the hour now and the day's start, today and the six
    /// days before (HistoryMoment reads them all).
    static func pastMoments(now: Int64) -> [String] {
        let spans = ["15m", "1h", "2h", "6h", "12h", "1d", "2d", "3d", "1w"]
        let hour = now - now % 3_600
        let days = (0..<7).map { String(ShopClock.timestamp(now - Int64($0) * 86_400).prefix(10)) }
        return spans + [ShopClock.timestamp(hour), String(ShopClock.timestamp(now).prefix(10)) + "T00:00:00Z"] + days
    }

    func plain(_ values: [String], prefix: String, sorted: Bool = true) -> [CompletionCandidate] {
        var seen = Set<String>()
        let matching = values.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
        return (sorted ? matching.sorted() : matching).map { CompletionCandidate($0) }
    }

    static func option(named word: String, in options: [ArgumentInfo]) -> ArgumentInfo? {
        let isLong = word.hasPrefix("--")
        let name = String(word.dropFirst(isLong ? 2 : 1))
        return options.first { option in
            (option.names ?? []).contains { $0.name == name && ($0.kind == "short") != isLong }
        }
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `-5`, `+3`: numbers (stock changes), not flags.
    static func isNumber(_ text: String) -> Bool {
        guard let first = text.first, first == "-" || first == "+" else { return false }
        return isDigits(String(text.dropFirst()))
    }

    /// Paths starting with `prefix`: directories end in `/`; files are kept when they have one
    /// of `extensions` (any file when empty). Hidden entries only when `prefix`'s last part
    /// starts with a dot. `~/` is expanded for the lookup and kept in the candidates.
    static func paths(prefix: String, extensions: [String], directoriesOnly: Bool) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let directoryPart = slash.map { String(prefix[...$0]) } ?? ""
        let namePrefix = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        var lookup = directoryPart.isEmpty ? "." : directoryPart
        if lookup.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            lookup = home + lookup.dropFirst()
        }
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: lookup) else { return [] }
        var result: [String] = []
        for entry in entries where entry.hasPrefix(namePrefix) {
            if entry.hasPrefix(".") && !namePrefix.hasPrefix(".") { continue }
            var isDirectory: ObjCBool = false
            let full = (lookup.hasSuffix("/") ? lookup : lookup + "/") + entry
            guard manager.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                result.append(directoryPart + entry + "/")
            } else if !directoriesOnly,
                      extensions.isEmpty || extensions.contains(where: { entry.lowercased().hasSuffix("." + $0.lowercased()) }) {
                result.append(directoryPart + entry)
            }
        }
        return result.sorted()
    }
}

extension Array where Element == CompletionCandidate {
    func sortedByValue() -> [CompletionCandidate] { sorted { $0.value < $1.value } }
}
