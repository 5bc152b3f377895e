// ColumnStyle: how a table shows each column for people: its short header, whether and in what
// order it may be cut to fit the terminal, and whether it is a timestamp shown as a date. The
// one place for these rules; json, ndjson, csv and tsv never use them.

/// The table-only presentation of a column, looked up by its key.
public struct ColumnStyle: Sendable, Equatable {
    /// How a table may narrow a column that does not fit.
    public enum Fit: Int, Sendable, Comparable {
        /// Free text (titles, descriptions, names): cut first.
        case text
        /// Labels (categories, brands, emails, tags): cut when free text is not enough.
        case label
        /// Ids, SKUs, quantities, money, codes, statuses and dates: never cut.
        case fixed

        public static func < (lhs: Fit, rhs: Fit) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The header a table prints (`disc %`, `qty`).
    public var header: String
    public var fit: Fit
    /// Whether the value is an ISO 8601 timestamp, shown as its date (`2026-04-13`) in tables.
    public var isTimestamp: Bool
    /// Whether a table shows the timestamp to the minute (`2026-11-26 21:54`) rather than as its
    /// date: for columns about how long ago something happened (`basket list --idle 12h`).
    public var showsMinutes = false
    /// Whether the value is a unit (a currency code), dimmed when colour is on.
    public var isUnit: Bool

    /// The style of the column `key`.
    public static func of(_ key: String) -> ColumnStyle {
        ColumnStyle(header: headers[key] ?? key.replacingUnderscores(), fit: fit(key),
                    isTimestamp: key.hasSuffix("_at") || minuteKeys.contains(key), showsMinutes: minuteKeys.contains(key),
                    isUnit: key == "currency")
    }

    /// Timestamps a table shows to the minute (`at`: when a stock movement happened).
    private static let minuteKeys: Set<String> = ["last_change", "at"]

    private static let headers: [String: String] = [
        "discount_percentage": "disc %", "quantity": "qty", "total_quantity": "items", "unit_price": "unit price",
        "discounted_total": "disc total", "discounted_price": "disc price", "minimum_order_quantity": "min qty",
        "product_id": "product", "user_id": "user id", "order_id": "order", "favorite_count": "favs",
        "product_count": "products", "created_at": "created", "updated_at": "updated", "added_at": "added",
        "first_name": "first name", "last_name": "last name", "rate_date": "rate date", "minor_units": "digits",
    ]
    private static let textKeys: Set<String> = ["title", "description", "name", "first_name", "last_name", "abstract", "command", "note", "text"]
    /// Identifiers, codes and states: a cut one would name something else. Numbers are never cut either.
    private static let fixedKeys: Set<String> = ["id", "sku", "currency", "status", "role", "code", "base", "from", "to",
                                                 "date", "rate_date", "day", "username", "user", "customer", "line"]

    private static func fit(_ key: String) -> Fit {
        if textKeys.contains(key) { return .text }
        if fixedKeys.contains(key) || minuteKeys.contains(key) || key.hasSuffix("_id") || key.hasSuffix("_at") { return .fixed }
        return .label
    }
}

/// Which columns a table shows for people when neither `--fields` nor `--wide` is given: the
/// columns an operator's task needs, a few more while they fit, and headers that fit the view.
public struct TableView: Sendable, Equatable {
    /// The columns, in display order.
    public var fields: [String]
    /// Those of `fields` shown only while the table fits the terminal (the last go first; adjacent
    /// ones, such as first and last name, go together).
    public var optional: Set<String>
    /// Headers of this view that differ from `ColumnStyle`'s (`created_at` → `placed`).
    public var headers: [String: String]

    public init(_ fields: [String], optional: Set<String> = [], headers: [String: String] = [:]) {
        self.fields = fields
        self.optional = optional
        self.headers = headers
    }

    /// The view with `extra` columns appended (e.g. `rate_date` when money is converted).
    public func appending(_ extra: [String]) -> TableView {
        TableView(fields + extra, optional: optional, headers: headers)
    }
}

extension String {
    /// `unit_price` → `unit price`.
    func replacingUnderscores() -> String {
        String(unicodeScalars.map { $0 == "_" ? " " : Character($0) })
    }
}
