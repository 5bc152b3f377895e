// TextWrap: breaks a message into lines at word boundaries to fit the terminal (notes and
// summaries on stderr), measuring by display width.

/// Word wrapping for messages.
public enum TextWrap {
    /// `text` with its spaces turned into line breaks where a line would pass `width` columns.
    /// A word wider than `width` stays whole on its own line: words are never cut.
    public static func wrap(_ text: String, width: Int) -> String {
        guard width > 0, DisplayWidth.of(text) > width else { return text }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(String(word))
            if lineWidth > 0 && lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = String(word)
                lineWidth = wordWidth
            } else {
                line += (lineWidth > 0 || !line.isEmpty ? " " : "") + word
                lineWidth += (lineWidth > 0 ? 1 : 0) + wordWidth
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
