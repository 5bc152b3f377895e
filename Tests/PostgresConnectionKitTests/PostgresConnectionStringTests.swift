// PostgresConnectionStringTests: connection strings read as libpq reads them (no server needed):
// the examples of the PostgreSQL manual (§34.1.1), several hosts, IPv6, %-escapes, the service
// file, the environment and its precedence, password masking, and refusals that are one line
// without the password.

import Foundation
import Testing

@testable import PostgresConnectionKit

@Suite struct PostgresConnectionStringTests {
    /// `value` read with `environment` only, the OS user `osann`, and (unless `socketDirectory`)
    /// no default socket directory, so the default host is `localhost`.
    func parse(_ value: String, _ environment: [String: String] = [:],
               socketDirectory: Bool = false) throws(PostgresKitError) -> PostgresConnectionString {
        try PostgresConnectionString(value, environment: environment, osUser: "osann",
                                     directoryExists: { _ in socketDirectory })
    }

    /// The message `value` is refused with; nil when it is read.
    func refusal(_ value: String, _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try parse(value, environment)
            return nil
        } catch {
            return error.message
        }
    }

    func host(_ name: String, _ port: Int = 5432) -> PostgresConnectionString.Host {
        PostgresConnectionString.Host(name: name, port: port)
    }

    /// A new folder holding `files` (name → lines) with mode 0600.
    func folder(_ files: [String: [String]]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("connstr-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, lines) in files {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name,
                                                   contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                                                   attributes: [.posixPermissions: 0o600]))
        }
        return folder
    }

    // MARK: - The manual's URI examples (§34.1.1.2)

    @Test func theBareURLTakesEverythingFromDefaults() throws {
        let url = try parse("postgresql://")
        #expect(url.hosts == [host("localhost")])
        #expect(url.user == "osann")
        #expect(url.database == "osann")
        #expect(url.password == nil)
        #expect(url.tls == .prefer)
        #expect(url.targetSessionAttributes == .any)
        #expect(!url.targetSessionAttributesGiven)
        #expect(!url.loadBalanceHosts)
        #expect(url.connectTimeout == nil)
        #expect(url.warnings.isEmpty)
        let withSocket = try parse("postgresql://", socketDirectory: true)
        #expect(withSocket.hosts == [host("/var/run/postgresql")])
        #expect(withSocket.hosts[0].isSocket)
        #expect(withSocket.hosts[0].socketPath == "/var/run/postgresql/.s.PGSQL.5432")
    }

    @Test func hostPortDatabaseAndUser() throws {
        #expect(try parse("postgresql://localhost").hosts == [host("localhost")])
        #expect(try parse("postgresql://localhost:5433").hosts == [host("localhost", 5433)])
        let withDatabase = try parse("postgresql://localhost/mydb")
        #expect(withDatabase.database == "mydb")
        #expect(withDatabase.user == "osann")
        let withUser = try parse("postgresql://user@localhost")
        #expect(withUser.user == "user")
        #expect(withUser.database == "user")
        let withPassword = try parse("postgresql://user:secret@localhost")
        #expect(withPassword.password == "secret")
        #expect(withPassword.description == "postgres://user:***@localhost:5432/user")
    }

    @Test func queryParameters() throws {
        let url = try parse("postgresql://other@localhost/otherdb?connect_timeout=10&application_name=myapp")
        #expect(url.user == "other")
        #expect(url.database == "otherdb")
        #expect(url.connectTimeout == 10)
        #expect(url.applicationName == "myapp")
    }

    @Test func severalHostsInAURL() throws {
        let url = try parse("postgresql://host1:123,host2:456/somedb?target_session_attrs=any&application_name=myapp")
        #expect(url.hosts == [host("host1", 123), host("host2", 456)])
        #expect(url.database == "somedb")
        #expect(url.targetSessionAttributes == .any)
        #expect(url.targetSessionAttributesGiven)
        #expect(url.applicationName == "myapp")
        #expect(url.description == "postgres://osann@host1:123,host2:456/somedb")
    }

    @Test func socketDirectoriesInTheQueryOrEscaped() throws {
        for value in ["postgresql:///dbname?host=/var/lib/postgresql", "postgresql://%2Fvar%2Flib%2Fpostgresql/dbname"] {
            let url = try parse(value)
            #expect(url.hosts == [host("/var/lib/postgresql")], "\(value)")
            #expect(url.hosts[0].isSocket)
            #expect(url.hosts[0].socketPath == "/var/lib/postgresql/.s.PGSQL.5432")
            #expect(url.database == "dbname")
            #expect(url.description == "postgres://osann@/dbname?host=/var/lib/postgresql&port=5432")
        }
    }

    @Test func ipv6Addresses() throws {
        let one = try parse("postgresql://[2001:db8::1234]/database")
        #expect(one.hosts == [host("2001:db8::1234")])
        #expect(one.hosts[0].description == "[2001:db8::1234]:5432")
        #expect(one.database == "database")
        let two = try parse("postgresql://[::1]:5433,[::2]/db")
        #expect(two.hosts == [host("::1", 5433), host("::2", 5432)])
        #expect(two.description == "postgres://osann@[::1]:5433,[::2]:5432/db")
        let settings = try parse("host=::1 port=5433")
        #expect(settings.hosts == [host("::1", 5433)])
        #expect(settings.description == "postgres://osann@[::1]:5433/osann")
    }

    // MARK: - keyword=value settings (§34.1.1.1)

    @Test func theManualsKeywordExample() throws {
        let settings = try parse("host=localhost port=5432 dbname=mydb connect_timeout=10")
        #expect(settings.hosts == [host("localhost")])
        #expect(settings.database == "mydb")
        #expect(settings.connectTimeout == 10)
        #expect(settings.user == "osann")
    }

    @Test func quotingEscapesAndBlanks() throws {
        #expect(try parse(#"password='it\'s'"#).password == "it's")
        #expect(try parse(#"password='a b\\c' user = ann"#).password == #"a b\c"#)
        #expect(try parse(#"password=a\ b"#).password == "a b")
        let spaced = try parse("  host = db1\n dbname =  shop  ")
        #expect(spaced.hosts == [host("db1")])
        #expect(spaced.database == "shop")
        // An empty value is libpq's default: the database is then the user's name.
        #expect(try parse("user=ann dbname=''").database == "ann")
        // A keyword given twice keeps its last value.
        #expect(try parse("host=a host=b").hosts == [host("b")])
    }

    @Test func postgresPrefixAndNothingAfterIt() throws {
        let settings = try parse("postgres:host=h1 dbname=shop")
        #expect(settings.hosts == [host("h1")])
        #expect(settings.database == "shop")
        let fromEnvironment = try parse("postgres:", ["PGHOST": "envhost", "PGUSER": "envuser", "PGPORT": "7000"])
        #expect(fromEnvironment.hosts == [host("envhost", 7000)])
        #expect(fromEnvironment.user == "envuser")
        #expect(fromEnvironment.database == "envuser")
    }

    // MARK: - Several hosts

    @Test func portsPerHostOrShared() throws {
        let settings = try parse("host=h1,h2 port=5432,5433 dbname=shop user=ann target_session_attrs=read-write")
        #expect(settings.hosts == [host("h1", 5432), host("h2", 5433)])
        #expect(settings.user == "ann")
        #expect(settings.targetSessionAttributes == .readWrite)
        #expect(settings.targetSessionAttributesGiven)
        #expect(settings.description == "postgres://ann@h1:5432,h2:5433/shop?target_session_attrs=read-write")
        #expect(try parse("host=a,b,c port=6000").hosts == [host("a", 6000), host("b", 6000), host("c", 6000)])
        #expect(try parse("host=a,b", ["PGPORT": "7000"]).hosts == [host("a", 7000), host("b", 7000)])
    }

    @Test func anEmptyEntryIsTheDefault() throws {
        #expect(try parse("host=a,,c port=1,,3").hosts == [host("a", 1), host("localhost"), host("c", 3)])
        let withSocket = try parse("host=a,,c port=1,,3", socketDirectory: true)
        #expect(withSocket.hosts == [host("a", 1), host("/var/run/postgresql"), host("c", 3)])
        #expect(withSocket.description == "postgres://osann@/osann?host=a,/var/run/postgresql,c&port=1,5432,3")
    }

    @Test func portCountsMustMatchHostCounts() {
        #expect(refusal("host=a,b,c port=1,2") == "could not match 2 port numbers to 3 hosts")
        #expect(refusal("postgres://a:1,b:2/db?port=1,2,3") == "could not match 3 port numbers to 2 hosts")
        #expect(refusal("host=a,b", ["PGPORT": "1,2,3"]) == "could not match 3 port numbers to 2 hosts (from PGPORT)")
    }

    @Test func aURLsHostListSetsPortsAsLibpqDoes() throws {
        // Every host of a list has a port entry, even an empty one: PGPORT is then not read.
        #expect(try parse("postgres://h1,h2", ["PGPORT": "7000"]).hosts == [host("h1"), host("h2")])
        #expect(try parse("postgres://h1", ["PGPORT": "7000"]).hosts == [host("h1", 7000)])
        #expect(try parse("postgres://h1:1,h2").hosts == [host("h1", 1), host("h2")])
    }

    @Test func loadBalancing() throws {
        #expect(try parse("host=a,b load_balance_hosts=random").loadBalanceHosts)
        #expect(try !parse("host=a,b load_balance_hosts=disable").loadBalanceHosts)
        #expect(try parse("postgres://a,b/db", ["PGLOADBALANCEHOSTS": "random"]).loadBalanceHosts)
        #expect(try !parse("postgres://a,b/db?load_balance_hosts=disable", ["PGLOADBALANCEHOSTS": "random"]).loadBalanceHosts)
        #expect(refusal("host=a load_balance_hosts=yes") == "invalid load_balance_hosts value: \"yes\"")
    }

    // MARK: - %-escapes

    @Test func percentEscapesInEveryPart() throws {
        let url = try parse("postgres://us%40er:p%3Ass%2Fw%40rd@h%6Fst:54%33%32/d%62%20x?application_name=my%26app")
        #expect(url.user == "us@er")
        #expect(url.password == "p:ss/w@rd")
        #expect(url.hosts == [host("host", 5432)])
        #expect(url.database == "db x")
        #expect(url.applicationName == "my&app")
        #expect(url.description == "postgres://us%40er:***@host:5432/db%20x")
        #expect(refusal("postgres://a:%zz@b/c") == "invalid percent-encoded token in postgres://a:***@b/c")
        #expect(refusal("postgres://a@b/c%00") == "forbidden value %00 in percent-encoded value in postgres://a@b/c%00")
        #expect(refusal("postgres://a@b/%FF") == "postgres://a@b/%FF has %-escapes that are not UTF-8")
    }

    // MARK: - The environment

    @Test func theURLComesBeforeTheEnvironment() throws {
        let environment = ["PGHOST": "envhost", "PGPORT": "7000", "PGUSER": "envuser", "PGDATABASE": "envdb",
                           "PGPASSWORD": "envpw"]
        let url = try parse("postgres://ann:pw@h:5433/db", environment)
        #expect(url.hosts == [host("h", 5433)])
        #expect(url.user == "ann")
        #expect(url.database == "db")
        #expect(url.password == "pw")
        let bare = try parse("postgres://", environment)
        #expect(bare.hosts == [host("envhost", 7000)])
        #expect(bare.user == "envuser")
        #expect(bare.database == "envdb")
        #expect(bare.password == "envpw")
        #expect(bare.description == "postgres://envuser@envhost:7000/envdb")
        let hostOnly = try parse("postgres://h", environment)
        #expect(hostOnly.hosts == [host("h", 7000)])
        #expect(hostOnly.user == "envuser")
    }

    @Test func theQueryOverridesTheAuthority() throws {
        let url = try parse("postgres://ann@h1:1/db?host=h2&port=2&dbname=other&user=bob")
        #expect(url.hosts == [host("h2", 2)])
        #expect(url.database == "other")
        #expect(url.user == "bob")
    }

    @Test func defaultHostAndSocketsFromPGHOST() throws {
        #expect(try parse("dbname=x").hosts == [host("localhost")])
        #expect(try parse("dbname=x", socketDirectory: true).hosts == [host("/var/run/postgresql")])
        let socket = try parse("dbname=x", ["PGHOST": "/tmp", "PGPORT": "5433"])
        #expect(socket.hosts == [host("/tmp", 5433)])
        #expect(socket.hosts[0].socketPath == "/tmp/.s.PGSQL.5433")
        #expect(socket.hosts[0].description == "/tmp:5433")
    }

    @Test func targetSessionAttributesFromTheEnvironment() throws {
        let fromEnvironment = try parse("postgres://h/db", ["PGTARGETSESSIONATTRS": "read-only"])
        #expect(fromEnvironment.targetSessionAttributes == .readOnly)
        #expect(fromEnvironment.targetSessionAttributesGiven)
        #expect(fromEnvironment.description == "postgres://osann@h:5432/db?target_session_attrs=read-only")
        let overridden = try parse("postgres://h/db?target_session_attrs=primary", ["PGTARGETSESSIONATTRS": "read-only"])
        #expect(overridden.targetSessionAttributes == .primary)
        let givenAsAny = try parse("postgres://h/db", ["PGTARGETSESSIONATTRS": "any"])
        #expect(givenAsAny.targetSessionAttributesGiven)
        #expect(try !parse("postgres://h/db", ["PGTARGETSESSIONATTRS": ""]).targetSessionAttributesGiven)
        for attributes in PostgresConnectionString.SessionAttributes.allCases {
            #expect(try parse("target_session_attrs=\(attributes.rawValue)").targetSessionAttributes == attributes)
        }
        #expect(refusal("postgres://h/db", ["PGTARGETSESSIONATTRS": "sometimes"])
            == "invalid target_session_attrs value: \"sometimes\" (from PGTARGETSESSIONATTRS)")
    }

    @Test func tlsModes() throws {
        for mode in PostgresConnectionString.TLSMode.allCases {
            #expect(try parse("host=h sslmode=\(mode.rawValue)").tls == mode)
        }
        #expect(try parse("host=h", ["PGSSLMODE": "require"]).tls == .require)
        #expect(try parse("host=h sslmode=disable", ["PGSSLMODE": "require"]).tls == .disable)
        #expect(try parse("host=h requiressl=1").tls == .require)
        #expect(try parse("postgres://h/db?ssl=true").tls == .require)
        let system = try parse("host=h sslrootcert=system")
        #expect(system.tls == .verifyFull)
        #expect(system.sslRootCert == "system")
        #expect(try parse("host=h", ["PGSSLROOTCERT": "/etc/ca.pem"]).sslRootCert == "/etc/ca.pem")
        #expect(refusal("host=h sslmode=require sslrootcert=system")
            == "weak sslmode \"require\" may not be used with sslrootcert=system (use \"verify-full\")")
    }

    @Test func connectTimeoutAsLibpqReadsIt() throws {
        #expect(try parse("connect_timeout=10").connectTimeout == 10)
        #expect(try parse("connect_timeout=1").connectTimeout == 2)
        #expect(try parse("connect_timeout=0").connectTimeout == nil)
        #expect(try parse("connect_timeout=-5").connectTimeout == nil)
        #expect(try parse("host=h", ["PGCONNECT_TIMEOUT": "7"]).connectTimeout == 7)
        #expect(refusal("connect_timeout=soon") == "invalid integer value \"soon\" for connection option \"connect_timeout\"")
    }

    @Test func applicationNames() throws {
        #expect(try parse("fallback_application_name=fb").applicationName == "fb")
        #expect(try parse("fallback_application_name=fb", ["PGAPPNAME": "env"]).applicationName == "env")
        #expect(try parse("application_name=mine fallback_application_name=fb", ["PGAPPNAME": "env"]).applicationName == "mine")
    }

    @Test func hostaddrIsReadAsHost() throws {
        #expect(try parse("hostaddr=10.0.0.5 port=6432").hosts == [host("10.0.0.5", 6432)])
        #expect(try parse("dbname=x", ["PGHOSTADDR": "10.0.0.6"]).hosts == [host("10.0.0.6")])
        #expect(refusal("host=db.example hostaddr=10.0.0.5")?.hasPrefix("shopsh does not support host and hostaddr together") == true)
    }

    // MARK: - The service file

    /// A user service file and a system one, in a new folder; the environment naming them.
    func serviceFiles() throws -> [String: String] {
        let folder = try folder([
            "user.conf": [
                "# shop services",
                "[shop]",
                "host=db.example",
                "port = 6432",
                "dbname=shop",
                "user=svcuser",
                "target_session_attrs=read-write",
                "",
                "[other]",
                "host=other.example",
                "",
                "[withpassword]",
                "host=h",
                "password=svcsecret",
                "",
                "[nested]",
                "service=shop",
                "",
                "[broken]",
                "host",
            ],
            "pg_service.conf": [
                "[shop]",
                "host=system.example",
                "[systemonly]",
                "host=system.example",
                "dbname=systemdb",
            ],
        ])
        return ["PGSERVICEFILE": folder + "/user.conf", "PGSYSCONFDIR": folder]
    }

    @Test func aServiceGivesItsSection() throws {
        let environment = try serviceFiles()
        let shop = try parse("service=shop", environment)
        #expect(shop.hosts == [host("db.example", 6432)])
        #expect(shop.database == "shop")
        #expect(shop.user == "svcuser")
        #expect(shop.targetSessionAttributes == .readWrite)
        #expect(shop.targetSessionAttributesGiven)
        #expect(try parse("postgres:service=other", environment).hosts == [host("other.example")])
        #expect(try parse("postgres://?service=other", environment).hosts == [host("other.example")])
        var named = environment
        named["PGSERVICE"] = "other"
        #expect(try parse("postgres:", named).hosts == [host("other.example")])
        #expect(try parse("service=shop", named).hosts == [host("db.example", 6432)])
    }

    @Test func theUserFileComesBeforeTheSystemFile() throws {
        let environment = try serviceFiles()
        #expect(try parse("service=shop", environment).hosts == [host("db.example", 6432)])
        let systemOnly = try parse("service=systemonly", environment)
        #expect(systemOnly.hosts == [host("system.example")])
        #expect(systemOnly.database == "systemdb")
        // Without PGSERVICEFILE, the user file is ~/.pg_service.conf.
        let home = try folder([".pg_service.conf": ["[mine]", "host=home.example"]])
        let fromHome = try parse("service=mine", ["HOME": home, "PGSYSCONFDIR": home + "/none"])
        #expect(fromHome.hosts == [host("home.example")])
    }

    @Test func theStringComesBeforeTheServiceWhichComesBeforeTheEnvironment() throws {
        var environment = try serviceFiles()
        environment.merge(["PGHOST": "envhost", "PGUSER": "envuser", "PGDATABASE": "envdb", "PGAPPNAME": "envapp"]) { $1 }
        let settings = try parse("service=shop dbname=mine", environment)
        #expect(settings.database == "mine")
        #expect(settings.hosts == [host("db.example", 6432)])
        #expect(settings.user == "svcuser")
        #expect(settings.applicationName == "envapp")
        let url = try parse("postgres://urlhost/urldb?service=shop", environment)
        #expect(url.hosts == [host("urlhost", 6432)])
        #expect(url.database == "urldb")
    }

    @Test func aServicesPasswordIsUsedButNotShown() throws {
        let settings = try parse("service=withpassword", try serviceFiles())
        #expect(settings.password == "svcsecret")
        #expect(settings.description == "postgres://osann@h:5432/osann")
    }

    @Test func serviceFileRefusals() throws {
        let environment = try serviceFiles()
        #expect(refusal("service=nope", environment) == "definition of service \"nope\" not found")
        #expect(refusal("service=nested", environment)?.hasPrefix("nested service specifications not supported in service file") == true)
        #expect(refusal("service=broken", environment)?.hasPrefix("syntax error in service file") == true)
        #expect(refusal("service=x", ["PGSERVICEFILE": "/nonexistent/pg_service.conf"])
            == "service file \"/nonexistent/pg_service.conf\" not found")
    }

    @Test func serviceFileSections() throws {
        let text = "  # comment\n[a]\nhost = x \nport=1\nport=2\n[b]\nhost=y\n"
        #expect(try PostgresServiceFile.settings(ofSection: "a", in: text, path: "f") == ["host": "x", "port": "1"])
        #expect(try PostgresServiceFile.settings(ofSection: "b", in: text, path: "f") == ["host": "y"])
        #expect(try PostgresServiceFile.settings(ofSection: "c", in: text, path: "f") == nil)
        #expect(throws: PostgresKitError.usage("syntax error in service file \"f\", line 2: invalid connection option \"bogus\"")) {
            try PostgresServiceFile.settings(ofSection: "a", in: "[a]\nbogus=1\n", path: "f")
        }
    }

    // MARK: - Passwords

    @Test func passwordsFromTheFilePerHost() throws {
        let home = try folder([".pgpass": [
            "localhost:5432:shop:ann:socketpw",
            "/tmp:5432:shop:ann:tmppw",
            "h2:5433:shop:ann:h2pw",
        ]])
        let environment = ["HOME": home]
        let settings = try parse("host=/var/run/postgresql,h2,/tmp port=5432,5433,5432 dbname=shop user=ann", environment)
        #expect(settings.password == nil)
        #expect(settings.password(for: settings.hosts[0], environment: environment).password == "socketpw")
        #expect(settings.password(for: settings.hosts[1], environment: environment).password == "h2pw")
        #expect(settings.password(for: settings.hosts[2], environment: environment).password == "tmppw")
        // `passfile` names another file; an explicit password comes first.
        let named = try parse("host=h2 port=5433 dbname=shop user=ann passfile=\(home)/.pgpass", ["HOME": "/nonexistent"])
        #expect(named.password(for: named.hosts[0], environment: ["HOME": "/nonexistent"]).password == "h2pw")
        let explicit = try parse("host=h2 port=5433 dbname=shop user=ann password=given", environment)
        #expect(explicit.password(for: explicit.hosts[0], environment: environment) == PasswordFile.Lookup(password: "given"))
    }

    @Test func passwordsFromTheStringOrPGPASSWORD() throws {
        #expect(try parse("postgres://ann:from-url@h/db", ["PGPASSWORD": "from-env"]).password == "from-url")
        let fromEnvironment = try parse("postgres://ann@h/db", ["PGPASSWORD": "from-env"])
        #expect(fromEnvironment.password == "from-env")
        #expect(fromEnvironment.description == "postgres://ann@h:5432/db")
        // An empty password in the settings is none, and PGPASSWORD is not read (as libpq).
        #expect(try parse("host=h password=''", ["PGPASSWORD": "from-env"]).password == nil)
    }

    @Test func passwordsAreMaskedInTheDescription() throws {
        let url = try parse("postgres://ann:hunter2@h/db")
        #expect(url.description == "postgres://ann:***@h:5432/db")
        let settings = try parse("host=h user=ann password='hunter 2' dbname=db")
        #expect(settings.description == "postgres://ann:***@h:5432/db")
    }

    @Test func redactMasksEveryPassword() {
        let cases = [
            "postgres://a:p@ss@h:1/d": "postgres://a:***@h:1/d",
            "postgres://a@h/d?password=secret&sslmode=require": "postgres://a@h/d?password=***&sslmode=require",
            "postgres://a@h/d?pass%77ord=secret": "postgres://a@h/d?pass%77ord=***",
            "postgres://a:p/ss@h/d": "postgres://a:***@h/d",
            "postgres://a:p?ss@h/d": "postgres://a:***@h/d",
            "postgres://a:p/q?r@h/d": "postgres://a:***",
            "postgres://a:b/c@h/d?password=x": "postgres://a:***@h/d?password=***",
            "postgres://h:5x/db": "postgres://h:5x/db",
            #"host=h password='it\'s secret' dbname=d"#: "host=h password=*** dbname=d",
            "host=h password=my secret dbname=d": "host=h password=*** dbname=d",
            "host=h password='unterminated": "host=h password=***",
            "postgres:host=h password=x": "postgres:host=h password=***",
            "postgres://a@h/d": "postgres://a@h/d",
            "host=h dbname=d": "host=h dbname=d",
            "/tmp/shop.sqlite": "/tmp/shop.sqlite",
        ]
        for (value, redacted) in cases {
            #expect(PostgresConnectionString.redact(value) == redacted, "\(value)")
        }
    }

    @Test func withoutPasswordRemovesIt() {
        let cases = [
            "postgres://a:p@ss@h:1/d?sslmode=require": "postgres://a@h:1/d?sslmode=require",
            "postgres://a@h/d": "postgres://a@h/d",
            "postgres://a@h/d?password=x": "postgres://a@h/d",
            "postgres://a@h/d?sslmode=require&password=x": "postgres://a@h/d?sslmode=require",
            "postgres://a@h/d?password=x&sslmode=require": "postgres://a@h/d?sslmode=require",
            "host=h password=secret dbname=d": "host=h dbname=d",
            "host=h password='a b'": "host=h",
            "postgres:password=x host=h": "postgres:host=h",
            "postgres://a:p/ss@h/d": "postgres://a@h/d",
            "host=h password=my secret dbname=d": "host=h dbname=d",
            "/tmp/shop.sqlite": "/tmp/shop.sqlite",
        ]
        for (value, without) in cases {
            #expect(PostgresConnectionString.withoutPassword(value) == without, "\(value)")
        }
    }

    // MARK: - Refusals

    @Test func everyRefusalIsOneLineWithoutThePassword() {
        let cases: [(String, [String: String], String)] = [
            ("postgres://ann:hunter2@h:0/db", [:], "invalid port number in postgres://ann:***@h:0/db"),
            ("postgres://ann:hunter2@h:x/db", [:], "invalid port number in postgres://ann:***@h:x/db"),
            ("postgres://ann:hunt/er2@h:5432/db", [:], "the database name in postgres://ann:***@h:5432/db holds an \"@\": write a \"/\" in a password as %2F (and an \"@\" in a database name as %40)"),
            ("postgres://ann@h:5x/db", [:], "invalid port number in postgres://ann@h:5x/db"),
            ("host=h password=hunter2 port=99999", [:], "invalid port number: \"99999\""),
            ("postgres://ann:hunter2@h/db?sslmode=maybe", [:], "invalid sslmode value: \"maybe\""),
            ("postgres://ann:hunter2@h/db?x=1", [:], "invalid URI query parameter: \"x\""),
            ("postgres://ann:hunter2@h/db?password", [:], "missing key/value separator \"=\" in URI query parameter: \"password\""),
            ("postgres://ann:hunter2@h/db?a=b=c", [:], "extra key/value separator \"=\" in URI query parameter: \"a\""),
            ("postgres://ann:hunter2@h/db?target_session_attrs=sometimes", [:], "invalid target_session_attrs value: \"sometimes\""),
            ("postgres://ann:hunter2@h/db?sslcert=/c", [:], "shopsh does not support the connection option sslcert"),
            ("postgres://ann:hunter2@[::1/db", [:], "end of string reached when looking for matching \"]\" in IPv6 host address in URI: postgres://ann:***@[::1/db"),
            ("postgres://ann:hunter2@[]/db", [:], "IPv6 host address may not be empty in URI: postgres://ann:***@[]/db"),
            ("postgres://ann:hunter2@[::1]x/db", [:], "unexpected character after \"]\" in URI (expected \":\" or \"/\"): postgres://ann:***@[::1]x/db"),
            ("postgres://ann:hunt/er2@h/db", [:], "the database name in postgres://ann:***@h/db holds an \"@\": write a \"/\" in a password as %2F (and an \"@\" in a database name as %40)"),
            ("host=h password=hunter2 bogus=1", [:], "invalid connection option \"bogus\""),
            ("host=h password='hunter2", [:], "unterminated quoted string in connection info string"),
            ("host=h password=hunter2 dbname", [:], "missing \"=\" after the value of password in connection info string (quote a value with spaces: password='…')"),
            ("host=h dbname password=hunter2", [:], "missing \"=\" after \"dbname\" in connection info string"),
            ("host=h password=hunt er2", [:], "missing \"=\" after the value of password in connection info string (quote a value with spaces: password='…')"),
            ("host=h pass:hunter2", [:], "missing \"=\" after (a name not shown) in connection info string"),
            ("host=h password=hunter2 sslkey=/k", [:], "shopsh does not support the connection option sslkey"),
            ("host=h password=hunter2 sslpassword=hunter2", [:], "shopsh does not support the connection option sslpassword"),
            ("host=h password=hunter2 options='-c search_path=x'", [:], "shopsh does not support the connection option options"),
            ("host=h password=hunter2 channel_binding=require", [:], "shopsh does not support the connection option channel_binding=require"),
            ("host=h password=hunter2 gssencmode=require", [:], "shopsh does not support the connection option gssencmode=require"),
            ("host=h password=hunter2 require_auth=scram-sha-256", [:], "shopsh does not support the connection option require_auth"),
            ("host=h password=hunter2 requirepeer=postgres", [:], "shopsh does not support the connection option requirepeer"),
            ("host=h password=hunter2 krbsrvname=pg", [:], "shopsh does not support the connection option krbsrvname"),
            ("host=h password=hunter2 replication=true", [:], "shopsh does not support the connection option replication"),
            ("host=h password=hunter2 ssl_min_protocol_version=TLSv1.3", [:], "shopsh does not support the connection option ssl_min_protocol_version"),
            ("host=h password=hunter2 sslcrl=/crl", [:], "shopsh does not support the connection option sslcrl"),
            ("host=h password=hunter2 client_encoding=LATIN1", [:], "shopsh does not support the connection option client_encoding=LATIN1"),
            ("host=h password=hunter2 channel_binding=maybe", [:], "invalid channel_binding value: \"maybe\""),
            ("host=h password=hunter2", ["PGSSLCERT": "/cert"], "shopsh does not support the connection option sslcert (from PGSSLCERT)"),
            ("host=a,b port=1,2,3 password=hunter2", [:], "could not match 3 port numbers to 2 hosts"),
            ("mysql://ann:hunter2@b/c", [:], "not a PostgreSQL connection string: give postgres://USER@HOST:PORT/DB, or settings such as host=HOST dbname=DB"),
        ]
        for (value, environment, expected) in cases {
            let message = refusal(value, environment)
            #expect(message == expected, "\(value)")
            #expect(message?.contains("hunter") == false, "\(value)")
            #expect(message?.contains("er2") == false, "\(value)")
            #expect(message?.contains("\n") == false, "\(value)")
        }
    }

    @Test func harmlessOptionsAreAccepted() throws {
        let settings = try parse("host=h keepalives=1 keepalives_idle=30 client_encoding=UTF8 sslsni=1 gssencmode=disable channel_binding=prefer sslcompression=0")
        #expect(settings.hosts == [host("h")])
        #expect(settings.warnings == ["shopsh ignores the connection option keepalives",
                                      "shopsh ignores the connection option keepalives_idle"])
        #expect(try parse("host=h client_encoding=auto gssencmode=prefer").warnings.isEmpty)
    }

    // MARK: - What a connection string is

    @Test func isConnectionString() {
        for value in ["postgres://a@h/db", "postgresql://", "postgres:", "postgres:host=h1 dbname=shop",
                      "postgresql:service=shop", "host=h1,h2 port=5432,5433 dbname=shop user=ann target_session_attrs=read-write",
                      "service=shop", "dbname=x", " host = h", "sslcert=x"] {
            #expect(PostgresConnectionString.isConnectionString(value), "\(value)")
        }
        for value in ["/tmp/shop.sqlite", "shop.sqlite", "sqlite:x", "mysql://a@b/c", "name=x", "", "host",
                      "./dbname=x", "postgres", "my shop.sqlite"] {
            #expect(!PostgresConnectionString.isConnectionString(value), "\(value)")
        }
    }

    // MARK: - From the PostgresConnectionURL tests

    @Test func thePlainForm() throws {
        let url = try parse("postgres://shop@db.example:6432/shop")
        #expect(url.user == "shop")
        #expect(url.password == nil)
        #expect(url.hosts == [host("db.example", 6432)])
        #expect(url.database == "shop")
        #expect(url.tls == .prefer)
        #expect(url.description == "postgres://shop@db.example:6432/shop")
    }

    @Test func defaults() throws {
        let url = try parse("postgresql://ann@localhost")
        #expect(url.hosts == [host("localhost", 5432)])
        #expect(url.database == "ann")
    }

    @Test func passwordsAreUsedAndNeverShown() throws {
        let url = try parse("postgres://ann:s%40cr:et@127.0.0.1:5432/shop?sslmode=disable")
        #expect(url.password == "s@cr:et")
        #expect(url.tls == .disable)
        #expect(url.description == "postgres://ann:***@127.0.0.1:5432/shop")
        #expect(!url.description.contains("cr"))
        #expect(PostgresConnectionString.redact("postgres://a:p@ss@h:1/d") == "postgres://a:***@h:1/d")
    }

    @Test func unescapedAtInAPasswordEndsAtTheLastAt() throws {
        let url = try parse("postgres://ann:p@ss@host:5/db")
        #expect(url.password == "p@ss")
        #expect(url.hosts == [host("host", 5)])
    }

    @Test func noUserMeansTheOSUser() throws {
        // libpq reads an empty user as none given: PGUSER, else the OS user.
        #expect(try parse("postgres://@b/c").user == "osann")
        #expect(try parse("postgres://@b/c", ["PGUSER": "envuser"]).user == "envuser")
        #expect(try PostgresConnectionString("postgres://b/c").user.isEmpty == false)
    }

    @Test func oldRefusals() {
        for bad in ["mysql://a@b/c", "postgres://a@b:0/c", "postgres://a@b:x/c", "postgres://a@b/c?sslmode=maybe",
                    "postgres://a:%zz@b/c", "postgres://a:secret@b:99999/c"] {
            let message = refusal(bad)
            #expect(message != nil, "\(bad)")
            #expect(message?.contains("secret") == false, "\(bad)")
        }
    }
}
