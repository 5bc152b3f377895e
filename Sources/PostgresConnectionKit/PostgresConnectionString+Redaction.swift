// PostgresConnectionString+Redaction: a connection string as it may be shown (its password as ***)
// or handed to another program (without it).

import Foundation

// MARK: - Redaction

extension PostgresConnectionString {
    /// A stretch of a string to replace.
    package struct Edit {
        package var range: Range<String.Index>
        package var text: String
    }

    /// `value` with every password replaced by `replacement`, or removed when it is nil.
    package static func edited(_ value: String, replacement: String?) -> String {
        if let parts = URLParts(value) { return editedURL(value, parts, replacement: replacement) }
        if let settings = afterPrefix(value) ?? (value.contains("=") ? value[...] : nil) {
            return applying(keywordEdits(settings, replacement: replacement), to: value)
        }
        return value
    }

    /// A URL with its password edited, in the credentials and in the query.
    package static func editedURL(_ value: String, _ parts: URLParts, replacement: String?) -> String {
        var edits: [Edit] = []
        var queryIsCovered = false
        if let span = passwordSpan(in: value, parts) {
            let start = replacement == nil ? span.colon : value.index(after: span.colon)
            edits.append(Edit(range: start..<span.end, text: replacement ?? ""))
            queryIsCovered = parts.query.map { span.end > $0.startIndex } ?? false
        }
        if let query = parts.query, !queryIsCovered {
            let kept = editedQuery(query, replacement: replacement)
            if kept != query {
                let start = kept.isEmpty ? value.index(before: query.startIndex) : query.startIndex
                edits.append(Edit(range: start..<query.endIndex, text: kept))
            }
        }
        return applying(edits, to: value)
    }

    /// Where a URL's password lies: from the `:` after the user name to the `@` ending the
    /// credentials. A URL that does not read cleanly (a bad host list or port, an `@` in the path:
    /// a password with an unescaped `/`) is read warily: from the first `:` to the last `@`
    /// before the query, or to the end when that `@` is in the query.
    package static func passwordSpan(in value: String, _ parts: URLParts) -> (colon: String.Index, end: String.Index)? {
        if parts.isClean {
            guard let credentials = parts.credentials, let colon = credentials.firstIndex(of: ":") else { return nil }
            return (colon, credentials.endIndex)
        }
        // A password is always followed by an "@": without one after the first ":", there is none.
        guard let colon = parts.rest.firstIndex(of: ":"), value[colon...].contains("@") else { return nil }
        let queryMark = parts.query.map { value.index(before: $0.startIndex) } ?? value.endIndex
        let atBeforeQuery = colon < queryMark ? value[colon..<queryMark].lastIndex(of: "@") : nil
        return (colon, atBeforeQuery ?? value.endIndex)
    }

    /// A URL query with the values of secret keywords replaced, or their pairs left out.
    package static func editedQuery(_ query: Substring, replacement: String?) -> String {
        var kept: [String] = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = piece.firstIndex(of: "="),
                  secretKeywords.contains((try? decoded(piece[..<equals], in: "")) ?? String(piece[..<equals])) else {
                kept.append(String(piece))
                continue
            }
            if let replacement { kept.append(piece[...equals] + replacement) }
        }
        return kept.joined(separator: "&")
    }

    /// The edits hiding the secrets of `keyword=value` settings. Words after a secret that are
    /// not settings (`password=my secret`) are taken as part of it; an unclosed quote runs to the end.
    package static func keywordEdits(_ text: Substring, replacement: String?) -> [Edit] {
        var scanner = KeywordScanner(text)
        var edits: [Edit] = []
        var afterSecret = false
        scanning: while true {
            do throws(KeywordScanner.Problem) {
                guard let item = try scanner.next() else { break scanning }
                afterSecret = secretKeywords.contains(item.keyword)
                if afterSecret {
                    let range = replacement == nil ? item.range : item.valueRange
                    edits.append(Edit(range: range, text: replacement ?? ""))
                }
            } catch {
                switch error {
                case .missingEquals(_, let word):
                    if afterSecret, let last = edits.popLast() {
                        edits.append(Edit(range: last.range.lowerBound..<word.upperBound, text: last.text))
                    }
                case .unterminatedQuote(let keyword, let range, let valueStart):
                    if secretKeywords.contains(keyword) {
                        let start = replacement == nil ? range.lowerBound : valueStart
                        edits.append(Edit(range: start..<range.upperBound, text: replacement ?? ""))
                    }
                    break scanning
                }
            }
        }
        return replacement == nil ? edits.map { widened($0, in: text) } : edits
    }

    /// A removal widened over the blanks after it (before it, at the end) so no gap is left.
    package static func widened(_ edit: Edit, in text: Substring) -> Edit {
        var end = edit.range.upperBound
        while end < text.endIndex, text[end].isWhitespace { end = text.index(after: end) }
        guard end == text.endIndex else { return Edit(range: edit.range.lowerBound..<end, text: "") }
        var start = edit.range.lowerBound
        while start > text.startIndex, text[text.index(before: start)].isWhitespace { start = text.index(before: start) }
        return Edit(range: start..<end, text: "")
    }

    /// `value` with `edits` (in order, not overlapping) applied.
    package static func applying(_ edits: [Edit], to value: String) -> String {
        var result = ""
        var cursor = value.startIndex
        for edit in edits where edit.range.lowerBound >= cursor {
            result += value[cursor..<edit.range.lowerBound]
            result += edit.text
            cursor = edit.range.upperBound
        }
        return result + value[cursor...]
    }
}
