// CompletionKind and CompletionSpec: what a command's positional words and option values are,
// so Tab can offer live values from the store at the right places.

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
    /// A currency code.
    case currency
    /// An operator named in the audit log.
    case auditOperator
    /// A file path (only these extensions when not empty; directories always).
    case file(extensions: [String])
}

/// The completion kinds of one command: its positionals in order and its options by long name.
///
/// Options not listed fall back to ``CompletionSpec/commonOptions`` (`--format`, `--color`,
/// `--currency`, `--category`, `--user`), then to the values argument-parser knows (an
/// enumerated type's cases, `completion: .file()`).
public struct CompletionSpec: Sendable, Equatable {
    public var positionals: [CompletionKind]
    public var options: [String: CompletionKind]

    public init(positionals: [CompletionKind] = [], options: [String: CompletionKind] = [:]) {
        self.positionals = positionals
        self.options = options
    }

    /// Kinds of option values that mean the same in every command.
    public static let commonOptions: [String: CompletionKind] = [
        "currency": .currency,
        "category": .category,
        "user": .user,
    ]
}
