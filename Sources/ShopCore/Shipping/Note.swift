// Note: what the team tells each other about an order or a customer ("call, don't email"); the
// store sets its author (the operator) and time. Support may add; only an admin may delete.

/// What a note is about.
public enum NoteSubject: Hashable, Sendable {
    case order(Int64)
    case user(Int64)

    /// The order's id, for a note on an order.
    public var orderID: Int64? { if case .order(let id) = self { id } else { nil } }
    /// The customer's id, for a note on a customer.
    public var userID: Int64? { if case .user(let id) = self { id } else { nil } }
}

/// A note on an order or a customer.
public struct Note: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var subject: NoteSubject
    /// The operator who wrote it, as the store identified them.
    public var author: String
    public var at: String
    public var text: String

    public init(id: Int64, subject: NoteSubject, author: String, at: String, text: String) {
        self.id = id
        self.subject = subject
        self.author = author
        self.at = at
        self.text = text
    }
}

/// The rule of a note's text: as a description's (lines and tabs allowed, no other control
/// characters), not empty, at most `maxLength` characters.
public enum NoteRules {
    public static let maxLength = 2_000

    public static func text(_ text: String) throws(ShopError) -> String {
        let blank: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n"]
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, blank.contains(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, blank.contains(last) { scalars = scalars.dropLast() }
        let trimmed = String(scalars)
        guard !trimmed.isEmpty else { throw .invalidInput("a note needs its text") }
        try ProductRules.checkText(trimmed, field: "note", maxLength: maxLength, allowsLines: true)
        return trimmed
    }
}
