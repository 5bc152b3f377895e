// ProductSearch: what `products search TEXT` means on every store — how the text splits into
// words, which words a typo may stand for, which products match (every word, the last as a
// prefix) and how they rank. The one ranking rule: the stores supply candidates through their
// own index and the words it knows; this file decides.

/// The search text as words: lower case, split at anything that is not a letter or a digit.
public struct SearchText: Sendable, Equatable {
    /// The text as typed.
    public let text: String
    /// Its words, in order (the last one is matched as a prefix: search as you type).
    public let words: [String]

    public init(_ text: String) {
        self.text = text
        words = SearchText.words(in: text)
    }

    /// The words of `text`, as every field is split for matching.
    public static func words(in text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}

/// The ranking rule and the typo rule of product search.
public enum ProductSearch {
    /// A product field search looks in, with how much a match there weighs.
    public enum Field: CaseIterable, Sendable {
        case title, brand, category, tags, description

        /// Title above brand, category and tags, above description.
        public var weight: Int {
            switch self {
            case .title: return 8
            case .brand, .category, .tags: return 4
            case .description: return 1
            }
        }

        func text(of product: Product) -> String {
            switch self {
            case .title: return product.title
            case .brand: return product.brand ?? ""
            case .category: return product.category
            case .tags: return product.tags.joined(separator: " ")
            case .description: return product.description
            }
        }
    }

    /// The most products a store ranks for one search (its engine's best first): a search that
    /// matches more ranks the engine's best of them.
    public static let candidateLimit = 2_000

    /// How many typos a word may carry: none below 4 letters, one from 4, two from 8.
    public static func typoBudget(_ word: String) -> Int {
        word.count >= 8 ? 2 : word.count >= 4 ? 1 : 0
    }

    /// What one query word matches: the word itself, or (the last word) any word it begins,
    /// and the index's words it may stand for (`expansions`, each with its quality): words
    /// holding it (`phone` in `iphone`), or when the index has no word holding it, words within
    /// its typo budget.
    public struct WordMatch: Sendable, Equatable {
        public var word: String
        public var isPrefix: Bool
        public var expansions: [String: Int]
        /// The best match the index can give this word: 5 the word itself is there, 4 (the last
        /// word) words it begins are, else the best of its expansions; 0 nothing.
        public var bestQuality: Int

        public init(word: String, isPrefix: Bool, expansions: [String: Int] = [:], bestQuality: Int = 5) {
            self.word = word
            self.isPrefix = isPrefix
            self.expansions = expansions
            self.bestQuality = bestQuality
        }

        /// Every form an index should look for: the word (a prefix for the last) and its expansions.
        public var forms: [String] { [word] + expansions.keys.sorted() }

        /// How well `indexed`, a word of a field, matches: 5 the word itself, 4 a word it begins
        /// (the last word), 3 a word holding it, 2 one typo, 1 two; nil not at all.
        func quality(of indexed: String) -> Int? {
            if indexed == word { return 5 }
            if isPrefix && indexed.hasPrefix(word) { return 4 }
            return expansions[indexed]
        }
    }

    /// The quality of a word that holds the typed word; a typo scores 3 minus its edits.
    static let infixQuality = 3

    /// The most expansions one word gets (the closest in length first).
    public static let maxExpansions = 40

    /// The match of each word of `query` against `vocabulary`, the words a store's index holds.
    /// A word of 3 letters or more also matches the words holding it. One the vocabulary has
    /// in no form (as typed, begun, held) may stand for the words within its typo budget
    /// (transposed letters count as one typo): a typo never costs a real match. A word that is a
    /// number is never corrected.
    public static func matches(_ query: SearchText, vocabulary: some Sequence<String>) -> [WordMatch] {
        let known = Array(vocabulary)
        return query.words.enumerated().map { index, word in
            let isPrefix = index == query.words.count - 1
            var match = WordMatch(word: word, isPrefix: isPrefix)
            var holding: [String] = []
            var found = false
            match.bestQuality = 0
            for candidate in known {
                if candidate == word {
                    found = true
                    match.bestQuality = 5
                } else if isPrefix && candidate.hasPrefix(word) {
                    found = true
                    match.bestQuality = max(match.bestQuality, 4)
                } else if word.count >= 3 && candidate.contains(word) {
                    holding.append(candidate)
                }
            }
            for candidate in closest(holding, to: word) { match.expansions[candidate] = infixQuality }
            if !holding.isEmpty { match.bestQuality = max(match.bestQuality, infixQuality) }
            let budget = word.allSatisfy(\.isNumber) ? 0 : typoBudget(word)
            guard !found, holding.isEmpty, budget > 0 else { return match }
            var typos: [String] = []
            for candidate in known where abs(candidate.count - word.count) <= budget {
                let distance = EditDistance.between(word, candidate, transpositions: true)
                if distance <= budget {
                    typos.append(candidate)
                    match.expansions[candidate] = infixQuality - distance
                }
            }
            let kept = Set(closest(typos, to: word))
            match.expansions = match.expansions.filter { kept.contains($0.key) }
            match.bestQuality = match.expansions.values.max() ?? 0
            return match
        }
    }

