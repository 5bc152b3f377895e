// PostgresConnectionString+URL: which values are connection strings, and the URL form
// (`postgres://USER:PASSWORD@HOST:PORT,…/DB?KEY=VALUE`) as libpq reads it.

import Foundation

// MARK: - The forms of a connection string

extension PostgresConnectionString {
    /// How a value is written.
    package enum Form {
        /// `postgres://…` or `postgresql://…`.
        case url(URLParts)
        /// Settings: after `postgres:` / `postgresql:`, or bare with a libpq keyword first.
        case keywords(Substring)
    }

    package static func form(of value: String) -> Form? {
        if let parts = URLParts(value) { return .url(parts) }
        if let settings = afterPrefix(value) { return .keywords(settings) }
        return startsWithKeyword(value) ? .keywords(value[...]) : nil
    }

    /// What follows `postgres:` or `postgresql:` (not a URL's `//`).
    package static func afterPrefix(_ value: String) -> Substring? {
        for prefix in ["postgresql:", "postgres:"] where value.hasPrefix(prefix) {
            return value.dropFirst(prefix.count)
        }
        return nil
    }

    /// Whether `value`'s first word is a libpq keyword followed by `=`.
    package static func startsWithKeyword(_ value: String) -> Bool {
        var scanner = KeywordScanner(value[...])
        return scanner.keywordAhead().map(isKeyword) ?? false
    }

    /// The settings of a `keyword=value` string, in order, as libpq's conninfo_parse reads them.
    package static func keywordSettings(_ text: Substring) throws(PostgresKitError) -> [(String, String)] {
        var scanner = KeywordScanner(text)
        var settings: [(String, String)] = []
        while true {
            let item: KeywordScanner.Item?
            do throws(KeywordScanner.Problem) {
                item = try scanner.next()
            } catch {
                throw message(for: error, after: settings.last?.0)
            }
            guard let item else { return settings }
            guard isKeyword(item.keyword) else { throw .usage("invalid connection option \(quotedName(item.keyword))") }
            settings.append(normalized(item.keyword, item.value))
        }
    }

    /// The message for a malformed setting: never a word that may be part of a password.
    package static func message(for problem: KeywordScanner.Problem, after previous: String?) -> PostgresKitError {
        switch problem {
        case .unterminatedQuote:
            return .usage("unterminated quoted string in connection info string")
        case .missingEquals(let word, _):
            if let previous, secretKeywords.contains(previous) {
                return .usage("missing \"=\" after the value of \(previous) in connection info string (quote a value with spaces: \(previous)='…')")
            }
            return .usage("missing \"=\" after \(quotedName(word)) in connection info string")
        }
    }

    /// A value in double quotes when it looks like an option's value; else a placeholder, so
    /// that a mistyped password is not repeated.
    package static func quoted(_ text: String) -> String {
        let plain = text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.:/,+ ".contains($0)) }
        return plain ? "\"\(text)\"" : "(a value not shown)"
    }

    /// A keyword in double quotes when it looks like one (letters, digits, `_`, `-`, `.`); else a
    /// placeholder: a word that is no keyword's shape may be part of a password.
    package static func quotedName(_ text: String) -> String {
        let plain = text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
        return plain ? "\"\(text)\"" : "(a name not shown)"
    }

    /// `text` with line breaks and control characters as spaces: a message stays one line.
    package static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) ? " " : $0 })
    }

    package static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// `text` with the ASCII characters that mean something in a URL %-escaped (letters, digits,
    /// `-._~` and `keeping` stay; so does anything beyond ASCII, for people to read).
    package static func escaped(_ text: String, keeping: String = "") -> String {
        var result = ""
        for character in text {
            guard let ascii = character.asciiValue,
                  !(character.isLetter || character.isNumber || "-._~".contains(character) || keeping.contains(character)) else {
                result.append(character)
                continue
            }
            result += String(format: "%%%02X", ascii)
        }
        return result
    }
}

