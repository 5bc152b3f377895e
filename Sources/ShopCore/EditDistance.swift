// EditDistance: how many edits turn one short word into another, for "did you mean"
// suggestions and search's typo tolerance.

/// Edit distances between two short strings, compared in lower case.
public enum EditDistance {
    /// Levenshtein distance: insertions, deletions and substitutions. With `transpositions`, two
    /// neighbouring letters swapped count as one edit too (`iphnoe` is one edit from `iphone`:
    /// the optimal string alignment distance).
    public static func between(_ a: String, _ b: String, transpositions: Bool = false) -> Int {
        let left = Array(a.lowercased()), right = Array(b.lowercased())
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...right.count)
        for (i, l) in left.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: right.count)
            for (j, r) in right.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (l == r ? 0 : 1))
                if transpositions, i > 0, j > 0, l == right[j - 1], left[i - 1] == r {
                    current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[right.count]
    }
}
