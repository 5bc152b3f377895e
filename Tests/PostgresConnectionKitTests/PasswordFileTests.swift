// PasswordFileTests: ~/.pgpass as libpq reads it — the first matching line wins, `*` matches
// anything, `\:` and `\\` are escapes, a file open to group or others is ignored with a warning,
// the URL and PGPASSWORD come first, and each host of a connection string is looked up on its own.
// No server needed.

import Foundation
import Testing

@testable import PostgresConnectionKit

@Suite struct PasswordFileTests {
    /// A password file with `lines`, of mode `mode`, in a new folder; returns the environment naming it.
    func passwordFile(_ lines: [String], mode: Int = 0o600) throws -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(".pgpass").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                                               attributes: [.posixPermissions: mode]))
        return ["HOME": folder.path]
    }

    /// The password `text` gets for its first host (explicit, else the password file's), and the file's warning.
    func password(_ text: String, environment: [String: String]) throws -> PasswordFile.Lookup {
        let settings = try PostgresConnectionString(text, environment: environment)
        if let explicit = settings.password { return PasswordFile.Lookup(password: explicit) }
        return settings.password(for: try #require(settings.hosts.first), environment: environment)
    }

    @Test func theFirstMatchingLineGivesThePassword() throws {
        let environment = try passwordFile([
            "# a comment",
            "db.example:5432:other:ann:not-this-one",
            "db.example:5432:shop:ann:pa\\:ss\\\\word",
            "*:*:*:ann:fallback",
        ])
        let found = try password("postgres://ann@db.example/shop", environment: environment)
        #expect(found.password == "pa:ss\\word")
        #expect(found.warning == nil)
        #expect(try password("postgres://ann@other.example:6432/x", environment: environment).password == "fallback")
        #expect(try password("postgres://bob@db.example/shop", environment: environment).password == nil)
    }

    @Test func eachHostIsLookedUpOnItsOwn() throws {
        let environment = try passwordFile(["h1:5432:shop:ann:one", "h2:5433:shop:ann:two"])
        let settings = try PostgresConnectionString("postgres://ann@h1:5432,h2:5433/shop", environment: environment)
        #expect(settings.hosts.map { settings.password(for: $0, environment: environment).password } == ["one", "two"])
    }

    @Test func theURLAndPGPASSWORDComeFirst() throws {
        var environment = try passwordFile(["*:*:*:*:from-file"])
        #expect(try password("postgres://ann:from-url@h/db", environment: environment).password == "from-url")
        environment["PGPASSWORD"] = "from-env"
        #expect(try password("postgres://ann@h/db", environment: environment).password == "from-env")
    }

    @Test func aFileOthersCanReadIsIgnoredWithAWarning() throws {
        let environment = try passwordFile(["*:*:*:*:secret-in-file"], mode: 0o644)
        let found = try password("postgres://ann@h/db", environment: environment)
        #expect(found.password == nil)
        #expect(found.warning?.contains("chmod 600") == true)
        #expect(found.warning?.contains("secret-in-file") == false)
    }

    @Test func PGPASSFILENamesAnotherFile() throws {
        let environment = try passwordFile(["h:5432:db:ann:elsewhere"])
        guard let home = environment["HOME"] else { return }
        #expect(try password("postgres://ann@h/db", environment: ["PGPASSFILE": home + "/.pgpass", "HOME": "/nonexistent"]).password
                == "elsewhere")
    }
}
