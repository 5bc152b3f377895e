// PostgresCachedPlanTests: the functions a command's statements call keep their plans for the
// session (migration 26) — none is a SQL function the server runs (rather than inlines), which it
// parses and plans at every call — and the basket recount gives the same summaries whether it used its kept plan (a
// few baskets) or planned for its array (many).

import Foundation
import PostgresShopSchema
import ShopStoreKit
import Testing
import TestSupport
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresCachedPlanTests {
    /// `users` customers, two products, and each customer's basket holding product 1 (at psql).
    static func shop(users: Int) async throws -> (server: String, schema: String) {
        let (server, schema) = try await PostgresOperationMarkTests.store()
        _ = try PostgresReceiptTests.psql(server, schema: schema, [
            "INSERT INTO products (id, sku, title, category, price_minor, stock) VALUES (1, 'P-1', 'Teapot', 'kitchen', 1999, 1000), (2, 'P-2', 'Cup', 'kitchen', 450, 1000)",
            "INSERT INTO users (id, username, email) SELECT n, 'user' || n, 'mail' || n || '@example.com' FROM generate_series(1, \(users)) n",
            "INSERT INTO basket_lines (user_id, product_id, quantity) SELECT n, 1, 1 + n % 3 FROM generate_series(1, \(users)) n",
        ])
        return (server, schema)
    }

    /// The baskets whose summary differs from a count of their lines at today's prices (as text lines).
    static let wrongSummaries = """
        SELECT 'wrong=' || count(*) FROM (
            SELECT b.user_id, count(*) AS lines, sum(b.quantity) AS items, sum(p.price_minor * b.quantity) AS total
            FROM basket_lines b JOIN products p ON p.id = b.product_id GROUP BY b.user_id) r
        FULL JOIN basket_summaries s ON s.user_id = r.user_id
        WHERE (s.lines, s.items, s.total) IS DISTINCT FROM (r.lines, r.items, r.total)
        """

    /// Commands as an `--atomic` run sends them (a savepoint each, named first) adding, changing and
    /// removing basket lines and moving a price: every function they call that the server runs
    /// rather than inlines (its own list of the transaction's calls) is PL/pgSQL, which keeps its
    /// plans for the session. A SQL function is planned again at each call, or at each command
    /// under savepoints; before migration 26 the recount, the audit's role and fields, the namings,
    /// the readers and `shopsh_seeding` were.
    @Test func aCommandsStatementsCallNoFunctionPlannedAtEachCall() async throws {
        let (server, schema) = try await Self.shop(users: 2)
        let command = { (text: String, action: String, statement: String) in
            ["SAVEPOINT shopsh_command", "SELECT shopsh_name_command('\(text)', '\(action)')", statement, "RELEASE SAVEPOINT shopsh_command"]
        }
        let lines = try PostgresReceiptTests.psql(server, schema: schema, ["SET track_functions = 'all'", "BEGIN"]
            + command("basket add 1 2 --qty 2", "add", "INSERT INTO basket_lines (user_id, product_id, quantity) VALUES (1, 2, 2)")
            + command("basket set 2 1 5", "set", "UPDATE basket_lines SET quantity = 5 WHERE user_id = 2")
            + command("basket remove 1 1", "remove", "DELETE FROM basket_lines WHERE user_id = 1 AND product_id = 1")
            + command("products update 1 --price 20.99", "update", "UPDATE products SET price_minor = 2099 WHERE id = 1")
            + command("products stock 2 +3 --reason supplier", "stock",
                      "SELECT shopsh_set_stock_context('supplier', NULL, NULL, now()); UPDATE products SET stock = stock + 3 WHERE id = 2")
            + ["""
               SELECT 'called=' || p.proname || ' ' || l.lanname
               FROM pg_stat_xact_user_functions f JOIN pg_proc p ON p.oid = f.funcid JOIN pg_language l ON l.oid = p.prolang
               """,
               "COMMIT", Self.wrongSummaries,
               "SELECT 'audited=' || count(*) FROM audit_log WHERE command LIKE 'basket %' OR command LIKE 'products %'"])
        let called = lines.filter { $0.hasPrefix("called=") }.map { $0.dropFirst("called=".count).split(separator: " ").map(String.init) }
        let names = Set(called.compactMap(\.first))
        #expect(names.isSuperset(of: ["shopsh_recount_baskets", "shopsh_session_role", "shopsh_audit_fields", "shopsh_name_command",
                                      "shopsh_set_stock_context", "shopsh_last_command", "shopsh_last_operation_mark", "shopsh_seeding"]),
                "\(names.sorted())")
        let plannedAtEachCall = called.filter { $0.count == 2 && $0[1] == "sql" }.map(\.[0])
        #expect(plannedAtEachCall.isEmpty, "SQL functions run at each call by a command's statements: \(plannedAtEachCall.sorted())")
        #expect(lines.contains("wrong=0"), "\(lines)")
        #expect(lines.contains("audited=5"), "\(lines)")
    }

    /// A price moved for 150 baskets (more than the recount keeps a plan for) and for 3, in one
    /// transaction with a kept plan already made: every summary equals a count of its lines.
    @Test func aRecountOfManyBasketsAndOfAFewGiveTheSameSummariesAsTheirLines() async throws {
        let many = PostgresCachedPlanSchema.keptPlanBaskets + 50
        let (server, schema) = try await Self.shop(users: many)
        let lines = try PostgresReceiptTests.psql(server, schema: schema, [
            "BEGIN",
            "INSERT INTO basket_lines (user_id, product_id, quantity) VALUES (1, 2, 4), (2, 2, 1), (3, 2, 7)",
            "UPDATE products SET price_minor = 2500 WHERE id = 1",
            "UPDATE products SET price_minor = 475, discount_hundredths = 1250 WHERE id = 2",
            "DELETE FROM basket_lines WHERE user_id BETWEEN 10 AND 19",
            "COMMIT",
            Self.wrongSummaries,
            "SELECT 'baskets=' || count(*) FROM basket_summaries",
            "SELECT 'total=' || total FROM basket_summaries WHERE user_id = 3",
        ])
        #expect(lines.contains("wrong=0"), "\(lines)")
        #expect(lines.contains("baskets=\(many - 10)"), "\(lines)")
        // User 3: 1 + 3 % 3 = 1 teapot at 25.00 and 7 cups at 4.75.
        #expect(lines.contains("total=\(2500 + 7 * 475)"), "\(lines)")
    }
}
