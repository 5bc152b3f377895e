// PostgresReceiptTests: keeping a command's receipt clears receipts older than a day and reads
// none of the newer ones (migration 23) — a busy day's receipts must not slow every change.

import Foundation
import ShopStoreKit
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresReceiptTests {
    /// One psql session running `statements` in turn (each its own transaction); its output lines.
    static func psql(_ url: String, schema: String, _ statements: [String]) throws -> [String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PGOPTIONS"] = "-c search_path=\(schema)"
        let output = try CommandLineClient.run(["psql", url, "-AtqX", "-v", "ON_ERROR_STOP=1"] + statements.flatMap { ["-c", $0] },
                                               environment: environment)
        return output.split(separator: "\n").map(String.init)
    }

    /// 5,000 receipts of the last hour and 3 of two days ago; one more kept: the old ones are
    /// gone, the new ones stay, and the index on `kept_at` gave up only the old ones (the server's
    /// own count of index entries read). Before migration 23 the clearing walked all 5,003.
    @Test func keepingAReceiptClearsOldOnesWithoutReadingTheNewOnes() async throws {
        let url = try PostgresTestServer.connectionURL()
        let schema = try await PostgresTestServer.makeSchema()
        let store = try await PostgresStore.open(url, searchPath: schema)
        store.close()
        let server = try #require(PostgresTestServer.url)
        // Statistics reach the shared counters when the session is idle after a forced flush.
        let flush = "SELECT pg_stat_force_next_flush()"
        let reads = { (label: String) in
            "SELECT '\(label)=' || idx_tup_read FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND indexrelname = 'command_receipts_kept_at'"
        }
        let lines = try Self.psql(server, schema: schema, [
            "INSERT INTO command_receipts (command_id, step, kept_at) SELECT gen_random_uuid(), 1, clock_timestamp() - interval '1 hour' FROM generate_series(1, 5000)",
            "INSERT INTO command_receipts (command_id, step, kept_at) SELECT gen_random_uuid(), 1, clock_timestamp() - interval '2 days' FROM generate_series(1, 3)",
            flush, "SELECT 1", reads("before"),
            "SELECT 'kept=' || shopsh_keep_receipt(gen_random_uuid(), 1)",
            flush, "SELECT 1", reads("after"),
            "SELECT 'old=' || count(*) FILTER (WHERE kept_at < clock_timestamp() - interval '1 day') || ' all=' || count(*) FROM command_receipts",
        ])
        func value(_ label: String) -> Int? {
            lines.first { $0.hasPrefix(label + "=") }.flatMap { Int($0.dropFirst(label.count + 1)) }
        }
        #expect(lines.contains("kept=true"))
        #expect(lines.contains("old=0 all=5001"), "the three old receipts cleared, the new one kept: \(lines)")
        let before = try #require(value("before")), after = try #require(value("after"))
        #expect(after - before <= 10, "index entries read to clear 3 old receipts among 5,000 new ones: \(after - before)")
    }
}
