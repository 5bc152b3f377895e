// PostgresConnectionString+Resolving: the settings of a connection string and where each comes from
// (the string, the service file, the environment, libpq's defaults), resolved into hosts, user,
// database and the rest.

import Foundation

// MARK: - Settings and where they come from

extension PostgresConnectionString {
    /// Where a setting was found, for messages.
    package enum Origin: Equatable {
        case string
        case url
        case service(name: String, path: String)
        case environment(String)

        package var isInString: Bool { self == .string || self == .url }

        package var isEnvironment: Bool {
            if case .environment = self { return true }
            return false
        }

        /// Said after a message about the setting: where to look for it.
        package var suffix: String {
            switch self {
            case .string, .url: ""
            case .service(let name, let path): " (service \"\(name)\" in \(path))"
            case .environment(let variable): " (from \(variable))"
            }
        }
    }

    /// A keyword's value and where it was found.
    package struct Setting: Equatable {
        package var value: String
        package var origin: Origin
    }

    /// The settings in force, keyword by keyword: the string's, else the service file's, else the
    /// environment's (an empty variable counts as unset).
    package struct Layers {
        package var string: [String: Setting]
        package var service: [String: Setting]
        package var environment: [String: String]
        /// The string as it may be shown (redacted, on one line).
        package var shown: String

        package subscript(keyword: String) -> Setting? {
            if let setting = string[keyword] ?? service[keyword] { return setting }
            guard let variable = PostgresConnectionString.environmentVariables[keyword],
                  let value = environment[variable], !value.isEmpty else { return nil }
            return Setting(value: value, origin: .environment(variable))
        }

        /// The setting in force for `keyword` unless it is empty (which libpq reads as its default).
        package func nonEmpty(_ keyword: String) -> Setting? {
            guard let setting = self[keyword], !setting.value.isEmpty else { return nil }
            return setting
        }
    }

    /// The settings of `value`, of the service it names, and of `environment`.
    package static func layers(of value: String, environment: [String: String]) throws(PostgresKitError) -> Layers {
        let shown = oneLine(redact(value))
        let string = try stringSettings(value, shown: shown)
        let service = try serviceSettings(string: string, environment: environment)
        return Layers(string: string, service: service, environment: environment, shown: shown)
    }

    /// The settings written in `value`; a keyword written twice keeps its last value, as in libpq.
    package static func stringSettings(_ value: String, shown: String) throws(PostgresKitError) -> [String: Setting] {
        let pairs: [(String, String)]
        let origin: Origin
        switch form(of: value) {
        case .url(let parts):
            pairs = try urlSettings(parts, shown: shown)
            origin = .url
        case .keywords(let text):
            pairs = try keywordSettings(text)
            origin = .string
        case nil:
            // Not `shown`: another kind of URL's password is not redacted.
            throw .usage("not a PostgreSQL connection string: give postgres://USER@HOST:PORT/DB, or settings such as host=HOST dbname=DB")
        }
        var settings: [String: Setting] = [:]
        for (keyword, text) in pairs { settings[keyword] = Setting(value: text, origin: origin) }
        return settings
    }

    /// The settings of the service the string names (else `PGSERVICE`); none without one.
    package static func serviceSettings(string: [String: Setting],
                                environment: [String: String]) throws(PostgresKitError) -> [String: Setting] {
        guard let name = nonEmpty(string["service"]?.value) ?? nonEmpty(environment["PGSERVICE"]) else { return [:] }
        let section = try PostgresServiceFile.section(named: name, serviceFile: nonEmpty(string["servicefile"]?.value),
                                                      environment: environment)
        var settings: [String: Setting] = [:]
        for (keyword, value) in section.settings {
            settings[keyword] = Setting(value: value, origin: .service(name: name, path: section.path))
        }
        return settings
    }
}

// MARK: - Resolving the settings