// MARK: - URLs

extension PostgresConnectionString {
    /// A `postgres://` or `postgresql://` URL cut as libpq cuts it, except that the last `@`
    /// before the first `/` ends the credentials: a password may hold an unescaped `@` (a `/` in
    /// it must be written `%2F`).
    package struct URLParts {
        /// Everything after `://`.
        package var rest: Substring
        /// `user[:password]`, before the `@`.
        package var credentials: Substring?
        /// `host[:port],…` (IPv6 addresses bracketed).
        package var hostspec: Substring
        /// The database, after the `/`.
        package var path: Substring?
        /// `keyword=value&…`, after the `?`.
        package var query: Substring?

        package init?(_ value: String) {
            guard let scheme = ["postgresql://", "postgres://"].first(where: { value.hasPrefix($0) }) else { return nil }
            rest = value.dropFirst(scheme.count)
            var hostStart = rest.startIndex
            let firstSlash = rest.firstIndex(of: "/") ?? rest.endIndex
            if let at = rest[..<firstSlash].lastIndex(of: "@") {
                credentials = rest[..<at]
                hostStart = rest.index(after: at)
            }
            let afterCredentials = rest[hostStart...]
            let hostEnd = afterCredentials.firstIndex { $0 == "/" || $0 == "?" } ?? afterCredentials.endIndex
            hostspec = afterCredentials[..<hostEnd]
            var remainder = afterCredentials[hostEnd...]
            if remainder.first == "/" {
                remainder = remainder.dropFirst()
                let mark = remainder.firstIndex(of: "?") ?? remainder.endIndex
                path = remainder[..<mark]
                remainder = remainder[mark...]
            }
            if remainder.first == "?" { query = remainder.dropFirst() }
        }

        /// Whether the URL reads as it was meant: its hosts and ports are well formed and no `@`
        /// stands in its path (else a password probably holds an unescaped `/`).
        package var isClean: Bool {
            guard let parsed = try? PostgresConnectionString.hostsAndPorts(hostspec) else { return false }
            let portsAreNumbers = parsed.ports.allSatisfy { $0 == "," || ($0.isASCII && $0.isNumber) }
            return portsAreNumbers && path?.contains("@") != true
        }
    }

    /// Why a URL's host list cannot be read.
    package enum HostspecProblem: Error {
        case unclosedBracket, emptyAddress, unexpectedCharacter
    }

    /// The settings a URL writes, in libpq's order: user, password, host, port, dbname, then the
    /// query's (which override the others).
    package static func urlSettings(_ parts: URLParts, shown: String) throws(PostgresKitError) -> [(String, String)] {
        var settings: [(String, String)] = []
        if let credentials = parts.credentials {
            settings += try credentialSettings(credentials, shown: shown)
        }
        settings += try hostSettings(parts.hostspec, shown: shown)
        if let path = parts.path, !path.isEmpty {
            guard !path.contains("@") else {
                throw .usage("the database name in \(shown) holds an \"@\": write a \"/\" in a password as %2F (and an \"@\" in a database name as %40)")
            }
            settings.append(("dbname", try decoded(path, in: shown)))
        }
        if let query = parts.query {
            settings += try querySettings(query, shown: shown)
        }
        return settings
    }

    /// `user[:password]`: each only when not empty (an empty one leaves it to the environment).
    package static func credentialSettings(_ credentials: Substring, shown: String) throws(PostgresKitError) -> [(String, String)] {
        let colon = credentials.firstIndex(of: ":") ?? credentials.endIndex
        var settings: [(String, String)] = []
        let user = credentials[..<colon]
        if !user.isEmpty { settings.append(("user", try decoded(user, in: shown))) }
        let password = credentials[colon...].dropFirst()
        if !password.isEmpty { settings.append(("password", try decoded(password, in: shown))) }
        return settings
    }

