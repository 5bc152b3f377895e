// PostgresOperationMarkTests: the server's operations mark themselves in progress, and commands are
// named, a row per mark or naming read newest first (migrations 24 and 25) — a direct change late in a long transaction is audited, and
// asking whether an operation runs reads the last mark, not every operation the transaction ended.

import Foundation
import ShopStoreKit
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresOperationMarkTests {
    /// A new store's schema (every migration applied) and the server's URL.
    static func store() async throws -> (server: String, schema: String) {
        let url = try PostgresTestServer.connectionURL()
        let schema = try await PostgresTestServer.makeSchema()
        let store = try await PostgresStore.open(url, searchPath: schema)
        store.close()
        return (try #require(PostgresTestServer.url), schema)
    }

    /// 500 rate imports (an operation each) in one transaction, then a change at psql in it: the
    /// change is audited as outside shopsh, and the audit trigger's question read a few entries of
    /// `operation_in_progress`'s key (the transaction's own count), where it walked one per ended
    /// operation before migration 25.
    @Test func aChangeAfterManyOperationsInOneTransactionReadsTheLastMark() async throws {
        let (server, schema) = try await Self.store()
        let reads = { (label: String) in
            "SELECT '\(label)=' || pg_stat_get_xact_tuples_returned(to_regclass('operation_in_progress_pkey'))"
        }
        let lines = try PostgresReceiptTests.psql(server, schema: schema, [
            "BEGIN",
            """
            DO $$ BEGIN FOR i IN 1..500 LOOP
                PERFORM shopsh_store_rates(ARRAY['2026-01-01'::date], ARRAY['USD'], ARRAY[1 + i / 1000.0]);
            END LOOP; END $$
            """,
            reads("before"),
            "UPDATE currency_rates SET rate = 2 WHERE code = 'USD'",
            reads("after"),
            "SELECT 'seeding=' || shopsh_seeding()",
            "COMMIT",
            "SELECT 'direct=' || count(*) FROM audit_log WHERE entity = 'currency' AND action <> 'import' AND command LIKE '(outside shopsh%'",
            "SELECT 'imports=' || count(*) FROM audit_log WHERE entity = 'currency' AND action = 'import'",
        ])
        func value(_ label: String) -> Int? {
            lines.first { $0.hasPrefix(label + "=") }.flatMap { Int($0.dropFirst(label.count + 1)) }
        }
        #expect(lines.contains("seeding=false"), "\(lines)")
        #expect(value("direct") == 1 && value("imports") == 500, "\(lines)")
        let before = try #require(value("before")), after = try #require(value("after"))
        #expect(after - before <= 10, "entries of operation_in_progress read by one audited change after 500 operations: \(after - before)")
    }

    /// A session's first audited change plans the audit trigger's queries while `command_names` is
    /// empty; 3,000 commands named later in one transaction, the next audited change still reads
    /// the last naming through the index (no row of the table read by a scan) and records it. A
    /// query written into the PL/pgSQL trigger kept its first plan, a scan of the whole table.
    @Test func theLastCommandIsReadThroughTheIndexHoweverManyCameBefore() async throws {
        let (server, schema) = try await Self.store()
        let scanned = { (label: String) in "SELECT '\(label)=' || pg_stat_get_xact_tuples_returned(to_regclass('command_names'))" }
        let lines = try PostgresReceiptTests.psql(server, schema: schema, [
            // The namings of an ended transaction (a run), as the server's statistics know them.
            "DO $$ BEGIN FOR i IN 1..200 LOOP PERFORM shopsh_name_command('currency rate 0', 'set'); END LOOP; END $$",
            "ANALYZE command_names",
            "BEGIN",
            "SELECT shopsh_store_rates(ARRAY['2026-01-01'::date], ARRAY['USD'], ARRAY[1.5])",
            "UPDATE currency_rates SET rate = 1.6 WHERE code = 'USD'",
            "DO $$ BEGIN FOR i IN 1..3000 LOOP PERFORM shopsh_name_command('currency rate ' || i, 'set'); END LOOP; END $$",
            scanned("before"),
            "UPDATE currency_rates SET rate = 1.7 WHERE code = 'USD'",
            scanned("after"),
            "COMMIT",
            "SELECT 'last=' || command FROM audit_log WHERE entity = 'currency' ORDER BY id DESC LIMIT 1",
        ])
        func value(_ label: String) -> Int? {
            lines.first { $0.hasPrefix(label + "=") }.flatMap { Int($0.dropFirst(label.count + 1)) }
        }
        #expect(lines.contains("last=currency rate 3000"), "\(lines)")
        let before = try #require(value("before")), after = try #require(value("after"))
        #expect(after - before == 0, "rows of command_names read by scans in one audited change: \(after - before)")
    }

    /// Every function of the schema marks through `shopsh_mark_operation` and asks through the last
    /// mark: none writes or asks `operation_in_progress` the old way (a later migration recreating
    /// an operation from an older text would bring it back).
    @Test func everyOperationMarksThroughTheMarkFunction() async throws {
        let (server, schema) = try await Self.store()
        let lines = try PostgresReceiptTests.psql(server, schema: schema, [
            """
            SELECT 'old=' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema() AND p.proname <> 'shopsh_mark_operation'
              AND (p.prosrc LIKE '%INSERT INTO operation_in_progress%' OR p.prosrc LIKE '%DELETE FROM operation_in_progress%'
                   OR p.prosrc LIKE '%EXISTS (SELECT 1 FROM operation_in_progress%')
            """,
            """
            SELECT 'marking=' || string_agg(p.proname, ',' ORDER BY p.proname) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema() AND p.prosrc LIKE '%shopsh_mark_operation(true)%' AND p.prosrc LIKE '%shopsh_mark_operation(false)%'
            """,
        ])
        #expect(!lines.contains { $0.hasPrefix("old=") }, "\(lines)")
        let marking = try #require(lines.first { $0.hasPrefix("marking=") }).dropFirst("marking=".count).split(separator: ",").map(String.init)
        #expect(Set(marking).isSuperset(of: ["shopsh_checkout", "shopsh_checkout_basket", "shopsh_deliver", "shopsh_refund",
                                             "shopsh_return_units", "shopsh_set_order_status", "shopsh_ship", "shopsh_store_rates"]),
                "\(marking)")
    }
}
