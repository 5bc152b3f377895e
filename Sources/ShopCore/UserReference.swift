// UserReference: how a USER reference (an id, a username or an email) names a user, for every
// store: what a store looks up and in which order, what a miss says, and which usernames it
// suggests. The store only fetches.

/// A USER reference as the operator gave it.
///
/// A store looks `id` up first (when the reference reads as one), then `name` as a username or
/// an email, ignoring case. When neither finds a user, it fetches up to `maxCandidates`
/// usernames whose username or email matches `candidatePattern` and throws
/// `notFound(suggesting: suggestions(among:))`.
public struct UserReference: Hashable, Sendable {
    /// As given (the error quotes it so).
    public let text: String
    /// Without leading and trailing spaces: what is compared with usernames and emails.
    public let name: String

    public init(_ text: String) {
        self.text = text
        self.name = text.trimmingASCIISpaces
    }

    /// The user id the reference names, when it reads as a number.
    public var id: Int64? { Int64(name) }

    /// The most usernames a store fetches to pick suggestions from.
    public static let maxCandidates = 200

    /// The longest reference that gets suggestions: edit distances cost length × length, so a
    /// pasted paragraph gets none.
    public static let maxSuggestedLength = 64

    /// A `LIKE … ESCAPE '\'` pattern for lower-cased usernames and emails worth suggesting (those
    /// starting with the reference's first three characters); nil when the reference gets no
    /// suggestions (empty, or longer than `maxSuggestedLength`).
    public var candidatePattern: String? {
        guard !name.isEmpty, name.count <= Self.maxSuggestedLength else { return nil }
        return LikePattern.prefix(String(name.lowercased().prefix(3)))
    }

    /// Up to three of `candidates` (usernames fetched by `candidatePattern`) that start like the
    /// reference or are within a few edits of it, closest first.
    public func suggestions(among candidates: [String]) -> [String] {
        guard candidatePattern != nil else { return [] }
        let lower = name.lowercased()
        let allowed = Swift.max(2, lower.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let distance = EditDistance.between(candidate, lower)
            if distance <= allowed || candidate.lowercased().hasPrefix(lower) { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(3).map { $0.name }
    }

    /// The error for a reference that names no user, offering `suggestions`.
    public func notFound(suggesting suggestions: [String]) -> ShopError {
        let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
        return .notFound("no user with id, username or email \"\(text)\"\(hint)")
    }
}