extension PostgresConnectionString {
    /// The hosts with their ports: one port for all, or one per host.
    package static func hosts(in layers: Layers, directoryExists: (String) -> Bool) throws(PostgresKitError) -> [Host] {
        let names = try hostNames(in: layers, directoryExists: directoryExists)
        let ports = try portNumbers(in: layers, hostCount: names.count)
        return zip(names, ports).map { Host(name: $0, port: $1) }
    }

    /// The comma-separated `host` list, an empty entry (or none) meaning libpq's default host.
    ///
    /// `hostaddr` is read as `host`: shopsh looks names up itself, so a numeric address given as
    /// `hostaddr` (libpq's way to skip the name lookup) is simply the host to connect to. Given
    /// together, libpq would connect to the address but check TLS and the password file against
    /// the name; shopsh cannot split the two, so it refuses the pair.
    package static func hostNames(in layers: Layers, directoryExists: (String) -> Bool) throws(PostgresKitError) -> [String] {
        let host = layers.nonEmpty("host")
        let address = layers.nonEmpty("hostaddr")
        if let host, let address {
            throw .usage("shopsh does not support host and hostaddr together (host\(host.origin.suffix), hostaddr\(address.origin.suffix)): give the server's name or its address")
        }
        let defaultHost = directoryExists(defaultSocketDirectory) ? defaultSocketDirectory : "localhost"
        guard let list = (address ?? host)?.value else { return [defaultHost] }
        return list.split(separator: ",", omittingEmptySubsequences: false).map { $0.isEmpty ? defaultHost : String($0) }
    }

    /// The port of each of `hostCount` hosts: `port` holds one for all or exactly one per host.
    package static func portNumbers(in layers: Layers, hostCount: Int) throws(PostgresKitError) -> [Int] {
        guard let setting = layers.nonEmpty("port") else { return Array(repeating: defaultPort, count: hostCount) }
        let texts = setting.value.split(separator: ",", omittingEmptySubsequences: false)
        guard texts.count == 1 || texts.count == hostCount else {
            throw .usage("could not match \(texts.count) port numbers to \(hostCount) hosts\(setting.origin.suffix)")
        }
        var ports: [Int] = []
        for text in texts { ports.append(try portNumber(text, of: setting, shown: layers.shown)) }
        return texts.count == 1 ? Array(repeating: ports[0], count: hostCount) : ports
    }

    /// One entry of a `port` list: empty for the default, else a number from 1 to 65535.
    package static func portNumber(_ text: Substring, of setting: Setting, shown: String) throws(PostgresKitError) -> Int {
        if text.isEmpty { return defaultPort }
        if let number = Int(text.trimmingCharacters(in: .whitespaces)), (1...65535).contains(number) { return number }
        // A URL's port may be part of a password with an unescaped "/": shown only redacted.
        if setting.origin == .url { throw .usage("invalid port number in \(shown)") }
        throw .usage("invalid port number: \(quoted(String(text)))\(setting.origin.suffix)")
    }

    /// The user: given, else `osUser`, else the effective OS user's name.
    package static func user(in layers: Layers, osUser: String?) throws(PostgresKitError) -> String {
        if let user = layers.nonEmpty("user") { return user.value }
        if let osUser = nonEmpty(osUser) ?? systemUserName() { return osUser }
        throw .usage("no user is named and the OS user has no name: give user=NAME (postgres://NAME@HOST/DB) or set PGUSER")
    }

    /// `sslmode`, defaulting to `prefer` (`verify-full` with `sslrootcert=system`, which allows no other).
    package static func tlsMode(in layers: Layers, rootCertificate: String?) throws(PostgresKitError) -> TLSMode {
        let systemRoots = rootCertificate == "system"
        guard let setting = layers["sslmode"] else { return systemRoots ? .verifyFull : .prefer }
        guard let mode = TLSMode(rawValue: setting.value) else { throw invalidValue("sslmode", setting) }
        if systemRoots && mode != .verifyFull {
            throw .usage("weak sslmode \"\(mode.rawValue)\" may not be used with sslrootcert=system (use \"verify-full\")")
        }
        return mode
    }

