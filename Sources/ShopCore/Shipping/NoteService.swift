// NoteService: the team's notes on orders and customers, as every store keeps them — the store
// sets each note's author (the operator; the login on PostgreSQL) and time; support adds, only an
// admin deletes (ShopOperation.addNote, .deleteNote).

/// What a note is written on, as an operator names it.
public enum NoteTarget: Hashable, Sendable {
    case order(Int64)
    /// A customer by id, username or email.
    case user(String)

    /// How a line names it: `order 12`, `"emilys"`.
    public var described: String {
        switch self {
        case .order(let id): return "order \(id)"
        case .user(let reference): return reference.quotedForMessage()
        }
    }
}

/// The notes on orders and customers.
public protocol NoteService: Sendable {
    /// The notes on `target`, oldest first.
    func notes(on target: NoteTarget) async throws -> [Note]
    /// Adds a note whose text follows NoteRules; returns it with its author and time.
    func addNote(on target: NoteTarget, _ text: String) async throws -> Note
    /// Deletes note `id` of `target`; returns it as it was.
    func deleteNote(_ id: Int64, on target: NoteTarget) async throws -> Note
}

/// What every store says of a note it cannot find.
public enum NoteLookup {
    public static func notFound(_ id: Int64, on target: NoteTarget) -> ShopError {
        .notFound("\(target.described) has no note \(id)")
    }
}
