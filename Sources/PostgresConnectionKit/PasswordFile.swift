// PasswordFile: libpq's password file (`~/.pgpass`, or `PGPASSFILE`) — `host:port:db:user:password`
// lines, `*` for any, `\:` and `\\` escaped — read as psql reads it, and ignored with a warning
// when group or others may read it (as libpq does).

import Foundation

/// Looks up a password in the libpq password file.
public enum PasswordFile {
    /// What the lookup found: a password, and a warning for the operator (never the password).
    public struct Lookup: Sendable, Equatable {
        public var password: String?
        public var warning: String?
    }

    /// The file's path: `PGPASSFILE`, else `$HOME/.pgpass`; nil without either.
    package static func path(environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.pgpass"
    }

    /// The password of the first line matching host, port, database and user; none when the file
    /// is missing, unreadable, or open to group or others (then with a warning, as libpq warns).
    public static func lookup(host: String, port: Int, database: String, user: String,
                              environment: [String: String]) -> Lookup {
        guard let path = path(environment: environment) else { return Lookup() }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return Lookup() }
        if status.st_mode & 0o077 != 0 {
            return Lookup(warning: "the password file \(path) is readable by group or others, so it was ignored; fix it with: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return Lookup()
        }
        // libpq compares `localhost` for both a socket and 127.0.0.1 connections only by name.
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) {
                return Lookup(password: fields[4])
            }
        }
        return Lookup()
    }

    /// A line's fields: split on unescaped `:`, with `\:` and `\\` unescaped.
    package static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
