// HardeningTests: issue 9's repros through the real binary: each gives one clear line and exit 1
// (or works), never a trap; errors escape data; pipes, FIFOs and read-only stores behave.

import Foundation
import Testing

@Suite struct HardeningTests {
    /// The error lines of a run (stderr lines, without warnings).
    func errorLines(_ result: ShopshSandbox.Result) -> [Substring] {
        result.stderr.split(separator: "\n").filter { $0.contains("error:") }
    }

    @Test func aClosedStandardErrorCostsTheMessageNotTheProcess() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        // The error line cannot be written (stderr closed): the run still ends with its status, no trap.
        for (arguments, status) in [(["-c", "products show 999999"], 1), (["--no-such-option"], 2),
                                    (["--store", "/nonexistent/folder/shop.sqlite", "-c", "products show 1"], 1)] {
            let closed = try await sandbox.run(arguments, stdinData: Data(), launcher: [
                "sh", "-c", "\"$0\" \"$@\" 2>&-; echo \"status $?\"", ShopshBinary.url.path,
            ])
            #expect(closed.stdout == "status \(status)\n", "\(arguments): \(closed.stdout) \(closed.stderr)")
        }
    }

    @Test func anImportedIdAtTheTopOfTheRangeDoesNotBreakLaterAdds() async throws {
        let sandbox = try await ShopshSandbox()
        let tooBig = try sandbox.file("too-big.json", #"[{"id": 9223372036854775807, "title": "Big", "category": "x", "price": 1, "sku": "BIG-1"}]"#)
        let refused = try await sandbox.run(["-c", "products import \(tooBig)"])
        #expect(refused.status == 1)
        #expect(errorLines(refused).count == 1)
        #expect(refused.stderr.contains("9007199254740991"))

        let top = try sandbox.file("top.json", #"[{"id": 9007199254740991, "title": "Top", "category": "x", "price": 1, "sku": "TOP-1"}]"#)
        _ = try await sandbox.ok("products import \(top)")
        let added = try await #require(try sandbox.json("products add --title Next --price 2 --category x --sku NEXT-1 -o json") as? [String: Any])
        #expect((added["id"] as? NSNumber)?.int64Value == 195)   // the lowest free id: the demo's are 1…194
        let again = try await #require(try sandbox.json("products add --title After --price 2 --category x --sku NEXT-2 -o json") as? [String: Any])
        #expect((again["id"] as? NSNumber)?.int64Value == 196)
    }

    @Test func aPriceRaisedAfterTheBasketWasFilledGivesAnErrorNotATrap() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket set emilys 1 10000")
        _ = try await sandbox.ok("products update 1 --price 1000000000")
        _ = try await sandbox.ok("products update 1 --discount 0")
        for command in ["basket show emilys -o json", "basket total emilys -o json"] {
            let result = try await sandbox.run(["-c", command])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        // 10000 × 1,000,000,000.00 + the demo basket's 13037.88, exactly (read as text: a double would round it).
        await #expect(try sandbox.ok("basket total emilys -o json").contains(#""total":10000000013037.88,"#))
        let checkout = try await sandbox.run(["-c", "basket checkout emilys"])
        #expect(checkout.status == 1)   // 99 in stock
        #expect(errorLines(checkout).count == 1)
    }

    @Test func errorsEscapeTerminalControlsFromData() async throws {
        let sandbox = try await ShopshSandbox()
        let file = try sandbox.file("escapes.json", #"[{"title": "plain", "category": "x", "price": 1, "sku": "ESC-1", "stock": 1}]"#)
        _ = try await sandbox.ok("products import \(file)")
        try await sandbox.storeTitleBehindShopsh(sku: "ESC-1", "multi\nline\u{1B}[2J")   // shopsh's own rules refuse both
        _ = try await sandbox.ok("basket add emilys ESC-1")
        _ = try await sandbox.ok("products stock ESC-1 =0")
        let checkout = try await sandbox.run(["-c", "basket checkout emilys"])
        #expect(checkout.status == 1)
        #expect(checkout.stderr.split(separator: "\n").count == 1)
        #expect(!checkout.stderr.utf8.contains(0x1B))
        #expect(checkout.stderr.contains(#"multi\nline\x1B[2J"#))

        let show = try await sandbox.run(["-c", "products show \"\u{1B}]0;pwned\u{07}\""])
        #expect(show.status == 1)
        #expect(!show.stderr.utf8.contains(0x1B) && !show.stderr.utf8.contains(0x07))
        #expect(show.stderr.contains(#"\x1B]0;pwned\x07"#))
    }

    /// `shopsh … | head -1`: the reader closes the pipe; shopsh ends quietly and exits 0, whichever
    /// listing it was writing (on PostgreSQL a listing's rows reach the output from the store's
    /// own callback: the closed pipe must still be the output's, not a store error).
    @Test(arguments: ["products list --all -o json", "users list --all -o json"])
    func aReaderThatClosesThePipeEndsTheOutputQuietly(big: String) async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")   // the demo shop exists before the timed run
        let process = Process()
        process.executableURL = ShopshBinary.url
        // Enough output to fill the pipe whatever its size.
        process.arguments = Array(repeating: ["-c", big], count: 40).flatMap { $0 } + ["-c", "products show 1"]
        process.environment = sandbox.environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let first = output.fileHandleForReading.readData(ofLength: 10)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(first.count == 10)
        #expect(process.terminationStatus == 0)
        #expect(stderr.isEmpty)
    }

    @Test(.aboutTheSQLiteFile) func theDefaultStoreIsPrivate() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket add emilys 1")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.storePath)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (sandbox.storePath as NSString).deletingLastPathComponent)
        #expect(folder[.posixPermissions] as? Int == 0o700)
    }

    @Test func anotherApplicationsDatabaseIsLeftAlone() async throws {
        let sandbox = try await ShopshSandbox()
        let notes = sandbox.root.appendingPathComponent("notes.db").path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", notes, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi');"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: notes))
        let result = try await sandbox.run(["--store", notes, "-c", "products list"])
        #expect(result.status == 1)
        #expect(result.stderr == "shopsh: error: \(notes) is not a shopsh store: it holds tables of another application (notes); it was left unchanged\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.hasPrefix("notes.db") } == ["notes.db"])
    }

    /// Eight shells started at once on a fresh HOME all see the whole demo shop.
    @Test(.aboutTheSQLiteFile) func concurrentFirstRunsAllSucceed() async throws {
        let sandbox = try await ShopshSandbox()
        let processes = (0..<8).map { _ in
            let process = Process()
            process.executableURL = ShopshBinary.url
            process.arguments = ["-c", "products categories -o tsv --no-header"]
            process.environment = sandbox.environment
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            return process
        }
        for process in processes { try process.run() }
        for process in processes {
            let output = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(String(decoding: output, as: UTF8.self).split(separator: "\n").count == 24)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (sandbox.storePath as NSString).deletingLastPathComponent)
        #expect(leftovers == ["shop.sqlite"])
    }

    /// A store the operator may only read: reads work, a write says why in one line.
    @Test(.aboutTheSQLiteFile) func aStoreTheOperatorMayOnlyReadServesReads() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket add emilys 1")
        let (store, launcher, restore) = try await sandbox.readOnlyCopy()
        defer { restore() }
        func run(_ command: String) async throws -> ShopshSandbox.Result {
            try await sandbox.run(["--store", store, "-c", command], launcher: launcher)
        }
        let read = try await run("products show 1 -o tsv --fields sku --no-header")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == "BEA-ESS-ESS-001\n")
        let write = try await run("basket add emilys 2")
        #expect(write.status == 1)
        #expect(errorLines(write) == ["-c:1: error: basket add changes the shop, and this session is read-only (you may not write \(store) or its folder): nothing was changed"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent) == ["shop.sqlite"])
    }

    @Test func negativeValuesReachValidationAndDashTextIsText() async throws {
        let sandbox = try await ShopshSandbox()
        let quantity = try await sandbox.run(["-c", "basket add emilys 1 --qty -1"])
        #expect(quantity.status == 1)
        #expect(errorLines(quantity) == ["-c:1: error: invalid quantity -1: expected a whole number from 1 to 10000"])
        // Since issue 24 `--price -1` takes 1.00 off; taking more than the price is refused.
        let price = try await sandbox.run(["-c", "products update 1 --price -10"])
        #expect(price.status == 1)
        #expect(price.stderr.contains("price would be -0.01 USD"), "\(price.stderr)")
        let added = try await #require(try sandbox.json("products add --title \"-2+3\" --price 1 --category x -o json") as? [String: Any])
        #expect(added["title"] as? String == "-2+3")
    }

    @Test func commandFilesAndPasswordsComeFromPipes() async throws {
        let sandbox = try await ShopshSandbox()
        let fromStdin = try await sandbox.run(["-f", "/dev/stdin"], stdin: "products show 2 -o tsv --fields id --no-header\n")
        #expect(fromStdin.status == 0 && fromStdin.stdout == "2\n")
        let match = try await sandbox.run(["-c", "users check-password emilys --password-file /dev/stdin"], stdin: "emilyspass\n")
        #expect(match.status == 0 && match.stdout == "match\n")
        let wrong = try await sandbox.run(["-c", "users check-password emilys --password-file /dev/stdin"], stdin: "nope\n")
        #expect(wrong.status == 1)
        #expect(wrong.stdout == "no match\n")
        #expect(wrong.stderr.isEmpty)
    }

    @Test func pipesAndRedirectsReportWhatWentWrong() async throws {
        let sandbox = try await ShopshSandbox()
        let failing = try await sandbox.run(["-c", "products list | false"])
        #expect(failing.status == 1)
        #expect(errorLines(failing) == ["-c:1: error: the command after | exited with status 1"])
        let descriptor = try await sandbox.run(["-c", "products show 1 >&2"])
        #expect(descriptor.status == 2)
        #expect(errorLines(descriptor).count == 1)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("&2").path))
        _ = try await sandbox.ok("products show 1 > out.tsv")
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.root.appendingPathComponent("out.tsv").path)[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    @Test func hugeRequestsGetOurOwnMessages() async throws {
        let sandbox = try await ShopshSandbox()
        let sort = try await sandbox.run(["-c", "products list --sort " + Array(repeating: "id", count: 10_000).joined(separator: ",")])
        #expect(sort.status == 1)
        #expect(errorLines(sort) == ["-c:1: error: too many sort keys (10000): sort by at most 8 fields"])
        let search = try await sandbox.run(["-c", "products list --search " + String(repeating: "%_", count: 25_000)])
        #expect(search.status == 1)
        #expect(errorLines(search) == ["-c:1: error: search text too long (50000 characters): search for at most 200"])
    }
}

extension ShopshSandbox {
    /// A copy of the store that the run may only read (on SQLite: a viewer), and what runs shopsh
    /// on it: as root (CI) the run drops to the `nobody` user, since permissions do not bind root.
    /// `restore` gives the copy's folder back its permissions (call it when done).
    func readOnlyCopy() async throws -> (store: String, launcher: [String], restore: () -> Void) {
        let folder = root.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("shop.sqlite").path
        try FileManager.default.copyItem(atPath: storePath, toPath: store)
        var launcher: [String] = []
        if getuid() == 0 {
            // nobody must reach the file: the sandbox's folders are opened to others, the store stays read-only.
            for path in [root.path, folder.path] { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
            launcher = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ShopshBinary.url.path]
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        return (store, launcher, { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) })
    }
}
