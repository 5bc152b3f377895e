// ANSI: the few terminal escape sequences the table uses when colour is on.

/// SGR escape sequences.
enum ANSI {
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let reset = "\u{1B}[0m"
    /// A chart's bars.
    static let cyan = "\u{1B}[36m"
}
