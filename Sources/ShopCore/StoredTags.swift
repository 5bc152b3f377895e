// StoredTags: how every store keeps a product's tags in one text column — joined with commas —
// and splits them back (on the comma's byte: a listing does it for every row).

/// A product's tags as one stored text.
public enum StoredTags {
    /// The tags joined with commas.
    public static func encode(_ tags: [String]) -> String { tags.joined(separator: ",") }

    /// The stored text split on commas, empty tags dropped. Splits on UTF-8 bytes: splitting on
    /// Characters cost a fifth of a 1M-row export.
    public static func decode(_ text: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(text)
        while let comma = rest.utf8.firstIndex(of: UInt8(ascii: ",")) {
            if comma > rest.startIndex { tags.append(String(rest[..<comma])) }
            rest = rest[rest.utf8.index(after: comma)...]
        }
        if !rest.isEmpty { tags.append(String(rest)) }
        return tags
    }
}
