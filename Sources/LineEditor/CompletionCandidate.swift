// CompletionCandidate: one answer to Tab — the word to insert and, for product ids, the title
// shown beside it (ReadlineCompletion lays them out).

/// One candidate: the word to insert and, for product ids, the title to show beside it.
public struct CompletionCandidate: Sendable, Equatable {
    public var value: String
    public var description: String?

    public init(_ value: String, description: String? = nil) {
        self.value = value
        self.description = description
    }
}
