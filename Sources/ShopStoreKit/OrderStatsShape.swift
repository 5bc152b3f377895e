// OrderStatsShape: what a store's sales-report query selects, from where and grouped by what —
// the one shape both SQL stores fill in with their own (constant) SQL.

/// A report query's parts: `SELECT labels, sums FROM from … GROUP BY group`.
public struct OrderStatsShape: Sendable {
    /// The group's label, its id, its title and the currency (four columns).
    public let labels: String
    /// Orders, units, gross and net (four columns).
    public let sums: String
    public let from: String
    public let group: String

    public init(labels: String, sums: String, from: String, group: String) {
        self.labels = labels
        self.sums = sums
        self.from = from
        self.group = group
    }
}
