// PostgresConnectionURLTests: parsing store URLs (no server needed): users, passwords from the URL
// or PGPASSWORD, %-escapes, IPv6 hosts, sslmode, and that no shown form holds the password.

import ShopCore
import Testing
@testable import ShopStorePostgres

@Suite struct PostgresConnectionURLTests {
    @Test func thePlainForm() throws {
        let url = try PostgresConnectionURL("postgres://shop@db.example:6432/shop")
        #expect(url.user == "shop")
        #expect(url.password == nil)
        #expect(url.host == "db.example")
        #expect(url.port == 6432)
        #expect(url.database == "shop")
        #expect(url.tls == .prefer)
        #expect(url.description == "postgres://shop@db.example:6432/shop")
    }

    @Test func defaults() throws {
        let url = try PostgresConnectionURL("postgresql://ann@localhost")
        #expect(url.port == 5432)
        #expect(url.database == "ann")
    }

    @Test func passwordsAreUsedAndNeverShown() throws {
        let url = try PostgresConnectionURL("postgres://ann:s%40cr:et@127.0.0.1:5432/shop?sslmode=disable")
        #expect(url.password == "s@cr:et")
        #expect(url.tls == .disable)
        #expect(url.description == "postgres://ann:***@127.0.0.1:5432/shop")
        #expect(!url.description.contains("cr"))
        let fromEnvironment = try PostgresConnectionURL("postgres://ann@h/shop", environment: ["PGPASSWORD": "pw"])
        #expect(fromEnvironment.password == "pw")
        #expect(!fromEnvironment.description.contains("pw"))
        #expect(PostgresConnectionURL.redact("postgres://a:p@ss@h:1/d") == "postgres://a:***@h:1/d")
        #expect(PostgresConnectionURL.withoutPassword("postgres://a:p@ss@h:1/d?sslmode=require") == "postgres://a@h:1/d?sslmode=require")
        #expect(PostgresConnectionURL.withoutPassword("postgres://a@h/d") == "postgres://a@h/d")
    }

    @Test func unescapedAtInAPasswordEndsAtTheLastAt() throws {
        let url = try PostgresConnectionURL("postgres://ann:p@ss@host:5/db")
        #expect(url.password == "p@ss")
        #expect(url.host == "host")
    }

    @Test func ipv6Hosts() throws {
        let url = try PostgresConnectionURL("postgres://ann@[::1]:5433/shop")
        #expect(url.host == "::1")
        #expect(url.port == 5433)
        #expect(url.description == "postgres://ann@[::1]:5433/shop")
    }

    @Test func refusals() {
        for bad in ["mysql://a@b/c", "postgres://a@b:0/c", "postgres://a@b:x/c", "postgres://@b/c",
                    "postgres://a@b/c?sslmode=maybe", "postgres://a:%zz@b/c"] {
            #expect(throws: ShopError.self, "\(bad)") { try PostgresConnectionURL(bad) }
        }
        // The refusal never repeats a password.
        do {
            _ = try PostgresConnectionURL("postgres://a:secret@b:99999/c")
        } catch {
            #expect(!error.message.contains("secret"))
        }
    }
}
