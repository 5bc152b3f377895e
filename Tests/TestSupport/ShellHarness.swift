// ShellHarness: a shell on a real temporary store (empty or the demo shop) from a test store
// factory (TestStores: SQLite, or PostgreSQL in `make test`'s second pass), with stdout and
// stderr captured, for the plugins' tests.

import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreKit

/// A shell with the given plugins on a new store in a temporary folder.
public final class ShellHarness: @unchecked Sendable {
    public let folder: URL
    public let store: any ShopStore
    /// Which store the test runs on: `sqlite` or `postgres` (TestStoreFactory.name).
    public let storeKind: String
    private let runSQL: @Sendable (String) throws -> String
    public let shell: Shell
    public let sink = OutputSink.memory()
    private let errors = ErrorLog()

    /// `demo: true` fills the store with the demo shop. With `terminalWidth`, stdout is a terminal
    /// that many columns wide (tables are fitted to it; no pager).
    /// `clock` stamps what the services write (the system's by default; fix it to test dates).
    /// `identity` plays another operator at the shell (a viewer, a read-only session): the shell's
    /// role checks and masking then apply as in the program; the store stays the test's own.
    public init(plugins: [ShellPlugin], demo: Bool = false, terminalWidth: Int? = nil, clock: ShopClock? = nil,
                stores: TestStoreFactory = .current, identity: OperatorIdentity? = nil) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeKind = stores.name
        let made = try await stores.make(folder, clock ?? .system)
        store = made.store
        runSQL = made.sql
        if demo {
            let shop = try DemoShopData.load()
            guard try await store.seed({ seeder in try shop.write(into: seeder) }) != nil else {
                throw HarnessError.failed("the demo shop", "the new store was not empty")
            }
        }
        let environment = terminalWidth.map { ["COLUMNS": String($0), "PAGER": "cat", "NO_COLOR": "1"] } ?? [:]
        let operatorIdentity = identity ?? store.identity
        let session = Session(storeName: "test", identity: operatorIdentity, environment: environment)
        let terminal = Terminal(stdinIsTerminal: false, stdoutIsTerminal: terminalWidth != nil, stderrIsTerminal: false)
        let log = errors
        shell = Shell(services: store.services.masked(for: operatorIdentity.role), plugins: plugins, session: session, terminal: terminal,
                      environment: environment, stdout: sink, stderr: { log.append($0) })
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    public var services: ShopServices { store.services }

    /// Everything written to stderr so far.
    public var stderr: String { errors.text }

    /// Runs a command line; returns its outcome and the stdout it produced.
    public func run(_ line: String) async -> (outcome: CommandOutcome, stdout: String) {
        let before = sink.memoryText.utf8.count
        let outcome = await shell.execute(line: line)
        return (outcome, String(sink.memoryText.utf8.dropFirst(before)) ?? "")
    }

    /// Runs a command line that must succeed and parses its stdout as JSON.
    public func json(_ line: String) async throws -> Any {
        let (outcome, text) = await run(line)
        guard outcome == .success else { throw HarnessError.failed(line, stderr) }
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// Runs SQL on the store with its own client (`sqlite3` or `psql`), behind the services' back:
    /// to check what a command left, or to set up what no command can. Values are `|`-separated.
    public func sql(_ sql: String) throws -> String {
        try runSQL(sql)
    }
}

public enum HarnessError: Error, CustomStringConvertible {
    case failed(String, String)
    public var description: String {
        switch self {
        case .failed(let line, let stderr): return "\(line) failed: \(stderr)"
        }
    }
}

/// What the shell wrote to stderr.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = ""
    func append(_ text: String) { lock.lock(); collected += text; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return collected }
}

// MARK: - Tables for people

/// What a table printed at `width` columns must be: no line wider than the terminal, every value
/// of `uncut` (ids, SKUs, quantities, money) shown whole, and, from 80 columns on, a table with
/// one line per row (`rows` rows under a header and a rule), not records.
public func tableProblems(_ output: String, width: Int, rows: Int, uncut: [String]) -> [String] {
    var problems: [String] = []
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    for line in lines where DisplayWidth.of(line) > width {
        problems.append("at \(width) columns a line is \(DisplayWidth.of(line)) wide: \(line)")
    }
    for value in uncut where !output.contains(value) {
        problems.append("at \(width) columns \"\(value)\" is cut or missing")
    }
    if width >= 80 && (output.contains("-[ RECORD") || lines.count != rows + 2) {
        problems.append("at \(width) columns the \(rows) rows are not a one-line-per-row table:\n\(output)")
    }
    return problems
}

/// The widths every table is checked at.
public let tableTestWidths = [40, 80, 120, 200]

/// Runs `command` as a table at each of `tableTestWidths` on a fresh demo shop (after `setup`)
/// and returns what is wrong with it (see `tableProblems`); the values of `uncutFields`, read
/// from the same command's tsv, must be shown whole.
public func tableProblems(plugins: [ShellPlugin], setup: (ShopServices) async throws -> Void = { _ in },
                          command: String, uncutFields: [String]) async throws -> [String] {
    var problems: [String] = []
    for width in tableTestWidths {
        let shell = try await ShellHarness(plugins: plugins, demo: true, terminalWidth: width)
        try await setup(shell.services)
        let (outcome, table) = await shell.run(command)
        guard outcome == .success else { throw HarnessError.failed(command, shell.stderr) }
        let (_, tsv) = await shell.run(command + " -o tsv --no-header --fields " + uncutFields.joined(separator: ","))
        let rows = tsv.split(separator: "\n")
        let values = rows.flatMap { $0.split(separator: "\t").map(String.init) }
        problems += tableProblems(table, width: width, rows: rows.count, uncut: values)
    }
    return problems
}
