// StockHistoryTests: the stock ledger through the built binary (issue 34) — `products
// stock-history` lists a checkout, a cancel, a restocking return, an operator's stock change with
// its reason and note, a bulk change and a change made behind shopsh's back, each with its reason,
// order and balance; --on gives a day's closing stock; it fits 80 columns. At psql no login writes
// the ledger and a client cannot name the server's own reasons. On SQLite, and on PostgreSQL in the
// second pass.

import CSV
import Foundation
import Testing
import TestSupport

@Suite struct StockHistoryTests {
    /// The ledger of `product` as `products stock-history -o json` gives it.
    static func history(_ sandbox: ShopshSandbox, _ product: Int, _ options: String = "") async throws -> [[String: Any]] {
        try await #require(try sandbox.json("products stock-history \(product) \(options) -o json") as? [[String: Any]])
    }

    /// A new product with `stock` units, and its id.
    static func newProduct(_ sandbox: ShopshSandbox, stock: Int) async throws -> Int {
        let added = try await #require(try sandbox.json("products add --title 'Ledger lamp' --price 12.50 --category lighting --stock \(stock) -o json")
                                 as? [String: Any])
        return try #require(added["id"] as? Int)
    }

    /// Checks out `quantity` of `product` for emilys (her basket emptied first); returns the order's id.
    static func checkout(_ sandbox: ShopshSandbox, _ product: Int, quantity: Int) async throws -> Int {
        _ = try await sandbox.ok("basket clear emilys")
        _ = try await sandbox.ok("basket add emilys \(product) --qty \(quantity)")
        let order = try await #require(try sandbox.json("basket checkout emilys -o json") as? [String: Any])
        return try #require(order["id"] as? Int)
    }

    @Test func eachWayStockMovesIsListedWithItsReasonOrderAndBalance() async throws {
        let sandbox = try await ShopshSandbox()
        let product = try await Self.newProduct(sandbox, stock: 20)
        let cancelled = try await Self.checkout(sandbox, product, quantity: 3)
        _ = try await sandbox.ok("orders cancel \(cancelled) --yes")
        let kept = try await Self.checkout(sandbox, product, quantity: 4)
        _ = try await sandbox.ok("orders status \(kept) paid")
        _ = try await sandbox.ok("orders return \(kept) \(product) --qty 1 --restock --reason 'unopened' --yes")
        _ = try await sandbox.ok("products stock \(product) -2 --reason damaged --note 'dropped a box'")
        _ = try await sandbox.ok("products stock +10 --ids \(product) --reason supplier --note 'PO 7' --yes")
        try await sandbox.writeBehindShopsh(sqlite: "UPDATE products SET stock = stock + 5 WHERE id = \(product)")

        let rows = try await Self.history(sandbox, product)
        #expect(rows.map { $0["reason"] as? String } == ["opening", "checkout", "cancel", "checkout", "return", "damaged", "supplier", "outside"],
                "\(rows)")
        #expect(rows.map { $0["change"] as? Int } == [20, -3, 3, -4, 1, -2, 10, 5])
        #expect(rows.map { $0["balance"] as? Int } == [20, 17, 20, 16, 17, 15, 25, 30])
        #expect(rows.map { $0["order_id"] as? Int } == [nil, cancelled, cancelled, kept, kept, nil, nil, nil])
        #expect(rows.map { $0["note"] as? String } == [nil, nil, nil, nil, "unopened", "dropped a box", "PO 7", nil])
        let shown = try await #require(try sandbox.json("products show \(product) -o json") as? [String: Any])
        #expect(shown["stock"] as? Int == 30)
        #expect(rows.allSatisfy { ($0["operator"] as? String)?.isEmpty == false && ($0["at"] as? String)?.hasSuffix("Z") == true })

        // Every format carries the same rows: csv read with a real parser.
        let csv = try await sandbox.run(["-c", "products stock-history \(product) -o csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let reader = try CSVReader(string: csv.stdout, hasHeaderRow: true)
        let reasonColumn = try #require(reader.headerRow?.firstIndex(of: "reason"))
        var reasons: [String] = []
        while let row = reader.next() { reasons.append(row[reasonColumn]) }
        #expect(reasons == rows.map { $0["reason"] as? String ?? "" }, "\(csv.stdout)")
        // --since/--until pick days; --on gives the stock at the end of a day.
        await #expect(try Self.history(sandbox, product, "--since today").count == rows.count)
        await #expect(try Self.history(sandbox, product, "--until yesterday").isEmpty)
        let today = try await #require(try sandbox.json("products stock-history \(product) --on today -o json") as? [String: Any])
        #expect(today["stock"] as? Int == 30 && today["product_id"] as? Int == product)
    }

    @Test func theDemosLedgerEndsAtEachProductsStock() async throws {
        let sandbox = try await ShopshSandbox()
        let products = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        #expect(products.count >= 194)
        var reasons: Set<String> = []
        for product in products {
            let id = try #require(product["id"] as? Int)
            let rows = try await Self.history(sandbox, id)
            #expect(rows.first?["reason"] as? String == "opening" && rows.first?["operator"] as? String == "demo", "\(id): \(rows)")
            #expect(rows.last?["balance"] as? Int == product["stock"] as? Int, "\(id)")
            for (before, after) in zip(rows, rows.dropFirst()) {
                #expect((before["balance"] as? Int ?? 0) + (after["change"] as? Int ?? 0) == after["balance"] as? Int, "\(id): \(after)")
            }
            reasons.formUnion(rows.compactMap { $0["reason"] as? String })
        }
        // The demo's history shows what a ledger holds: restocking returns besides the opening rows.
        #expect(reasons == ["opening", "return"])
    }

    @Test func badDaysAndNotesAreOneLineThatNamesTheOption() async throws {
        let sandbox = try await ShopshSandbox()
        for (line, option) in [("products stock-history 1 --on tomorrowish", "--on"), ("products stock-history 1 --since 2026-13-01", "--since"),
                               ("products stock-history 1 --on today --since 7d", "--on"),
                               ("products stock 1 +1 --note '  '", "--note"), ("products stock 1 +1 --reason stolen", "--reason")] {
            let result = try await sandbox.run(["-c", line])
            #expect(result.status != 0 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(option), "\(line): \(result.stderr)")
        }
        let unknown = try await sandbox.run(["-c", "products stock-history 99999"])
        #expect(unknown.status == 1 && unknown.stderr.contains("99999"), "\(unknown.stderr)")
        await #expect(try Self.history(sandbox, 1).count == 1)   // nothing moved
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func theHistoryFitsEightyColumns() async throws {
        let sandbox = try await ShopshSandbox()
        let product = try await Self.newProduct(sandbox, stock: 20)
        let order = try await Self.checkout(sandbox, product, quantity: 2)
        _ = try await sandbox.ok("orders cancel \(order) --yes")
        _ = try await sandbox.ok("products stock \(product) -1 --reason damaged --note 'a long note about a pallet that fell off a forklift in aisle seven'")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 80)
        try await terminal.send("products stock-history \(product)", "Enter")
        let screen = try await terminal.waitFor { $0.contains("damaged") && terminal.promptIsBack($0) }
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(screen)")
        #expect(screen.contains("checkout") && screen.contains("cancel") && screen.contains("opening"), "\(screen)")
    }
}

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct StockLedgerServerRulesTests {
    @Test func atPsqlNoLoginWritesTheLedgerAndAClientNamesOnlyItsOwnReasons() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let (admin, asSupport) = (shop.admin, shop.asSupport)
        let manager = try await TeamRolesTests.login(admin, in: "shopsh_admin")
        defer { _ = try? ShopshSandbox.psqlNow(admin, "DROP ROLE IF EXISTS \(manager)") }
        let asManager = try await TeamRolesTests.url(admin, as: manager)
        let rows = try await ShopshSandbox.psql(admin, "SELECT count(*) FROM stock_ledger")
        for url in [asSupport, asManager] {
            for sql in ["INSERT INTO stock_ledger (product_id, change, balance, reason) VALUES (1, 5, 5, 'supplier')",
                        "UPDATE stock_ledger SET change = 0 WHERE product_id = 1",
                        "DELETE FROM stock_ledger WHERE product_id = 1",
                        "SELECT shopsh_set_stock_context('checkout', NULL, NULL, NULL)",
                        "SELECT count(*) FROM stock_context"] {
                try await TeamRolesTests.denied(url, sql)
            }
        }
        // Support changes no stock by hand; an admin names only an operator's or a bulk change's reasons.
        try await TeamRolesTests.denied(asSupport, "SELECT shopsh_name_stock_change('damaged', NULL)")
        for reason in ["checkout", "cancel", "return", "opening", "outside"] {
            let named = try CommandLineClient.outcome(["psql", asManager, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                       "BEGIN; SELECT shopsh_name_stock_change('\(reason)', NULL); UPDATE products SET stock = stock + 1 WHERE id = 1; COMMIT"])
            #expect(named.status != 0 && named.errors.contains("a stock change names one of"), "\(reason): \(named)")
        }
        // The note follows the rule of a refund's reason there too: no control character, at most 500.
        for note in ["E'a\\033[2Jb'", "repeat('x', 501)", "''"] {
            let named = try CommandLineClient.outcome(["psql", asManager, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c",
                                                       "BEGIN; SELECT shopsh_name_stock_change('damaged', \(note)); UPDATE products SET stock = stock + 1 WHERE id = 1; COMMIT"])
            #expect(named.status != 0 && named.errors.contains("note is 1 to 500 characters"), "\(note): \(named)")
        }
        await #expect(try ShopshSandbox.psql(admin, "SELECT count(*) FROM stock_ledger") == rows)

        // A change at psql is in the ledger, named by the server: who made it and `outside`.
        _ = try await ShopshSandbox.psql(asManager, "UPDATE products SET stock = stock + 7 WHERE id = 2")
        let row = try await ShopshSandbox.psql(admin, """
            SELECT operator || '|' || change || '|' || reason || '|' || (balance = (SELECT stock FROM products WHERE id = 2))
            FROM stock_ledger WHERE product_id = 2 ORDER BY id DESC LIMIT 1
            """)
        #expect(row == "\(manager)|7|outside|true", "\(row)")
        // A support login's return through shopsh is theirs, with its order and reason.
        let order = try await ShopshSandbox.psql(admin, "SELECT min(id) FROM orders WHERE status = 'delivered'")
        let line = try await ShopshSandbox.psql(admin, "SELECT product_id FROM order_lines WHERE order_id = \(order) ORDER BY line_number LIMIT 1")
        let returned = try await shop.sandbox.run(["--store", asSupport, "-c", "orders return \(order) \(line) --qty 1 --restock --reason cracked --yes"])
        #expect(returned.status == 0, "\(returned.stderr)")
        let last = try await ShopshSandbox.psql(admin, """
            SELECT operator || '|' || change || '|' || reason || '|' || order_id || '|' || note FROM stock_ledger
            WHERE product_id = \(line) ORDER BY id DESC LIMIT 1
            """)
        #expect(last == "\(shop.support)|1|return|\(order)|cracked", "\(last)")
        // Every product of the demo: its last row's balance is its stock.
        await #expect(try ShopshSandbox.psql(admin, """
            SELECT count(*) FROM products p
            WHERE p.stock IS DISTINCT FROM (SELECT l.balance FROM stock_ledger l WHERE l.product_id = p.id ORDER BY l.id DESC LIMIT 1)
            """) == "0")
    }
}
