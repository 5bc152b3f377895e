// PasswordFileTests: ~/.pgpass as libpq reads it — the first matching line wins, `*` matches
// anything, `\:` and `\\` are escapes, a file open to group or others is ignored with a warning,
// and the URL and PGPASSWORD come first. No server needed.

import Foundation
import Testing
@testable import ShopStorePostgres

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

    @Test func theFirstMatchingLineGivesThePassword() throws {
        let environment = try passwordFile([
            "# a comment",
            "db.example:5432:other:ann:not-this-one",
            "db.example:5432:shop:ann:pa\\:ss\\\\word",
            "*:*:*:ann:fallback",
        ])
        let url = try PostgresConnectionURL("postgres://ann@db.example/shop", environment: environment)
        #expect(url.password == "pa:ss\\word")
        #expect(url.warnings.isEmpty)
        let elsewhere = try PostgresConnectionURL("postgres://ann@other.example:6432/x", environment: environment)
        #expect(elsewhere.password == "fallback")
        let otherUser = try PostgresConnectionURL("postgres://bob@db.example/shop", environment: environment)
        #expect(otherUser.password == nil)
    }

    @Test func theURLAndPGPASSWORDComeFirst() throws {
        var environment = try passwordFile(["*:*:*:*:from-file"])
        #expect(try PostgresConnectionURL("postgres://ann:from-url@h/db", environment: environment).password == "from-url")
        environment["PGPASSWORD"] = "from-env"
        #expect(try PostgresConnectionURL("postgres://ann@h/db", environment: environment).password == "from-env")
    }

    @Test func aFileOthersCanReadIsIgnoredWithAWarning() throws {
        let environment = try passwordFile(["*:*:*:*:secret-in-file"], mode: 0o644)
        let url = try PostgresConnectionURL("postgres://ann@h/db", environment: environment)
        #expect(url.password == nil)
        #expect(url.warnings.count == 1)
        #expect(url.warnings.first?.contains("chmod 600") == true)
        #expect(url.warnings.first?.contains("secret-in-file") == false)
    }

    @Test func PGPASSFILENamesAnotherFile() throws {
        let environment = try passwordFile(["h:5432:db:ann:elsewhere"])
        guard let home = environment["HOME"] else { return }
        let url = try PostgresConnectionURL("postgres://ann@h/db", environment: ["PGPASSFILE": home + "/.pgpass", "HOME": "/nonexistent"])
        #expect(url.password == "elsewhere")
    }
}
