// OperatorTests: operators and the audit log through the built binary, on whichever store the
// run uses (SQLite in pass 1, PostgreSQL in pass 2): read-only sessions refuse writes and change
// nothing, every change leaves one audit row saying who did what from what to what, and runs
// that are undone (--dry-run, a failed --atomic) leave none.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct OperatorTests {
    /// The audit rows of the sandbox's shop, newest first.
    func auditRows(_ sandbox: ShopshSandbox, _ filter: String = "") async throws -> [[String: Any]] {
        try await #require(try sandbox.json("audit list --all \(filter) -o json") as? [[String: Any]])
    }

    func basketQuantities(_ sandbox: ShopshSandbox, _ user: String) async throws -> [Int] {
        let lines = try await #require(try sandbox.json("basket show \(user) -o json") as? [String: Any])
        return try #require(lines["lines"] as? [[String: Any]]).compactMap { $0["quantity"] as? Int }
    }

    @Test func aReadOnlySessionRefusesEveryWriteInOneLineAndChangesNothing() async throws {
        let sandbox = try await ShopshSandbox()
        let basket = try await basketQuantities(sandbox, "emilys")
        let audit = try await auditRows(sandbox).count
        let fileBefore = ShopshSandbox.onPostgres ? nil : try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        for command in ["basket add emilys 1", "products stock 1 =5", "users disable emilys", "orders cancel 1"] {
            let result = try await sandbox.run(["--read-only", "-c", command])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("read-only") && lines[0].contains("nothing was changed"), "\(result.stderr)")
        }
        await #expect(try basketQuantities(sandbox, "emilys") == basket)
        await #expect(try auditRows(sandbox).count == audit)
        if let fileBefore {
            #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath)) == fileBefore, "the store file's bytes changed")
        }
        // Reads work, and whoami says why writes do not.
        let read = try await sandbox.run(["--read-only", "-c", "basket show emilys -o json"])
        #expect(read.status == 0, "\(read.stderr)")
        let whoami = try await sandbox.run(["--read-only", "whoami", "-o", "json"])
        let identity = try #require(try JSONSerialization.jsonObject(with: whoami.stdoutData) as? [String: Any])
        #expect(identity["read_only"] as? Bool == true && identity["read_only_reason"] as? String == "--read-only", "\(identity)")
        #expect((identity["operator"] as? String)?.isEmpty == false)
    }

    @Test func aBasketChangeIsAuditedWithOperatorCommandAndQuantities() async throws {
        let sandbox = try await ShopshSandbox()
        let emily = try await #require(try sandbox.json("users show emilys -o json") as? [String: Any])
        let line = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        let quantityBefore = try #require((line["lines"] as? [[String: Any]])?.first { $0["product_id"] as? Int == 113 }?["quantity"] as? Int)
        #expect(quantityBefore == 3, "the demo cart holds 3 of product 113")
        _ = try await sandbox.ok("basket set emilys 113 2")
        let operatorName = try await #require((try sandbox.json("whoami -o json") as? [String: Any])?["operator"] as? String)
        let rows = try await auditRows(sandbox, "--entity basket")
        let row = try #require(rows.first)
        #expect(row["operator"] as? String == operatorName)
        #expect(row["command"] as? String == "basket set emilys 113 2")
        #expect(row["action"] as? String == "set" && row["entity_id"] as? String == "\(emily["id"] ?? "")")
        #expect((row["before"] as? [String: Any])?["quantity"] as? Int == 3, "\(row)")
        #expect((row["after"] as? [String: Any])?["quantity"] as? Int == 2, "\(row)")
        #expect((row["time"] as? String)?.hasSuffix("Z") == true)
        // --id takes a USER, and `audit show` finds the same row.
        let byUser = try await auditRows(sandbox, "--entity basket --id emilys")
        #expect(byUser.first?["id"] as? Int == row["id"] as? Int)
        let shown = try await #require(try sandbox.json("audit show \(row["id"] ?? 0) -o json") as? [String: Any])
        #expect(shown["command"] as? String == "basket set emilys 113 2")
        // A failing command leaves no row.
        let failed = try await sandbox.run(["-c", "basket set emilys 999999 1"])
        #expect(failed.status == 1)
        await #expect(try auditRows(sandbox).count == rows.count)
    }

    @Test func auditListAsCSVParsesWithTheChangedFieldsAsJSON() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products update 1 --title 'New, \"quoted\" title'")
        let result = try await sandbox.run(["-c", "audit list --entity product -o csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try CSVReader(string: result.stdout, hasHeaderRow: true)
        #expect(reader.headerRow == ["id", "time", "operator", "role", "entity", "entity_id", "action", "changes", "command", "before", "after", "change_set"])
        let row = try #require(reader.next())
        #expect(row[6] == "update" && row[5] == "1")
        let after = try #require(try JSONSerialization.jsonObject(with: Data(row[10].utf8)) as? [String: Any])
        #expect(after["title"] as? String == "New, \"quoted\" title")
        #expect(row[8] == "products update 1 --title 'New, \"quoted\" title'")
    }

    @Test func dryRunsAndFailedAtomicRunsLeaveTheAuditLogAsItWas() async throws {
        let sandbox = try await ShopshSandbox()
        let before = try await auditRows(sandbox)
        let writes = try sandbox.file("writes.shop", "basket add emilys 1\nfavorites add emilys 2\nproducts stock 3 =7\n")
        let dry = try await sandbox.run(["--dry-run", "-f", writes])
        #expect(dry.status == 0, "\(dry.stderr)")
        let failing = try sandbox.file("failing.shop", "basket add emilys 1\nproducts stock 3 =7\nbasket add emilys 999999\n")
        let atomic = try await sandbox.run(["--atomic", "-f", failing])
        #expect(atomic.status == 1, "\(atomic.stderr)")
        await #expect(try auditRows(sandbox).map { $0["id"] as? Int } == before.map { $0["id"] as? Int })
        let kept = try await sandbox.run(["--atomic", "-f", writes])
        #expect(kept.status == 0, "\(kept.stderr)")
        await #expect(try auditRows(sandbox).count == before.count + 3)
    }

    @Test(.aboutTheSQLiteFile) func theAuditLogCannotBeAlteredWithSqlite3() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket set emilys 113 2")
        let rows = try await auditRows(sandbox).count
        #expect(rows >= 1)
        for sql in ["DELETE FROM audit_log", "UPDATE audit_log SET operator = 'someone else'"] {
            #expect {
                try CommandLineClient.run(["sqlite3", sandbox.storePath, sql])
            } throws: { error in "\(error)".contains("append-only") }
        }
        await #expect(try auditRows(sandbox).count == rows)
    }
}
