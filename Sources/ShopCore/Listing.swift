// Listing: sorting and paging requests that services push down to their stores.

/// One sort key of a listing: a field name (as shown in output) and a direction.
public struct SortKey: Hashable, Sendable {
    public var field: String
    public var descending: Bool

    public init(field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// Parses `price`, `price:desc` or `price:asc`; several keys are separated by commas.
    /// At most `ListingLimits.maxSortKeys` keys, each field once.
    public static func parseList(_ text: String) throws(ShopError) -> [SortKey] {
        var keys: [SortKey] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= ListingLimits.maxSortKeys else {
            throw .invalidInput("too many sort keys (\(parts.count)): sort by at most \(ListingLimits.maxSortKeys) fields")
        }
        for part in parts {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            let field = String(pieces[0]).trimmingASCIISpaces
            guard !field.isEmpty, pieces.count <= 2 else {
                throw .invalidInput("invalid sort \"\(text)\": expected field[:asc|:desc], e.g. price:desc")
            }
            guard !keys.contains(where: { $0.field == field }) else {
                throw .invalidInput("invalid sort \"\(text)\": \(field) is given twice")
            }
            var descending = false
            if pieces.count == 2 {
                switch pieces[1].lowercased() {
                case "asc": descending = false
                case "desc": descending = true
                default: throw .invalidInput("invalid sort direction \"\(pieces[1])\": expected asc or desc")
                }
            }
            keys.append(SortKey(field: field, descending: descending))
        }
        return keys
    }
}

/// Which slice of a listing to return, in what order.
public struct Page: Hashable, Sendable {
    public var sort: [SortKey]
    /// nil means every row.
    public var limit: Int?
    public var offset: Int

    public init(sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0) {
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    public static let all = Page()
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    public var trimmingASCIISpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

/// Sizes of a listing's request, kept well inside what the database accepts.
public enum ListingLimits {
    /// The most fields one `--sort` may name.
    public static let maxSortKeys = 8
    /// The longest `--search` text, in characters.
    public static let maxSearchLength = 200

    /// Refuses a search text longer than `maxSearchLength` with one clear line.
    public static func checkSearch(_ text: String) throws(ShopError) {
        guard text.count <= maxSearchLength else {
            throw .invalidInput("search text too long (\(text.count) characters): search for at most \(maxSearchLength)")
        }
    }
}

extension Page {
    /// Each sort key's expression in `columns` (output field → SQL expression), in order, for a
    /// store's ORDER BY; an unknown field is an error listing the sortable ones.
    public func sortTerms(in columns: [String: String]) throws(ShopError) -> [(expression: String, descending: Bool)] {
        var terms: [(expression: String, descending: Bool)] = []
        for key in sort {
            guard let expression = columns[key.field] else {
                throw .invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(columns.keys.sorted().joined(separator: ", "))")
            }
            terms.append((expression, key.descending))
        }
        return terms
    }
}

/// LIKE patterns for `… LIKE ? ESCAPE '\'`, the same for every SQL store: `%`, `_` and `\` in
/// the text match themselves.
public enum LikePattern {
    /// `%text%` in lower case (compare it with a lower-cased column); a text longer than
    /// `ListingLimits.maxSearchLength` is refused (a database would fail on it in its own words).
    public static func contains(_ text: String) throws(ShopError) -> String {
        try ListingLimits.checkSearch(text)
        return "%" + escaped(text.lowercased()) + "%"
    }

    /// `text%` (a short prefix: completion, suggestions).
    public static func prefix(_ text: String) -> String {
        escaped(text) + "%"
    }

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
