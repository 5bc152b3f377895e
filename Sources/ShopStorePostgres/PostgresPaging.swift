// PostgresPaging: a listing's sort keys as an ORDER BY (field names checked against a fixed table,
// so only constant SQL is spliced in) and search texts as LIKE patterns (bound, never spliced).

import ShopCore

enum PostgresPaging {
    /// The ORDER BY terms for `page` (without the keywords). NULLs sort first ascending and last
    /// descending, as SQLite does; an unknown field is an error listing the known ones.
    static func orderBy(_ page: Page, sortColumns: [String: String], tieBreaker: String) throws(ShopError) -> String {
        var terms: [String] = []
        for key in page.sort {
            guard let column = sortColumns[key.field] else {
                throw .invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(sortColumns.keys.sorted().joined(separator: ", "))")
            }
            terms.append(column + (key.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST"))
        }
        terms.append(tieBreaker)
        return terms.joined(separator: ", ")
    }

    /// `%text%` in lower case, for `lower(column) LIKE $n ESCAPE '\'`; a text longer than
    /// `ListingLimits.maxSearchLength` is refused.
    static func containsPattern(_ text: String) throws(ShopError) -> String {
        try ListingLimits.checkSearch(text)
        return "%" + escapeLike(text.lowercased()) + "%"
    }

    /// `text%` for `LIKE $n ESCAPE '\'`.
    static func prefixPattern(_ text: String) -> String {
        escapeLike(text) + "%"
    }

    /// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
    private static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
