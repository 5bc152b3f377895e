// NoteTests: the team's notes on orders and customers through the built binary (issue 35) —
// support adds, anyone lists, only an admin deletes; the author and time are the store's; the
// text keeps its lines and refuses other control characters; notes show in `orders show` and are
// audited under their order or customer. At psql (PostgreSQL) support cannot delete a note nor
// sign one with another name. On SQLite, and on PostgreSQL in the second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct NoteTests {
    @Test func theTeamLeavesNotesOnOrdersAndCustomers() async throws {
        let sandbox = try await ShopshSandbox()
        let added = try await #require(try sandbox.json("orders note 1 'customer is hard of hearing:' call, do not email -o json") as? [String: Any])
        let noteID = try #require(added["id"] as? Int)
        #expect(added["text"] as? String == "customer is hard of hearing: call, do not email", "\(added)")
        #expect((added["author"] as? String).map { !$0.isEmpty } == true && (added["at"] as? String)?.hasSuffix("Z") == true, "\(added)")
        // A second note, with a line break, from a pipe.
        let multi = try await sandbox.run(["-c", "orders note 1 --file /dev/stdin -o json"], stdin: "first line\nsecond line\n")
        let multiNote = try #require(try JSONSerialization.jsonObject(with: multi.stdoutData) as? [String: Any], "\(multi.stderr)")
        #expect(multiNote["text"] as? String == "first line\nsecond line")

        // Listed oldest first, and in orders show's json beside the lines.
        let listed = try await #require(try sandbox.json("orders note 1 -o json") as? [[String: Any]])
        #expect(listed.map { $0["id"] as? Int } == [noteID, multiNote["id"] as? Int])
        let order = try await #require(try sandbox.json("orders show 1 -o json") as? [String: Any])
        let shown = try #require(order["notes"] as? [[String: Any]])
        #expect(shown.map { $0["text"] as? String } == listed.map { $0["text"] as? String })

        // On a customer too; csv through a real parser.
        _ = try await sandbox.ok("users note emilys prefers morning deliveries")
        let csv = try await sandbox.run(["-c", "users note emilys -o csv"])
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let text = try #require(reader.headerRow?.firstIndex(of: "text"))
        #expect(reader.next()?[text] == "prefers morning deliveries")

        // Bad input: one line, nothing changed.
        let before = try await sandbox.ok("orders note 1 -o json")
        for (line, words) in [("orders note 1 'ring \u{1B}[2J twice'", "control character"),
                              ("orders note 1 '   '", "needs its text"),
                              ("orders note 1 \(String(repeating: "x", count: 2_001))", "too long"),
                              ("orders note 999999 hello", "no order 999999"),
                              ("users note nobody-here hello", "nobody-here"),
                              ("orders note 1 --delete 999999", "has no note 999999"),
                              ("orders note 1 extra --delete \(noteID)", "--delete takes no note text"),
                              ("orders note 1 extra --file /dev/null", "not both"),
                              ("orders note 1 --file /no/such/file", "no such file")] {
            let result = try await sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words),
                    "\(line): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
        }
        await #expect(try sandbox.ok("orders note 1 -o json") == before)

        // The audit log has each change under its order; a delete is audited too.
        _ = try await sandbox.ok("orders note 1 --delete \(noteID)")
        let audit = try await #require(try sandbox.json("audit list --entity order --id 1 -o json") as? [[String: Any]])
        let actions = audit.compactMap { $0["action"] as? String }.filter { $0.hasPrefix("note ") }
        #expect(actions.sorted() == ["note add", "note add", "note delete"], "\(audit)")
        await #expect(try #require(try sandbox.json("orders note 1 -o json") as? [[String: Any]]).count == 1)
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct NoteServerRulesTests {
    @Test func supportAddsNotesAsThemselvesAndOnlyAnAdminDeletes() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let admin = shop.admin
        // Through shopsh: support adds, is refused a delete in one line.
        let added = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "orders note 1 call first -o json"])
        let note = try #require(try JSONSerialization.jsonObject(with: added.stdoutData) as? [String: Any], "\(added.stderr)")
        let id = try #require(note["id"] as? Int)
        #expect(note["author"] as? String == shop.support)
        let refused = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "orders note 1 --delete \(id)"])
        #expect(refused.status == 1 && refused.stderr.contains("needs the admin role"), "\(refused.stderr)")
        // At psql: no delete, no other author, no backdating, no control characters.
        try await TeamRolesTests.denied(shop.asSupport, "DELETE FROM notes WHERE id = \(id)")
        try await TeamRolesTests.denied(shop.asSupport, "INSERT INTO notes (order_id, text, author) VALUES (1, 'x', 'someone else')")
        try await TeamRolesTests.denied(shop.asSupport, "INSERT INTO notes (order_id, text, created_at) VALUES (1, 'x', '2001-01-01')")
        try await TeamRolesTests.denied(shop.asSupport, "UPDATE notes SET text = 'changed' WHERE id = \(id)")
        await #expect(throws: (any Error).self) { try await ShopshSandbox.psql(shop.asSupport, "INSERT INTO notes (order_id, text) VALUES (1, E'bell\\u0007')") }
        // A plain insert at psql is signed by the login and audited by the server.
        _ = try await ShopshSandbox.psql(shop.asSupport, "INSERT INTO notes (user_id, text) VALUES (1, 'from psql')")
        await #expect(try ShopshSandbox.psql(admin, "SELECT author FROM notes WHERE text = 'from psql'") == shop.support)
        await #expect(try ShopshSandbox.psql(admin, """
            SELECT operator || '|' || entity || '|' || entity_id || '|' || action FROM audit_log WHERE action LIKE 'note %' ORDER BY id DESC LIMIT 1
            """) == "\(shop.support)|user|1|note add")
        // An admin deletes.
        let deleted = try await shop.sandbox.run(["--store", admin, "-c", "orders note 1 --delete \(id)"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM notes WHERE id = \(id)") == "0")
    }
}