    /// At most `maxExpansions` of `words`, the closest in length to `word` first, then by the word.
    private static func closest(_ words: [String], to word: String) -> [String] {
        Array(words.sorted { (abs($0.count - word.count), $0) < (abs($1.count - word.count), $1) }.prefix(maxExpansions))
    }

    /// The score of `product` for the words matched, or nil when a word matches none of its
    /// fields (every word must match). A word scores the weight of the best field it matches
    /// in times the quality of the match there (`WordMatch.quality(of:)`). An id or SKU typed
    /// exactly scores above everything.
    public static func score(_ product: Product, query: SearchText, matches: [WordMatch]) -> Int? {
        let typed = query.text.trimmingASCIISpaces.lowercased()
        if typed == String(product.id) || typed == product.sku.lowercased()
            || (product.barcode != nil && Barcode.stored(typed) == product.barcode) { return exactReferenceScore }
        let fields = Field.allCases.map { ($0.weight, SearchText.words(in: $0.text(of: product))) }
        var total = 0
        for match in matches {
            var best = 0
            for (weight, words) in fields {
                for word in words {
                    if let quality = match.quality(of: word) { best = max(best, weight * quality) }
                }
            }
            guard best > 0 else { return nil }
            total += best
        }
        return matches.isEmpty ? nil : total
    }

    /// The forms that give each word its best match (`bestQuality`), and the score a product
    /// gets when its title holds one of them for every word: the highest score the search can
    /// give (a word's best match is best in the title, its heaviest field). Nil when a word
    /// matches nothing.
    public static func bestInTitle(_ matches: [WordMatch]) -> (words: [TierWord], score: Int)? {
        var words: [TierWord] = []
        var score = 0
        for match in matches {
            switch match.bestQuality {
            case 5: words.append(TierWord(forms: [match.word], isPrefix: false))
            case 4: words.append(TierWord(forms: [match.word], isPrefix: true))
            case 1...3:
                words.append(TierWord(forms: match.expansions.filter { $0.value == match.bestQuality }.keys.sorted(),
                                      isPrefix: false))
            default: return nil
            }
            score += Field.title.weight * match.bestQuality
        }
        return words.isEmpty ? nil : (words, score)
    }

    /// One word of `bestInTitle`: a title must hold one of `forms` (as a prefix when `isPrefix`).
    public struct TierWord: Sendable, Equatable {
        public var forms: [String]
        public var isPrefix: Bool
    }

    /// The score of a product whose id or SKU is the search text.
    public static let exactReferenceScore = 1_000_000

    /// `candidates` that match, best first (ties by id), with their scores.
    public static func rank(_ candidates: [Product], query: SearchText, matches: [WordMatch]) -> [(product: Product, score: Int)] {
        candidates.compactMap { product in score(product, query: query, matches: matches).map { (product, $0) } }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.product.id < $1.product.id }
    }

    /// Up to `limit` words of `vocabulary` closest to the query's words (for "no products match
    /// …; did you mean …"), nearest first. A word of 3 letters or more gets suggestions within
    /// twice its typo budget (at least one edit); a shorter word or a number gets none.
    public static func suggestions(_ query: SearchText, vocabulary: some Sequence<String>, limit: Int = 3) -> [String] {
        let asked = query.words.filter { $0.count >= 3 && !$0.allSatisfy(\.isNumber) }
            .map { (word: $0, allowance: max(1, 2 * typoBudget($0))) }
        guard !asked.isEmpty else { return [] }
        var scored: [(word: String, distance: Int)] = []
        for candidate in vocabulary where candidate.count > 2 && !candidate.allSatisfy(\.isNumber)
            && !query.words.contains(candidate) {
            let distances = asked.compactMap { word, allowance -> Int? in
                guard abs(candidate.count - word.count) <= allowance else { return nil }
                let distance = EditDistance.between(word, candidate, transpositions: true)
                return distance <= allowance ? distance : nil
            }
            if let best = distances.min() { scored.append((candidate, best)) }
        }
        return scored.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.word < $1.word }
            .prefix(limit).map(\.word)
    }
}
