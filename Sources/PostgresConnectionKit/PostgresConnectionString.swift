// PostgresConnectionString: a PostgreSQL store's connection string read as libpq reads one — a
// postgres:// URL or keyword=value settings, completed from the service file, the PG* environment
// and libpq's defaults — and shown or handed on without its password. Parsed without Foundation's
// URL, so a password with any character survives.

import Foundation

/// Where a PostgreSQL store is and how to log in, read as libpq reads a connection string.
///
/// Three forms are read: a URL (`postgres://ann@db1:5432,db2/shop?sslmode=require`), `postgres:`
/// followed by settings or by nothing (`postgres:service=shop`), and bare settings whose first
/// keyword is libpq's (`host=db1,db2 dbname=shop`). A setting the string leaves out comes from the
/// service file's section (`service=NAME` or `PGSERVICE`), else from its `PG*` environment variable,
/// else from libpq's default: the order libpq uses.
public struct PostgresConnectionString: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS: libpq's `sslmode`, which the store maps onto what it can do.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// Plain TCP only.
        case disable
        /// Plain TCP first, TLS when the server insists.
        case allow
        /// TLS when the server offers it, its certificate unchecked (libpq's default).
        case prefer
        /// TLS or no connection (libpq checks the certificate only when given a root certificate).
        case require
        /// TLS with the server's certificate checked against the root certificates.
        case verifyCA = "verify-ca"
        /// TLS with the server's certificate checked and naming the host.
        case verifyFull = "verify-full"
    }

    /// Which of several servers will do: libpq's `target_session_attrs`.
    public enum SessionAttributes: String, Sendable, Equatable, CaseIterable {
        /// The first server that answers.
        case any
        /// One that accepts writes.
        case readWrite = "read-write"
        /// One that refuses writes.
        case readOnly = "read-only"
        /// One not in recovery.
        case primary
        /// One in recovery (a standby).
        case standby
        /// A standby when one answers, else any server.
        case preferStandby = "prefer-standby"
    }

    /// One server to try: a host name, an IP address or a socket directory, and a port.
    public struct Host: Sendable, Equatable, CustomStringConvertible {
        /// A host name, an IP address (IPv6 without brackets), or a socket directory (starts with "/").
        public var name: String
        /// The TCP port, or the number in the socket file's name.
        public var port: Int

        /// The server at `name` (a host, an address or a socket directory) and `port`.
        public init(name: String, port: Int) {
            self.name = name
            self.port = port
        }

        /// Whether `name` is the directory of the server's Unix-domain socket.
        public var isSocket: Bool { name.hasPrefix("/") }

        /// The socket file: `/var/run/postgresql/.s.PGSQL.5432`.
        public var socketPath: String { name + "/.s.PGSQL.\(port)" }

        /// `db1:5432`, `[::1]:5433`, or `/var/run/postgresql:5432`.
        public var description: String { (isIPv6 ? "[\(name)]" : name) + ":\(port)" }

        /// Whether `name` is an IPv6 address (which a URL brackets).
        package var isIPv6: Bool { !isSocket && name.contains(":") }
    }

    /// The servers to try, in the order given; never empty.
    public var hosts: [Host]
    public var user: String
    public var database: String
    /// The password given in the string, else the service file's, else `PGPASSWORD`; nil when none
    /// was, and then `password(for:environment:)` reads the password file for each host.
    public var password: String?
    /// libpq's `sslmode`: `prefer` unless said otherwise (`verify-full` with `sslrootcert=system`).
    public var tls: TLSMode
    /// The root certificates to check the server's against (`sslrootcert`, `PGSSLROOTCERT`).
    public var sslRootCert: String?
    /// Which server of `hosts` will do: `any` unless said otherwise.
    public var targetSessionAttributes: SessionAttributes
    /// Whether the operator said `target_session_attrs` (in the string, the service file or
    /// `PGTARGETSESSIONATTRS`), even as `any`.
    public var targetSessionAttributesGiven: Bool
    /// `load_balance_hosts=random`: try `hosts` in a random order (the caller shuffles).
    public var loadBalanceHosts: Bool
    /// `connect_timeout` in seconds as libpq reads it: nil when not given or not positive, and 2
    /// for 1 (libpq's minimum).
    public var connectTimeout: Int?
    /// `application_name`, else `PGAPPNAME`, else `fallback_application_name`.
    public var applicationName: String?
    /// For the operator, on opening (e.g. an option that shopsh ignores); never a password.
    public var warnings: [String]
    /// The password file named by `passfile=` in the string or the service file; nil leaves it to
    /// `PGPASSFILE`, else `~/.pgpass`.
    package var passFile: String?
    /// Whether `password` was written in the string itself (then `description` shows `:***`).
    package var passwordInString: Bool

    /// Reads `value` (see the type's summary). `environment` supplies the `PG*` variables, `HOME`
    /// (for `~/.pg_service.conf`) and `PGSERVICEFILE` / `PGSYSCONFDIR`; `osUser` is the user when
    /// nothing names one (nil: the effective OS user, as libpq does).
    public init(_ value: String, environment: [String: String] = [:], osUser: String? = nil) throws(PostgresKitError) {
        try self.init(value, environment: environment, osUser: osUser, directoryExists: Self.directoryExists)
    }

    /// As the public initializer, with `directoryExists` telling whether libpq's default socket
    /// directory is there (tests answer without the disk).
    package init(_ value: String, environment: [String: String], osUser: String?,
         directoryExists: (String) -> Bool) throws(PostgresKitError) {
        let layers = try Self.layers(of: value, environment: environment)
        hosts = try Self.hosts(in: layers, directoryExists: directoryExists)
        user = try Self.user(in: layers, osUser: osUser)
        database = layers.nonEmpty("dbname")?.value ?? user
        let password = layers.nonEmpty("password")
        self.password = password?.value
        passwordInString = password?.origin.isInString ?? false
        passFile = layers["passfile"].flatMap { $0.origin.isEnvironment ? nil : $0.value }
        sslRootCert = layers.nonEmpty("sslrootcert")?.value
        tls = try Self.tlsMode(in: layers, rootCertificate: sslRootCert)
        let attributes = layers["target_session_attrs"]
        targetSessionAttributes = try attributes.map(Self.sessionAttributes) ?? .any
        targetSessionAttributesGiven = attributes != nil
        loadBalanceHosts = try Self.loadBalancing(in: layers)
        connectTimeout = try Self.connectTimeout(in: layers)
        applicationName = (layers.nonEmpty("application_name") ?? layers.nonEmpty("fallback_application_name"))?.value
        warnings = try Self.checkedOtherOptions(in: layers)
    }

    /// The password for `host`: the explicit one, else the password file's (`passfile`, else
    /// `PGPASSFILE`, else `~/.pgpass`), with the file's warning. As libpq does, a connection to the
    /// default socket directory is looked up as `localhost`; another socket directory by its path.
    public func password(for host: Host, environment: [String: String]) -> PasswordFile.Lookup {
        if let password { return PasswordFile.Lookup(password: password) }
        var environment = environment
        if let passFile { environment["PGPASSFILE"] = passFile }
        let name = host.name == Self.defaultSocketDirectory ? "localhost" : host.name
        return PasswordFile.lookup(host: name, port: host.port, database: database, user: user, environment: environment)
    }

    /// What the operator should know before connecting: the string's own warnings, and the
    /// password file's (e.g. that it was ignored), once.
    public func warnings(environment: [String: String]) -> [String] {
        var all = warnings
        for host in hosts {
            if let warning = password(for: host, environment: environment).warning, !all.contains(warning) { all.append(warning) }
        }
        return all
    }

    /// For people: `postgres://USER@HOST:PORT,…/DB`, socket directories as `?host=/dir&port=N`,
    /// `target_session_attrs` when not `any`. The password shows as `***` only when the string
    /// held one.
    public var description: String {
        let credentials = Self.escaped(user) + (passwordInString ? ":***" : "")
        var query: [String] = []
        var authority = ""
        if hosts.contains(where: \.isSocket) {
            query.append("host=" + hosts.map { Self.escaped($0.name, keeping: "/:") }.joined(separator: ","))
            let ports = hosts.map { String($0.port) }
            query.append("port=" + (Set(ports).count == 1 ? ports[0] : ports.joined(separator: ",")))
        } else {
            authority = hosts.map { ($0.isIPv6 ? "[\($0.name)]" : Self.escaped($0.name)) + ":\($0.port)" }
                .joined(separator: ",")
        }
        if targetSessionAttributes != .any {
            query.append("target_session_attrs=" + targetSessionAttributes.rawValue)
        }
        let suffix = query.isEmpty ? "" : "?" + query.joined(separator: "&")
        return "postgres://\(credentials)@\(authority)/\(Self.escaped(database))" + suffix
    }

    /// Whether `value` names a PostgreSQL server rather than a file: a `postgres://` or
    /// `postgresql://` URL, anything after `postgres:` / `postgresql:`, or settings whose first
    /// word is a libpq keyword followed by `=` (`host=db1 dbname=shop`, `service=shop`).
    public static func isConnectionString(_ value: String) -> Bool {
        form(of: value) != nil
    }

    /// `value` with every password as `***`: a URL's (`user:PASSWORD@`, `?password=`) or a
    /// setting's (`password=…`, quoted or not). Anything else is returned as it is.
    public static func redact(_ value: String) -> String {
        edited(value, replacement: "***")
    }

    /// `value` without its password, the rest as written: for a program started for the operator
    /// (an external plugin), which finds the password where shopsh may (`PGPASSWORD`, `~/.pgpass`).
    public static func withoutPassword(_ value: String) -> String {
        edited(value, replacement: nil)
    }
}
