// EditDistance: Levenshtein distance, for "did you mean" suggestions.

/// The edit distance between two short strings.
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let left = Array(a.lowercased()), right = Array(b.lowercased())
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var previous = Array(0...right.count)
        for (i, l) in left.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: right.count)
            for (j, r) in right.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (l == r ? 0 : 1))
            }
            previous = current
        }
        return previous[right.count]
    }
}
