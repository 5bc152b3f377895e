// SQLPaging: turns a listing's sort keys, limit and offset into SQL, with field names checked.

import GRDB
import ShopCore

enum SQLPaging {
    /// ` ORDER BY … LIMIT … OFFSET …` for `page`; an unknown sort field is an error listing the known ones.
    static func clause(_ page: Page, sortColumns: [String: String], tieBreaker: String) throws(ShopError) -> String {
        var terms: [String] = []
        for key in page.sort {
            guard let column = sortColumns[key.field] else {
                throw .invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(sortColumns.keys.sorted().joined(separator: ", "))")
            }
            terms.append(column + (key.descending ? " DESC" : ""))
        }
        terms.append(tieBreaker)
        var sql = " ORDER BY " + terms.joined(separator: ", ")
        if let limit = page.limit {
            sql += " LIMIT \(max(0, limit))"
        } else if page.offset > 0 {
            sql += " LIMIT -1"
        }
        if page.offset > 0 { sql += " OFFSET \(page.offset)" }
        return sql
    }

    /// `%text%`, case-folded, for `shop_fold(column) LIKE ? ESCAPE '\'` (LIKE itself folds only
    /// ASCII letters: `CRÈME` would miss `Crème`); a text longer than `ListingLimits.maxSearchLength`
    /// is refused (SQLite would fail on a long pattern in its own words).
    static func containsPattern(_ text: String) throws(ShopError) -> String {
        try ListingLimits.checkSearch(text)
        return "%" + escapeLike(text.lowercased()) + "%"
    }

    /// `shop_fold(text)`: the text in lower case, by Unicode's rules (for case-insensitive search).
    static let caseFold = DatabaseFunction("shop_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0])?.lowercased()
    }

    /// `text%` for `LIKE ? ESCAPE '\'` (a short prefix: completion, suggestions).
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
