// CompletionKind: what a command's positional words and option values are, so Tab can offer live
// values from the store. A command declares it once, on its argument-parser declaration
// (`@Argument(completion: .shop(.product))`); the engine reads it back from the tool info.

import ArgumentParser

/// What a word at some position of a command line is.
public enum CompletionKind: Sendable, Equatable {
    /// Nothing to offer (free text, a number).
    case none
    /// One of these fixed words.
    case values([String])
    /// USER: an id, username or email.
    case user
    /// USER that may be left out after `use USER` (the first positional of basket and
    /// favourites commands): skipped when a current customer is set.
    case customer
    /// PRODUCT: an id or SKU.
    case product
    /// ORDER: an order id.
    case order
    /// A category slug.
    case category
    /// A coupon code.
    case coupon
    /// A currency code.
    case currency
    /// An operator named in the audit log.
    case auditOperator
    /// A past moment (`--as-of`): spans ago, today and the days before, the hour now.
    case time
    /// A file path (only these extensions when not empty; directories always).
    case file(extensions: [String])
}

extension CompletionKind {
    /// The kinds that live in the store, by the word that names them in a completion command.
    static let liveKinds: [(word: String, kind: CompletionKind)] = [
        ("none", .none), ("user", .user), ("customer", .customer), ("product", .product), ("order", .order),
        ("category", .category), ("coupon", .coupon), ("currency", .currency), ("operator", .auditOperator),
        ("time", .time),
    ]

    /// The command argument-parser's `.shellCommand` completion carries for live kinds: it asks
    /// `shopsh __complete --values` for them, so the scripts argument-parser generates offer the
    /// same values as Tab at the prompt.
    static let valuesCommand = "shopsh __complete --values"

    /// The kinds a `.shellCommand` completion names (nil when it is not one of shopsh's).
    static func kinds(inShellCommand command: String) -> [CompletionKind]? {
        guard command.hasPrefix(valuesCommand + " ") else { return nil }
        let words = command.dropFirst(valuesCommand.count + 1).split(separator: " ")
        let kinds = words.compactMap { word in liveKinds.first { $0.word == word }?.kind }
        return kinds.count == words.count && !kinds.isEmpty ? kinds : nil
    }

    /// The word naming a live kind in a completion command (nil for fixed values and files).
    var liveWord: String? {
        CompletionKind.liveKinds.first { $0.kind == self }?.word
    }
}

extension ArgumentParser.CompletionKind {
    /// Live values from the store for this argument: one kind for one word, or (for the words
    /// of ``CustomerArguments``) the kinds of successive words.
    public static func shop(_ kinds: ShellKit.CompletionKind...) -> Self {
        shop(kinds)
    }

    /// Live values from the store for successive words.
    public static func shop(_ kinds: [ShellKit.CompletionKind]) -> Self {
        .shellCommand(([ShellKit.CompletionKind.valuesCommand] + kinds.map { $0.liveWord ?? "none" }).joined(separator: " "))
    }
}
