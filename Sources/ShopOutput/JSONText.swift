// JSONText: a JSON string literal for text outside a listing (error objects on stderr).

/// Quotes text as a JSON string with the same escaping rules as the json renderer.
public enum JSONText {
    /// `he said "hi"` → `"he said \"hi\""`. With `toTerminal` (the text goes to a terminal), the
    /// control characters JSON leaves raw are `\u` escapes too, as in the json renderer.
    public static func quoted(_ text: String, toTerminal: Bool = false) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendString(text, toTerminal: toTerminal, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