    /// `host` and `port` from the host list, each only when not empty.
    package static func hostSettings(_ hostspec: Substring, shown: String) throws(PostgresKitError) -> [(String, String)] {
        let hosts: String
        let ports: String
        do throws(HostspecProblem) {
            (hosts, ports) = try hostsAndPorts(hostspec)
        } catch {
            switch error {
            case .unclosedBracket:
                throw .usage("end of string reached when looking for matching \"]\" in IPv6 host address in URI: \(shown)")
            case .emptyAddress:
                throw .usage("IPv6 host address may not be empty in URI: \(shown)")
            case .unexpectedCharacter:
                throw .usage("unexpected character after \"]\" in URI (expected \":\" or \"/\"): \(shown)")
            }
        }
        var settings: [(String, String)] = []
        if !hosts.isEmpty { settings.append(("host", try decoded(hosts[...], in: shown))) }
        if !ports.isEmpty { settings.append(("port", try decoded(ports[...], in: shown))) }
        return settings
    }

    /// A host list's hosts and ports, each joined by commas as libpq joins them (a host without a
    /// port gives an empty entry), still %-escaped; IPv6 brackets are taken off.
    package static func hostsAndPorts(_ hostspec: Substring) throws(HostspecProblem) -> (hosts: String, ports: String) {
        var hosts: [Substring] = []
        var ports: [Substring] = []
        var rest = hostspec
        while true {
            hosts.append(try host(from: &rest))
            var port: Substring = ""
            if rest.first == ":" {
                rest = rest.dropFirst()
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                port = rest[..<end]
                rest = rest[end...]
            }
            ports.append(port)
            guard rest.first == "," else { break }
            rest = rest.dropFirst()
        }
        return (hosts.joined(separator: ","), ports.joined(separator: ","))
    }

    /// The host at the start of `rest` (a bracketed IPv6 address or a name up to `:` or `,`),
    /// leaving `rest` after it.
    package static func host(from rest: inout Substring) throws(HostspecProblem) -> Substring {
        guard rest.first == "[" else {
            let end = rest.firstIndex { $0 == ":" || $0 == "," } ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
        guard let close = rest.firstIndex(of: "]") else { throw .unclosedBracket }
        let address = rest[rest.index(after: rest.startIndex)..<close]
        guard !address.isEmpty else { throw .emptyAddress }
        rest = rest[rest.index(after: close)...]
        if let next = rest.first, next != ":" && next != "," { throw .unexpectedCharacter }
        return address
    }

    /// The query's `keyword=value` pairs, %-escapes decoded in both; `ssl=true` is
    /// `sslmode=require` (as in JDBC and libpq).
    package static func querySettings(_ query: Substring, shown: String) throws(PostgresKitError) -> [(String, String)] {
        var pieces = query.split(separator: "&", omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        var settings: [(String, String)] = []
        for piece in pieces {
            let parts = piece.split(separator: "=", omittingEmptySubsequences: false)
            let name = try decoded(parts[0], in: shown)
            guard parts.count == 2 else {
                let problem = parts.count == 1 ? "missing" : "extra"
                throw .usage("\(problem) key/value separator \"=\" in URI query parameter: \(quotedName(name))")
            }
            let value = try decoded(parts[1], in: shown)
            if name == "ssl" && value == "true" {
                settings.append(("sslmode", "require"))
                continue
            }
            guard isKeyword(name) else { throw .usage("invalid URI query parameter: \(quotedName(name))") }
            settings.append(normalized(name, value))
        }
        return settings
    }

    /// Decodes `%XX` escapes (as UTF-8); a malformed escape is an error naming the redacted URL.
    package static func decoded(_ text: Substring, in shown: String) throws(PostgresKitError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .usage("invalid percent-encoded token in \(shown)")
            }
            guard high != 0 || low != 0 else { throw .usage("forbidden value %00 in percent-encoded value in \(shown)") }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .usage("\(shown) has %-escapes that are not UTF-8")
        }
        return decoded
    }

    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
