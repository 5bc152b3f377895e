// PostgresServiceFile: libpq's connection service file (`~/.pg_service.conf`, `PGSERVICEFILE`,
// `$PGSYSCONFDIR/pg_service.conf`) — `[name]` sections of `keyword=value` lines — read as libpq
// reads it, so `service=NAME` means in shopsh what it means to psql.

import Foundation

/// Finds a named service's settings in libpq's connection service files.
package enum PostgresServiceFile {
    /// Where libpq looks for the system-wide file when `PGSYSCONFDIR` is not set (Debian's and
    /// Ubuntu's packages; libpq built from source uses its own `etc` directory).
    package static let defaultSystemDirectory = "/etc/postgresql-common"

    /// A service's settings and the file they were read from.
    package struct Section: Sendable, Equatable {
        /// The file that held the section.
        package var path: String
        /// The section's settings; a keyword given twice keeps its first value, as in libpq.
        package var settings: [String: String]
    }

    /// The settings of service `name`, from the first file that has a `[name]` section: the user's
    /// file (`serviceFile`, else `PGSERVICEFILE`, else `$HOME/.pg_service.conf` when it exists),
    /// then `$PGSYSCONFDIR/pg_service.conf`. A service found in neither is an error, as is a
    /// named user file that cannot be read.
    package static func section(named name: String, serviceFile: String?,
                        environment: [String: String]) throws(PostgresKitError) -> Section {
        if let userFile = userFilePath(serviceFile: serviceFile, environment: environment) {
            if let found = try section(named: name, inFileAt: userFile.path, mustExist: userFile.named) {
                return found
            }
        }
        let systemDirectory = nonEmpty(environment["PGSYSCONFDIR"]) ?? defaultSystemDirectory
        if let found = try section(named: name, inFileAt: systemDirectory + "/pg_service.conf", mustExist: false) {
            return found
        }
        throw .usage("definition of service \"\(name)\" not found")
    }

    /// The user's service file and whether the operator named it (then it must exist).
    private static func userFilePath(serviceFile: String?,
                                     environment: [String: String]) -> (path: String, named: Bool)? {
        if let named = nonEmpty(serviceFile) ?? nonEmpty(environment["PGSERVICEFILE"]) {
            return (named, true)
        }
        guard let home = nonEmpty(environment["HOME"]) else { return nil }
        return (home + "/.pg_service.conf", false)
    }

    /// Section `name` of the file at `path`; nil when the file lacks it, or is missing and need
    /// not exist.
    private static func section(named name: String, inFileAt path: String,
                                mustExist: Bool) throws(PostgresKitError) -> Section? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if mustExist { throw .usage("service file \"\(path)\" not found") }
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .usage("service file \"\(path)\" is not UTF-8 text")
        }
        return try settings(ofSection: name, in: text, path: path).map { Section(path: path, settings: $0) }
    }

    /// The settings of section `name` in `text` (the file at `path`, named in errors), or nil when
    /// the text has no such section. Lines are trimmed; blank lines and `#` comments are skipped;
    /// a line in the section must be `keyword=value` with a libpq keyword other than `service`.
    package static func settings(ofSection name: String, in text: String, path: String) throws(PostgresKitError) -> [String: String]? {
        var settings: [String: String]?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                // The wanted section ends where the next one starts.
                if settings != nil { break }
                if line == "[\(name)]" { settings = [:] }
                continue
            }
            guard settings != nil else { continue }
            let (keyword, value) = try setting(line, lineNumber: index + 1, path: path)
            if settings?[keyword] == nil { settings?[keyword] = value }
        }
        return settings
    }

    /// One `keyword=value` line of the wanted section, both sides trimmed.
    private static func setting(_ line: String, lineNumber: Int, path: String) throws(PostgresKitError) -> (String, String) {
        guard let equals = line.firstIndex(of: "=") else {
            throw .usage("syntax error in service file \"\(path)\", line \(lineNumber)")
        }
        let keyword = line[..<equals].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if keyword == "service" {
            throw .usage("nested service specifications not supported in service file \"\(path)\", line \(lineNumber)")
        }
        guard PostgresConnectionString.isServiceFileKeyword(keyword) else {
            let name = PostgresConnectionString.quotedName(keyword)
            throw .usage("syntax error in service file \"\(path)\", line \(lineNumber): invalid connection option \(name)")
        }
        return (keyword, value)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
