// UserReferenceRules: how a USER reference (an id, a username or an email) is read, and the close
// matches a "no such user" error names. For every store; the store only looks the user up.

/// The rules for resolving a USER reference. A store tries `id` first (when the reference is a
/// number), then the username or email without regard to case; when neither matches, it fetches
/// candidates with `candidatePattern` and throws `notFound(_:among:)`.
public enum UserReferenceRules {
    /// How many candidate usernames a store fetches for the suggestions, at most.
    public static let maxCandidates = 200

    /// The reference without leading and trailing spaces, and the id it names when it is a number.
    public static func parse(_ reference: String) -> (text: String, id: Int64?) {
        let trimmed = reference.trimmingASCIISpaces
        return (trimmed, Int64(trimmed))
    }

    /// A LIKE pattern (`… LIKE ? ESCAPE '\'`, compared with the lower-cased username or email)
    /// for the candidates close to `reference`: those starting with its first three characters.
    /// nil when no suggestions are made (an empty reference, or one over 64 characters: edit
    /// distances cost length × length, so a pasted paragraph gets none).
    public static func candidatePattern(_ reference: String) -> String? {
        let trimmed = reference.trimmingASCIISpaces
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return nil }
        return LikePattern.prefix(String(trimmed.lowercased().prefix(3)))
    }

    /// Up to three of `candidates` (usernames) that start like `reference` or are within a few
    /// edits of it, closest first.
    public static func suggestions(for reference: String, among candidates: [String]) -> [String] {
        let lower = reference.trimmingASCIISpaces.lowercased()
        guard !lower.isEmpty, lower.count <= 64 else { return [] }
        let allowed = Swift.max(2, lower.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let distance = EditDistance.between(candidate, lower)
            if distance <= allowed || candidate.lowercased().hasPrefix(lower) { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(3).map { $0.name }
    }

    /// The error for a reference that matches no user, naming the close matches among `candidates`.
    public static func notFound(_ reference: String, among candidates: [String]) -> ShopError {
        let close = suggestions(for: reference, among: candidates)
        let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"
        return .notFound("no user with id, username or email \"\(reference)\"\(hint)")
    }
}
