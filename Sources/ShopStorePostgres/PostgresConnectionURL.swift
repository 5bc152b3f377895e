// PostgresConnectionURL: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=…]` store value,
// parsed without Foundation's URL (so a password with any character survives), and its password
// from the URL or `PGPASSWORD`. What is shown of it never includes the password.

import ShopCore

/// Where a PostgreSQL store is and how to log in to it.
public struct PostgresConnectionURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS (libpq's `sslmode`, reduced to what postgres-nio can do).
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS or no connection, the server's certificate verified against the system's trust
        /// roots and its host name (libpq's `verify-full`; stricter than libpq's `require`).
        case require
    }

    public var user: String
    /// From the URL, else `PGPASSWORD`, else `~/.pgpass`; nil for none (trust authentication).
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode
    /// For the operator, on opening (e.g. that the password file was ignored); never a password.
    public var warnings: [String] = []

    /// Parses `value` (`postgres://` or `postgresql://`). Percent-escapes are decoded in the user,
    /// password and database. `environment` supplies `PGPASSWORD` (else `PGPASSFILE` / `HOME` for
    /// the password file) when the URL has no password, and `PGUSER` / `PGDATABASE` when those
    /// parts are missing.
    public init(_ value: String, environment: [String: String] = [:]) throws(ShopError) {
        let rest: Substring
        if value.hasPrefix("postgres://") {
            rest = value.dropFirst("postgres://".count)
        } else if value.hasPrefix("postgresql://") {
            rest = value.dropFirst("postgresql://".count)
        } else {
            throw .usage("a PostgreSQL store is postgres://USER@HOST:PORT/DB")
        }
        let shown = Self.redact(value)
        var body = rest
        var query: Substring = ""
        if let mark = body.firstIndex(of: "?") {
            query = body[body.index(after: mark)...]
            body = body[..<mark]
        }
        var pathPart: Substring = ""
        if let slash = body.firstIndex(of: "/") {
            pathPart = body[body.index(after: slash)...]
            body = body[..<slash]
        }
        // The last `@` ends the credentials: a password may itself hold an unescaped `@`.
        var credentials: Substring?
        if let at = body.lastIndex(of: "@") {
            credentials = body[..<at]
            body = body[body.index(after: at)...]
        }
        var user: String?
        var password: String?
        if let credentials {
            if let colon = credentials.firstIndex(of: ":") {
                user = try Self.decode(credentials[..<colon], in: shown)
                password = try Self.decode(credentials[credentials.index(after: colon)...], in: shown)
            } else {
                user = try Self.decode(credentials, in: shown)
            }
        }
        // Host and port; an IPv6 literal is bracketed.
        var host = body
        var portText: Substring?
        if body.hasPrefix("["), let close = body.firstIndex(of: "]") {
            host = body[body.index(after: body.startIndex)..<close]
            let after = body[body.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() }
        } else if let colon = body.lastIndex(of: ":") {
            host = body[..<colon]
            portText = body[body.index(after: colon)...]
        }
        var port = 5432
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw .usage("the port in \(shown) is not a number from 1 to 65535")
            }
            port = number
        }
        self.host = host.isEmpty ? "localhost" : String(host)
        self.port = port
        let resolvedUser = (user?.isEmpty == false ? user : nil) ?? environment["PGUSER"]
        guard let resolvedUser, !resolvedUser.isEmpty else {
            throw .usage("\(shown) names no user: postgres://USER@HOST:PORT/DB")
        }
        self.user = resolvedUser
        let database = try Self.decode(pathPart, in: shown)
        let resolvedDatabase = database.isEmpty ? (environment["PGDATABASE"] ?? resolvedUser) : database
        self.database = resolvedDatabase
        if let password {
            self.password = password
        } else if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty {
            self.password = fromEnvironment
        } else {
            let found = PasswordFile.lookup(host: self.host, port: port, database: resolvedDatabase, user: resolvedUser,
                                            environment: environment)
            self.password = found.password
            self.warnings = found.warning.map { [$0] } ?? []
        }
        var tls = TLSMode.prefer
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == "sslmode" else { continue }
            switch pair[1] {
            case "disable", "allow": tls = .disable
            case "prefer": tls = .prefer
            case "require", "verify-ca", "verify-full": tls = .require
            default: throw .usage("sslmode=\(pair[1]) in \(shown) is not disable, prefer or require")
            }
        }
        self.tls = tls
    }

    /// The URL as shown to the operator: the password, if any, as `***`.
    public var description: String {
        let credentials = password == nil ? user : user + ":***"
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(credentials)@\(hostPart):\(port)/\(database)"
    }

    /// `value` with whatever stands between `://USER:` and the last `@` replaced by `***`.
    public static func redact(_ value: String) -> String {
        replacingPassword(in: value, with: "***")
    }

    /// `value` without its password (`postgres://USER@HOST/DB?…`), the rest as written: for a
    /// program started for the operator (an external plugin), which finds the password where
    /// shopsh may (PGPASSWORD, ~/.pgpass).
    public static func withoutPassword(_ value: String) -> String {
        replacingPassword(in: value, with: nil)
    }

    /// `value` with whatever stands between `://USER:` and the last `@` replaced by
    /// `replacement`, or left out with its `:` when nil.
    private static func replacingPassword(in value: String, with replacement: String?) -> String {
        guard let scheme = value.firstRange(of: "://") else { return value }
        let afterScheme = value[scheme.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return value }
        guard let replacement else { return String(value[..<colon]) + String(value[at...]) }
        return String(value[..<authority.index(after: colon)]) + replacement + String(value[at...])
    }

    /// Decodes `%XX` escapes (as UTF-8); a malformed escape is an error naming the redacted URL.
    private static func decode(_ text: Substring, in shown: String) throws(ShopError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .usage("\(shown) has a malformed %-escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .usage("\(shown) has %-escapes that are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
