// PostgresBulkAuditTests: an UPDATE of products is audited by one set-based statement (migration
// 27) that writes exactly the rows the per-row audit function writes for the same change, and
// asks the audit row's role once per statement.

import Foundation
import Testing
import TestSupport

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresBulkAuditTests {
    /// 40 products at psql with every kind of value an audited field shows: no brand, empty and
    /// listed tags, a barcode or none, hundredths.
    static let products = """
        INSERT INTO products (id, sku, title, category, brand, price_minor, discount_hundredths, stock,
                              rating_hundredths, tags, barcode, details)
        SELECT n, 'P-' || n, 'Product ' || n, CASE WHEN n % 2 = 0 THEN 'kitchen' ELSE 'garden' END,
               CASE WHEN n % 3 = 0 THEN NULL ELSE 'Brand ' || n END, 1000 + n, n % 5 * 100, 10 * n, n * 7 % 500,
               CASE WHEN n % 4 = 0 THEN '' ELSE 'a,b' END, CASE WHEN n % 5 = 0 THEN lpad(n::text, 13, '0') END, '{}'
        FROM generate_series(1, 40) n
        """

    /// One statement at psql changing products in every audited way (and one id, and every
    /// row's `updated_at`): its audit rows equal, in order, what `shopsh_audit_row` (the per-row
    /// audit every other table goes through) gives for each product's images before and after.
    @Test func anUpdateOfProductsIsAuditedAsThePerRowAuditWould() async throws {
        let (server, schema) = try await PostgresOperationMarkTests.store()
        let (actual, expected, roles) = try Self.auditedAndExpected(server, schema, table: "products", setup: [Self.products], """
            UPDATE products SET
                id = CASE WHEN id = 40 THEN 400 ELSE id END,
                price_minor = CASE WHEN id % 2 = 0 THEN price_minor + 1 ELSE price_minor END,
                brand = CASE WHEN id % 7 = 0 THEN NULL WHEN id % 9 = 0 THEN 'New' ELSE brand END,
                tags = CASE WHEN id = 1 THEN 'a,,b' WHEN id = 3 THEN 'b,a' WHEN id = 5 THEN 'c' ELSE tags END,
                barcode = CASE WHEN id = 11 THEN '4006381333931' WHEN id = 10 THEN NULL ELSE barcode END,
                details = CASE WHEN id = 13 THEN '{"weight": 2}' ELSE details END,
                discount_hundredths = CASE WHEN id = 15 THEN 1250 ELSE discount_hundredths END,
                rating_hundredths = CASE WHEN id = 17 THEN 5 ELSE rating_hundredths END,
                stock = CASE WHEN id = 19 THEN 0 ELSE stock END,
                title = CASE WHEN id = 21 THEN 'Renamed' ELSE title END,
                description = CASE WHEN id = 23 THEN 'Now described' ELSE description END,
                updated_at = now() + interval '1 minute'
            """)
        #expect(roles == Array(repeating: "admin", count: actual.count), "the role asked once, for every row")
        #expect(actual == expected)
        // The per-row audit's rows themselves, checked where a rule decides them.
        // 19 even ids' prices, 13 odd ids changed another way, product 40 removed and 400 added.
        #expect(expected.count == 34)
        #expect(!expected.contains { $0.hasPrefix("product|1|") }, "same tags listed the same way: no change")
        #expect(expected.contains("product|3|update|{\"tags\": [\"a\", \"b\"]}|{\"tags\": [\"b\", \"a\"]}"))
        #expect(expected.contains("product|2|update|{\"price\": \"10.02 USD\"}|{\"price\": \"10.03 USD\"}"))
        #expect(expected.contains("product|14|update|{\"brand\": \"Brand 14\", \"price\": \"10.14 USD\"}|{\"brand\": null, \"price\": \"10.15 USD\"}"))
        #expect(expected.contains("product|15|update|{\"discount\": \"0.00\"}|{\"discount\": \"12.50\"}"))
        #expect(expected.contains { $0.hasPrefix("product|40|delete|") } && expected.contains { $0.hasPrefix("product|400|add|") })
    }

    /// `update` at psql, an UPDATE of `table` (keyed by id) after `setup`: the audit rows it
    /// writes and their roles, and what `shopsh_audit_row` gives for each row's images before and
    /// after, paired by id.
    static func auditedAndExpected(_ server: String, _ schema: String, table: String, setup: [String],
                                   _ update: String) throws -> (actual: [String], expected: [String], roles: [String]) {
        let row = "a.entity || '|' || a.entity_id || '|' || a.action || '|' || COALESCE(a.before::text, '-') || '|' || COALESCE(a.after::text, '-')"
        let lines = try PostgresReceiptTests.psql(server, schema: schema, setup + [
            "CREATE TEMP TABLE before_images AS SELECT t.id, to_jsonb(t) AS image FROM \(table) t",
            "CREATE TEMP TABLE last_audit AS SELECT COALESCE(max(id), 0) AS id FROM audit_log",
            update,
            "CREATE TEMP TABLE after_images AS SELECT t.id, to_jsonb(t) AS image FROM \(table) t",
            """
            SELECT 'expected=' || \(row)
            FROM before_images o FULL JOIN after_images n ON n.id = o.id
            CROSS JOIN LATERAL shopsh_audit_row('\(table)', NULL, o.image, n.image) a
            ORDER BY a.sort_number, a.sort_text
            """,
            "SELECT 'actual=' || \(row) FROM audit_log a WHERE a.id > (SELECT id FROM last_audit) ORDER BY a.id",
            "SELECT 'role=' || a.role FROM audit_log a WHERE a.id > (SELECT id FROM last_audit) ORDER BY a.id",
        ])
        let values = { (prefix: String) in lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } }
        return (values("actual="), values("expected="), values("role="))
    }

    /// UPDATEs at psql of users and orders (tables keyed by id, paired by id before their images
    /// are compared): the audit rows equal, in order, the per-row audit's for the same images —
    /// a password shown as changed, a phone cleared, an id moved (a removal and an addition), rows
    /// left alone or given only a new `updated_at` not audited.
    @Test func anUpdateOfATableKeyedByIDIsAuditedAsThePerRowAuditWould() async throws {
        let (server, schema) = try await PostgresOperationMarkTests.store()
        let users = try Self.auditedAndExpected(server, schema, table: "users", setup: [
            "INSERT INTO users (id, username, email, phone, password_hash) SELECT n, 'user' || n, 'mail' || n || '@example.com', CASE WHEN n % 2 = 0 THEN '555-' || n END, 'hash' || n FROM generate_series(1, 30) n",
        ], """
            UPDATE users SET id = CASE WHEN id = 30 THEN 300 ELSE id END,
                status = CASE WHEN id % 5 = 0 THEN 'disabled' ELSE status END,
                phone = CASE WHEN id = 4 THEN NULL ELSE phone END,
                password_hash = CASE WHEN id = 7 THEN 'new hash' ELSE password_hash END
            """)
        #expect(users.actual == users.expected && users.roles.allSatisfy { $0 == "admin" })
        #expect(users.expected.count == 9, "users 5, 10…25 disabled, 4's phone, 7's password, 30 moved to 300: \(users.expected)")
        #expect(users.expected.contains("user|7|update|{\"password\": \"***\"}|{\"password\": \"*** (new)\"}"))
        #expect(users.expected.contains("user|4|update|{\"phone\": \"555-4\"}|{\"phone\": null}"))

        let orders = try Self.auditedAndExpected(server, schema, table: "orders", setup: [
            "INSERT INTO orders (id, user_id, customer, currency, total_minor, discounted_total_minor) SELECT n, n, 'user' || n, 'USD', 1000 * n, 1000 * n FROM generate_series(1, 20) n",
        ], "UPDATE orders SET updated_at = updated_at + interval '1 second', status = CASE WHEN id = 3 THEN 'paid' ELSE status END")
        #expect(orders.actual == orders.expected)
        #expect(orders.expected == ["order|3|update|{\"status\": \"placed\"}|{\"status\": \"paid\"}"])
    }

    /// An UPDATE of 40 products' prices calls no per-row audit function and asks the role once
    /// (the server's own count of the transaction's calls); before migration 27 it called
    /// `shopsh_audit_row` and `shopsh_session_role` 40 times each. Every product is audited.
    @Test func anUpdateOfManyProductsCallsNoFunctionPerRow() async throws {
        let (server, schema) = try await PostgresOperationMarkTests.store()
        let lines = try PostgresReceiptTests.psql(server, schema: schema, [
            Self.products, "SET track_functions = 'all'", "BEGIN",
            "UPDATE products SET price_minor = price_minor + 100",
            """
            SELECT 'called=' || p.proname || ' ' || f.calls
            FROM pg_stat_xact_user_functions f JOIN pg_proc p ON p.oid = f.funcid
            """,
            "COMMIT",
            "SELECT 'audited=' || count(*) FROM audit_log WHERE entity = 'product' AND after ? 'price' AND NOT before ? 'stock'",
        ])
        let calls = Dictionary(lines.filter { $0.hasPrefix("called=") }.compactMap { line -> (String, Int)? in
            let parts = line.dropFirst("called=".count).split(separator: " ")
            guard parts.count == 2, let count = Int(parts[1]) else { return nil }
            return (String(parts[0]), count)
        }, uniquingKeysWith: +)
        #expect(calls["shopsh_audit_row"] == nil, "called: \(calls)")
        #expect(calls["shopsh_session_role"] == 1, "called: \(calls)")
        #expect(calls["shopsh_audit_statement"] == 1, "called: \(calls)")
        #expect(lines.contains("audited=40"))
    }
}
