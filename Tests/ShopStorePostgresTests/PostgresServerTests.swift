// PostgresServerTests: the PostgreSQL store's groundwork against a real server — connecting, the
// migrations (idempotent, and safe when several processes start at once), refusing a newer schema,
// and faults as one line. Skipped, saying why, without SHOPSH_TEST_POSTGRES; failing under CI=true.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import Testing
@testable import ShopStorePostgres
import PostgresConnectionKit

@Test func aServerIsThereUnderCI() {
    if PostgresTestServer.underCI {
        #expect(PostgresTestServer.url != nil, "CI=true needs SHOPSH_TEST_POSTGRES (make test starts a server)")
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresServerTests {
    /// The schema's tables in `schema`, by name.
    func tables(in schema: String) async throws -> Set<String> {
        try await PostgresTestServer.withAdminClient { client, logger in
            var names = Set<String>()
            for try await name in try await client.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(schema)", logger: logger
            ).decode(String.self) {
                names.insert(name)
            }
            return names
        }
    }

    @Test func openingMigratesOnceAndAgainChangesNothing() async throws {
        let schema = try await PostgresTestServer.makeSchema()
        let url = try PostgresTestServer.connectionURL()
        let store = try await PostgresStore.open(url, searchPath: schema)
        defer { store.close() }
        #expect(try await tables(in: schema) == Set(PostgresSchema.tableNames + PostgresSchema.viewNames + ["schema_migrations"]))
        let again = try await PostgresSchema.migrate(store.database)
        #expect(again.isEmpty)
        #expect(store.displayName == url.database)
    }

    @Test func storesStartingAtOnceMigrateOnce() async throws {
        let schema = try await PostgresTestServer.makeSchema()
        let url = try PostgresTestServer.connectionURL()
        // Eight pools at once on a new schema: every one must open, and the migration run once.
        let opened = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let store = try await PostgresStore.open(url, searchPath: schema, migrate: false)
                    defer { store.close() }
                    return try await PostgresSchema.migrate(store.database).count
                }
            }
            var applied: [Int] = []
            for try await count in group { applied.append(count) }
            return applied
        }
        #expect(opened.count == 8)
        #expect(opened.reduce(0, +) == PostgresSchema.migrations.count, "exactly one process applies each migration")
        let versions = try await PostgresTestServer.withAdminClient { client, logger in
            var versions: [Int] = []
            for try await version in try await client.query(
                PostgresQuery(unsafeSQL: "SELECT version FROM \(schema).schema_migrations ORDER BY version"), logger: logger
            ).decode(Int.self) {
                versions.append(version)
            }
            return versions
        }
        #expect(versions == [0] + PostgresSchema.migrations.map(\.version))
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let schema = try await PostgresTestServer.makeSchema()
        let url = try PostgresTestServer.connectionURL()
        let store = try await PostgresStore.open(url, searchPath: schema)
        defer { store.close() }
        let newer = PostgresSchema.version + 1
        try await store.execute("INSERT INTO schema_migrations (version, name) VALUES (\(newer), 'from the future')")
        await #expect(throws: ShopError.self) {
            let again = try await PostgresStore.open(url, searchPath: schema)
            again.close()
        }
    }

    @Test func aWrongDatabaseIsOneLine() async throws {
        var url = try PostgresTestServer.connectionURL()
        url.database = "no_such_database_\(UInt32.random(in: 0...UInt32.max))"
        do {
            let store = try await PostgresStore.open(url)
            store.close()
            Issue.record("opened a database that does not exist")
        } catch {
            #expect(error.message.contains("does not exist"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func nothingListens() async throws {
        // Port 1: nothing listens there. Opening fails in one line instead of retrying forever.
        // (No wall-clock bound: under the full parallel suite on 2 cores it measures the scheduler.)
        var url = try PostgresTestServer.connectionURL()
        url.hosts = [PostgresConnectionString.Host(name: "127.0.0.1", port: 1)]
        do {
            let store = try await PostgresStore.open(url)
            store.close()
            Issue.record("connected to a port nothing listens on")
        } catch {
            #expect(error.message.contains("cannot reach"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}
