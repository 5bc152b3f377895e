// Column: the name of one output column.

/// One column of a listing or record.
///
/// The key is snake_case and stable: it is the JSON key, the csv/tsv header and the
/// table header, and what `--fields` selects.
public struct Column: Sendable, Hashable {
    public let key: String

    public init(_ key: String) {
        self.key = key
    }
}
