// DemoShopTests: a fresh HOME gets the demo shop on first run, and its data reads back exactly.

import CSV
import Foundation
import Testing

@Suite struct DemoShopTests {
    @Test(.aboutTheSQLiteFile) func firstRunCreatesTheDemoShopInXDGDataHome() async throws {
        let sandbox = try await ShopshSandbox()
        let products = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        #expect(products.count == 194)
        #expect(FileManager.default.fileExists(atPath: sandbox.storePath))

        // The file is a normal SQLite database that the sqlite3 CLI reads.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", sandbox.storePath, "select count(*) from products; select count(*) from users;"]
        let pipe = Pipe()
        sqlite.standardOutput = pipe
        try sqlite.run()
        let counts = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sqlite.waitUntilExit()
        #expect(counts.split(separator: "\n") == ["194", "208"])
    }

    @Test func categoriesHaveSlugsAndCounts() async throws {
        let sandbox = try await ShopshSandbox()
        let categories = try await #require(try sandbox.json("products categories -o json") as? [[String: Any]])
        #expect(categories.count == 24)
        let total = categories.compactMap { $0["product_count"] as? Int }.reduce(0, +)
        #expect(total == 194)
        #expect(categories.contains { $0["category"] as? String == "kitchen-accessories" })
    }

    @Test func showMatchesTheShippedDummyJSONRecordExactly() async throws {
        let sandbox = try await ShopshSandbox()
        let shipped = try Data(contentsOf: ShopshBinary.packageRoot.appendingPathComponent("Sources/ShopStoreKit/DemoData/products.json"))
        let first = try #require((try JSONSerialization.jsonObject(with: shipped) as? [[String: Any]])?.first)
        let result = try await sandbox.run(["-c", "products show 1 -o json"])
        let product = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(product["sku"] as? String == first["sku"] as? String)
        #expect(product["title"] as? String == first["title"] as? String)
        // The price is the exact decimal 9.99 in the text, never 9.9900000001.
        #expect(result.stdout.contains(#""price":9.99,"#))
        #expect(product["currency"] as? String == "USD")
        #expect(product["password"] == nil)
    }

    @Test func csvExportParsesWithARealParser() async throws {
        let sandbox = try await ShopshSandbox()
        let text = try await sandbox.ok("products list --all -o csv")
        let reader = try CSVReader(string: text, hasHeaderRow: false)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        #expect(rows.count == 195)
        #expect(rows.first?.first == "id")
        #expect(rows.dropFirst().allSatisfy { $0.count == rows[0].count })
    }

    @Test(.aboutTheSQLiteFile) func passwordsAreStoredOnlyAsSaltedHashes() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let database = try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: sandbox.storePath + "-wal"))) ?? Data()
        // emilys's demo password must not be in the file in plain text.
        #expect(database.range(of: Data("emilyspass".utf8)) == nil)
        #expect(wal.range(of: Data("emilyspass".utf8)) == nil)
        #expect(database.range(of: Data("pbkdf2-sha256$".utf8)) != nil || wal.range(of: Data("pbkdf2-sha256$".utf8)) != nil)
    }

    @Test func initEmptyAndAnExplicitStore() async throws {
        let sandbox = try await ShopshSandbox()
        let path = sandbox.root.appendingPathComponent("other.sqlite").path
        let missing = try await sandbox.run(["--store", path, "-c", "products list"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("shopsh init"))

        await #expect(try sandbox.run(["init", "--empty", "--store", path]).status == 0)
        let empty = try await sandbox.run(["--store", path, "-c", "products list -o json"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "[]\n")
        // An empty shop still knows the ISO 4217 currencies (as the shipped list has them), so rates import.
        let codes = try await #require(try JSONSerialization.jsonObject(with: try sandbox.run(["--store", path, "-c", "currency codes -o json"]).stdoutData) as? [[String: Any]])
        #expect(codes.contains { $0["code"] as? String == "JPY" && $0["minor_units"] as? Int == 0 })
        let rates = ShopshBinary.packageRoot.appendingPathComponent("Sources/ShopStoreKit/DemoData/eurofxref.csv").path
        await #expect(try sandbox.run(["--store", path, "-c", "currency import \(rates)"]).status == 0)
        await #expect(try sandbox.run(["init", "--store", path]).status == 1)   // already there: refused

        sandbox.environment["SHOPSH_STORE"] = path
        await #expect(try sandbox.ok("products list -o csv") == "id,sku,title,category,brand,price,currency,discount_percentage,stock,rating,"
                + "barcode,availability,weight,width,height,depth,warranty,shipping,return_policy,images\r\n")
    }

    /// `--store` before the mode, as psql takes its connection first: `shopsh --store FILE init`
    /// once said there was no store at FILE.
    @Test func storeBeforeTheMode() async throws {
        let sandbox = try await ShopshSandbox()
        let path = sandbox.root.appendingPathComponent("first.sqlite").path
        let made = try await sandbox.run(["--store", path, "init", "--empty"])
        #expect(made.status == 0 && made.stderr.contains(path), "\(made)")
        await #expect(try sandbox.run(["--store", path, "-c", "products list -o json"]).stdout == "[]\n")
        let again = try await sandbox.run(["--store=\(path)", "init"])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again)")
        // A command word after --store is still the shell's.
        await #expect(try sandbox.run(["--store", path, "products", "list", "-o", "json"]).stdout == "[]\n")
    }
}
