// PostgresCancelTests: Ctrl-C cancels only shopsh's own queries. The cancel names a server process
// by number, and process numbers are reused, so a cancel must never stop a session of another
// database (CI once saw a batch in another database stop with "interrupted" although nobody had
// pressed Ctrl-C). A query in the store's own database is cancelled.

import Foundation
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresCancelTests {
    /// Runs `pg_sleep(seconds)` with psql on `url` in the background; returns the running psql
    /// and the server process it runs on, once the server shows it sleeping.
    static func sleeper(_ url: String, seconds: Int, tag: String) throws -> (process: Process, pid: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", "SELECT pg_sleep(\(seconds)) /* \(tag) */"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            let found = try CommandLineClient.psql(url, schema: nil, "SELECT pid FROM pg_stat_activity WHERE query LIKE '%/* \(tag) */' AND pid <> pg_backend_pid()")
            if let pid = Int32(found) { return (process, pid) }
            usleep(20_000)
        }
        process.terminate()
        throw CancelTestError(description: "psql's sleep never showed in pg_stat_activity")
    }

    struct CancelTestError: Error, CustomStringConvertible { var description: String }

    @Test func aCancelStopsAQueryOfThisDatabaseAndNeverOneOfAnother() async throws {
        let url = try #require(PostgresTestServer.url)
        let other = "cancel_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try CommandLineClient.psql(url, schema: nil, "CREATE DATABASE \(other)")
        defer { _ = try? CommandLineClient.psql(url, schema: nil, "DROP DATABASE IF EXISTS \(other) WITH (FORCE)") }
        let otherURL = String(url[..<(url.lastIndex(of: "/") ?? url.endIndex)]) + "/" + other
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: try await PostgresTestServer.makeSchema())

        // Another database's query goes on: asked to cancel it, the store does nothing.
        let elsewhere = try Self.sleeper(otherURL, seconds: 2, tag: "elsewhere-\(other)")
        await store.database.connections.cancel(backendPID: elsewhere.pid)
        elsewhere.process.waitUntilExit()
        #expect(elsewhere.process.terminationStatus == 0, "a query of another database was cancelled")

        // This database's query is cancelled (psql then fails).
        let here = try Self.sleeper(url, seconds: 30, tag: "here-\(other)")
        let started = Date()
        await store.database.connections.cancel(backendPID: here.pid)
        here.process.waitUntilExit()
        #expect(here.process.terminationStatus != 0 && Date().timeIntervalSince(started) < 25, "the query of this database ran on")
    }
}
