// JSONText: a JSON string literal for text outside a listing (error objects on stderr).

/// Quotes text as a JSON string with the same escaping rules as the json renderer.
public enum JSONText {
    /// `he said "hi"` → `"he said \"hi\""`.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
