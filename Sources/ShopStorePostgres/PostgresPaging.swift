// PostgresPaging: a listing's sort keys as an ORDER BY (field names checked by ShopCore's
// Page.sortTerms against a fixed table, so only constant SQL is spliced in). Search texts are
// bound as ShopCore's LikePattern, never spliced.

import ShopCore

enum PostgresPaging {
    /// The ORDER BY terms for `page` (without the keywords). NULLs sort first ascending and last
    /// descending, as SQLite does; an unknown field is an error listing the known ones.
    static func orderBy(_ page: Page, sortColumns: [String: String], tieBreaker: String) throws(ShopError) -> String {
        let terms = try page.sortTerms(in: sortColumns).map { $0.expression + ($0.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST") }
        return (terms + [tieBreaker]).joined(separator: ", ")
    }
}
