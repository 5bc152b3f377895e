// SelectionText: the one rule for a text that picks what a command works on (a search, a category,
// a brand, a customer, an operator): never empty or blank, so that a script's empty variable
// (`--search "$TERM"`) never widens a selection to everything, nor quietly selects nothing.

import ShopCore

/// Checks the texts that select.
public enum SelectionText {
    /// `text` when it holds something besides blanks; a usage error naming `option` otherwise.
    public static func check(_ text: String, for option: String) throws(ShopError) -> String {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw .usage("\(option) is \(text.isEmpty ? "empty" : "blank"): give it a value, or leave it out")
        }
        return text
    }

    /// `check` for an option that may be absent.
    public static func check(_ text: String?, for option: String) throws(ShopError) -> String? {
        guard let text else { return nil }
        let given: String = text
        return try check(given, for: option) as String
    }
}
