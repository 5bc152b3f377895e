// ShellHarness: a shell on a real temporary SQLite store (empty or the demo shop), with
// stdout and stderr captured, for the plugins' tests.

import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite

/// A shell with the given plugins on a new store in a temporary folder.
public final class ShellHarness: @unchecked Sendable {
    public let folder: URL
    public let store: SQLiteStore
    public let shell: Shell
    public let sink = OutputSink.memory()
    private let errors = ErrorLog()

    /// `demo: true` fills the store with the demo shop.
    public init(plugins: [ShellPlugin], demo: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-tests-\(UUID().uuidString)")
        store = try SQLiteStore(path: folder.appendingPathComponent("shop.sqlite").path, create: true)
        if demo { _ = try store.importDemoShop() }
        let session = Session(storeName: "test", environment: [:])
        let terminal = Terminal(stdinIsTerminal: false, stdoutIsTerminal: false, stderrIsTerminal: false)
        let log = errors
        shell = Shell(services: store.services, plugins: plugins, session: session, terminal: terminal,
                      environment: [:], stdout: sink, stderr: { log.append($0) })
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

    /// Runs read-only SQL against the store file (for checking that nothing changed).
    public func sqlite(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", store.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
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