    package static func sessionAttributes(_ setting: Setting) throws(PostgresKitError) -> SessionAttributes {
        guard let attributes = SessionAttributes(rawValue: setting.value) else {
            throw invalidValue("target_session_attrs", setting)
        }
        return attributes
    }

    /// `load_balance_hosts`: `random` or `disable` (the default).
    package static func loadBalancing(in layers: Layers) throws(PostgresKitError) -> Bool {
        guard let setting = layers["load_balance_hosts"] else { return false }
        switch setting.value {
        case "random": return true
        case "disable": return false
        default: throw invalidValue("load_balance_hosts", setting)
        }
    }

    /// `connect_timeout` as libpq uses it: none unless positive, and at least 2 seconds.
    package static func connectTimeout(in layers: Layers) throws(PostgresKitError) -> Int? {
        guard let setting = layers["connect_timeout"] else { return nil }
        guard let seconds = Int(setting.value.trimmingCharacters(in: .whitespaces)) else {
            throw .usage("invalid integer value \(quoted(setting.value)) for connection option \"connect_timeout\"\(setting.origin.suffix)")
        }
        return seconds <= 0 ? nil : max(seconds, 2)
    }

    /// Checks the options shopsh does not read (refusing those it cannot honour) and returns a
    /// warning for each ignored one the operator may count on.
    package static func checkedOtherOptions(in layers: Layers) throws(PostgresKitError) -> [String] {
        var warnings: [String] = []
        for (keyword, use) in keywordUses.sorted(by: { $0.key < $1.key }) where use != .used {
            guard let setting = layers.nonEmpty(keyword) else { continue }
            if let warning = try checked(keyword, setting, use: use) { warnings.append(warning) }
        }
        return warnings
    }

    /// Refuses `keyword` when shopsh cannot honour it with this value; a warning when it is
    /// ignored but the operator may count on it; nil when ignoring it changes nothing.
    package static func checked(_ keyword: String, _ setting: Setting, use: KeywordUse) throws(PostgresKitError) -> String? {
        let value = setting.value
        switch keyword {
        case "channel_binding", "gssencmode":
            try expect(setting, of: keyword, among: ["disable", "prefer", "require"], refusing: "require")
        case "sslnegotiation":
            try expect(setting, of: keyword, among: ["postgres", "direct"], refusing: "direct")
        case "sslcertmode":
            try expect(setting, of: keyword, among: ["disable", "allow", "require"], refusing: "require")
        case "client_encoding":
            let name = value.lowercased().filter { $0.isLetter || $0.isNumber }
            guard ["utf8", "unicode", "auto"].contains(name) else { throw unsupported("client_encoding=\(value)", setting) }
        case "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout":
            return "shopsh ignores the connection option \(keyword)\(setting.origin.suffix)"
        default:
            // Never the value: sslpassword's is a secret.
            if use == .refused { throw unsupported(keyword, setting) }
        }
        return nil
    }

    /// Checks that `setting` is one of `values`, refusing `refused` (which shopsh cannot honour).
    package static func expect(_ setting: Setting, of keyword: String, among values: [String],
                       refusing refused: String) throws(PostgresKitError) {
        guard values.contains(setting.value) else { throw invalidValue(keyword, setting) }
        if setting.value == refused { throw unsupported("\(keyword)=\(refused)", setting) }
    }

    package static func unsupported(_ option: String, _ setting: Setting) -> PostgresKitError {
        .usage("shopsh does not support the connection option \(oneLine(option))\(setting.origin.suffix)")
    }

    package static func invalidValue(_ keyword: String, _ setting: Setting) -> PostgresKitError {
        .usage("invalid \(keyword) value: \(quoted(setting.value))\(setting.origin.suffix)")
    }

    /// The effective OS user's name, as libpq finds it.
    package static func systemUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return nonEmpty(String(cString: name))
    }

    /// Whether `path` is a directory.
    package static func directoryExists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
