// ShopshProcess: runs the built shopsh binary with its own fresh HOME and data folders,
// so every end-to-end test starts from a new demo shop and reads real output.

import Foundation
import Testing

/// One sandbox: a temporary HOME with XDG folders, and a way to run shopsh in it.
final class ShopshSandbox {
    let root: URL
    var environment: [String: String]

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root.path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        for key in ["SHOPSH_STORE", "SHOPSH_FORMAT", "NO_COLOR", "COLUMNS"] { environment.removeValue(forKey: key) }
        self.environment = environment
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The default store of this sandbox.
    var storePath: String { root.appendingPathComponent("data/shopsh/shop.sqlite").path }

    /// Writes a file into the sandbox and returns its path.
    func file(_ name: String, _ contents: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    /// Runs shopsh with `arguments`, feeding `stdin` (empty by default, never a terminal).
    /// `launcher` runs it through another program (`setpriv … shopsh`), found on PATH.
    @discardableResult
    func run(_ arguments: [String], stdin: String = "", launcher: [String] = []) throws -> Result {
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = ShopshBinary.url
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + arguments
        }
        process.environment = environment
        process.currentDirectoryURL = root
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full stderr pipe cannot block the child.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData.value, as: UTF8.self), stdoutData: outputData)
    }

    /// Runs one command with `-c` and expects exit status 0.
    func ok(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(["-c", command])
        #expect(result.status == 0, "\(command) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Runs one command and parses its stdout as JSON.
    func json(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let result = try run(["-c", command])
        #expect(result.status == 0, "\(command) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: result.stdoutData, options: [.fragmentsAllowed])
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var done = false
    func set(_ value: Data) { lock.lock(); data = value; done = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Where the built binary is: beside the test bundle (`.build/debug`), or `$SHOPSH_BIN`.
enum ShopshBinary {
    static let url: URL = {
        if let override = ProcessInfo.processInfo.environment["SHOPSH_BIN"] { return URL(fileURLWithPath: override) }
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("shopsh"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("shopsh"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/shopsh"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// The package's root folder (for the shipped demo data).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
