// CompletionRequest: what the line editor asks the completion engine when Tab is pressed.

/// The state of the line when the operator pressed Tab.
///
/// ``ReadlineLineReader`` builds one per Tab and passes it to its completer, which returns
/// the full words that could replace ``word`` (not just their missing endings).
public struct CompletionRequest: Sendable, Equatable {
    /// The line from its start up to the cursor, exactly as typed.
    public let line: String
    /// The offset, in Characters of ``line``, where the word being completed starts.
    ///
    /// When the word follows an opening quote (`show "Ann`), it starts after the quote.
    public let wordStart: Int
    /// The word being completed with its quotes and backslash escapes removed
    /// (`my\ fi` and `"my fi` both give `my fi`); empty right after a blank.
    public var word: String

    /// Creates a request.
    public init(line: String, wordStart: Int, word: String) {
        self.line = line
        self.wordStart = wordStart
        self.word = word
    }
}
