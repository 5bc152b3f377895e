// PostgresTimes: timestamps and days read back in the shop's one format (ShopClock's
// `2026-04-13T10:20:30Z`, `YYYY-MM-DD`), whatever the server's TimeZone and DateStyle.

/// Constant SQL that reads `TIMESTAMPTZ` and `DATE` columns so that they decode to the shop's format.
enum PostgresTimes {
    /// `column` (a `TIMESTAMPTZ`) as whole seconds since 1970-01-01 UTC, a BIGINT for
    /// `ShopClock.timestamp(_:)`. `column` must be constant SQL (a column name), never a value.
    static func epochSeconds(_ column: String) -> String {
        "floor(extract(epoch FROM \(column)))::bigint"
    }

    /// `expression` (a `DATE`) as `YYYY-MM-DD` text (`date::text` would follow DateStyle).
    /// `expression` must be constant SQL, never a value.
    static func day(_ expression: String) -> String {
        "to_char(\(expression), 'YYYY-MM-DD')"
    }
}
