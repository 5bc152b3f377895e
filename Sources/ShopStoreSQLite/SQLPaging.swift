// SQLPaging: turns a listing's sort keys, limit and offset into SQL (field names checked by
// ShopCore's Page.sortTerms), and the case folding that search patterns are compared with.

import GRDB
import ShopCore

enum SQLPaging {
    /// ` ORDER BY … LIMIT … OFFSET …` for `page`; an unknown sort field is an error listing the known ones.
    static func clause(_ page: Page, sortColumns: [String: String], tieBreaker: String) throws(ShopError) -> String {
        let terms = try page.sortTerms(in: sortColumns).map { $0.expression + ($0.descending ? " DESC" : "") }
        var sql = " ORDER BY " + (terms + [tieBreaker]).joined(separator: ", ")
        if let limit = page.limit {
            sql += " LIMIT \(max(0, limit))"
        } else if page.offset > 0 {
            sql += " LIMIT -1"
        }
        if page.offset > 0 { sql += " OFFSET \(page.offset)" }
        return sql
    }

    /// `shop_fold(text)`: the text in lower case, by Unicode's rules, to compare with
    /// `LikePattern.contains` (LIKE itself folds only ASCII letters: `CRÈME` would miss `Crème`).
    static let caseFold = DatabaseFunction("shop_fold", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0])?.lowercased()
    }
}
