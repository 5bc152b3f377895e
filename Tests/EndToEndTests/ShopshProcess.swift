// ShopshProcess: runs the built shopsh binary with its own fresh HOME and data folders,
// so every end-to-end test starts from a new demo shop and reads real output. With
// SHOPSH_TEST_STORE=postgres (`make test`'s second pass) that shop is a new database on the
// server in SHOPSH_TEST_POSTGRES, made by `shopsh init --store URL` and named by SHOPSH_STORE.

import Foundation
import TestSupport
import Testing

/// One sandbox: a temporary HOME with XDG folders, and a way to run shopsh in it. Runs may go
/// on from several threads at once; `environment` is set before they start.
final class ShopshSandbox: @unchecked Sendable {
    let root: URL
    var environment: [String: String]

    /// The server database this sandbox's shop is in (PostgreSQL runs only).
    private var database: (admin: String, name: String)?

    /// Whether the end-to-end tests run on PostgreSQL (`SHOPSH_TEST_STORE=postgres`).
    static let onPostgres = ProcessInfo.processInfo.environment["SHOPSH_TEST_STORE"] == "postgres"

    /// A sandbox whose store is the default SQLite file, or what a test names later: never a
    /// server database of its own (for code that cannot await, such as a static's first use).
    init(withoutServerShop: Void) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root.path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        // The operator's own start-up file never reaches a test: each sandbox has its own config folder.
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        for key in ["SHOPSH_STORE", "SHOPSH_FORMAT", "SHOPSH_RC", "NO_COLOR", "COLUMNS", "VISUAL", "EDITOR"] { environment.removeValue(forKey: key) }
        self.environment = environment
    }

    /// A new sandbox; in the PostgreSQL pass its shop is a new database on the server.
    convenience init() async throws {
        try self.init(withoutServerShop: ())
        if Self.onPostgres { environment["SHOPSH_STORE"] = try await serverShop() }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
        if let database { _ = try? CommandLineClient.psql(database.admin, schema: nil, "DROP DATABASE IF EXISTS \(database.name) WITH (FORCE)") }
    }

    /// This sandbox's database on the server in SHOPSH_TEST_POSTGRES (made on the first call,
    /// with the demo shop unless `initialize` is false), as a store URL.
    @discardableResult
    func serverShop(initialize: Bool = true) async throws -> String {
        guard let admin = ProcessInfo.processInfo.environment["SHOPSH_TEST_POSTGRES"], !admin.isEmpty,
              let slash = admin.lastIndex(of: "/") else {
            throw SandboxError(description: "a PostgreSQL shop needs SHOPSH_TEST_POSTGRES (make test sets it)")
        }
        if let database { return String(admin[...slash]) + database.name }
        let name = "e2e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.psql(admin, "CREATE DATABASE \(name)")
        database = (admin, name)
        let url = String(admin[...slash]) + name
        if initialize {
            let created = try await run(["init", "--store", url])
            guard created.status == 0 else { throw SandboxError(description: "shopsh init on \(url): \(created.stderr)") }
        }
        return url
    }

    /// Sets product `id`'s title behind shopsh's back (the `sqlite3` CLI, or psql on the server):
    /// text shopsh's own rules refuse (control characters) but that another program can store, for
    /// tests of what shopsh then shows. Creates the demo shop first.
    func storeTitleBehindShopsh(sku: String, _ title: String) async throws {
        let product = try await #require(try json("products show \(sku) -o json") as? [String: Any])
        try await storeTitleBehindShopsh(try #require(product["id"] as? Int), title)
    }

    /// The same for product `id`.
    func storeTitleBehindShopsh(_ id: Int, _ title: String) async throws {
        _ = try await ok("products show \(id)")
        let hex = title.utf8.map { String(format: "%02x", $0) }.joined()
        try await writeBehindShopsh(sqlite: "UPDATE products SET title = CAST(X'\(hex)' AS TEXT) WHERE id = \(id)",
                              postgres: "UPDATE products SET title = convert_from(decode('\(hex)', 'hex'), 'UTF8') WHERE id = \(id)")
    }

    /// Runs SQL on this sandbox's store behind shopsh's back, as another program would: `postgres`
    /// (or `sqlite` when nil) with psql on the server, `sqlite` with the sqlite3 CLI on the file.
    /// Returns what the client printed (psql unaligned, tuples only; sqlite3's list mode: `|` between values).
    @discardableResult
    func writeBehindShopsh(sqlite: String, postgres: String? = nil) async throws -> String {
        if let store = environment["SHOPSH_STORE"], store.hasPrefix("postgres") {
            return try await Self.psql(store, postgres ?? sqlite)
        } else {
            let path = environment["SHOPSH_STORE"] ?? storePath
            let result = try await offThePool { try CommandLineClient.outcome(["sqlite3", path, sqlite]) }
            guard result.status == 0 else { throw SandboxError(description: "sqlite3: \(result.errors)") }
            return result.output
        }
    }

    /// Runs `psql` on `url`, stopping at the first error.
    @discardableResult
    static func psql(_ url: String, _ sql: String) async throws -> String {
        try await offThePool { try psqlNow(url, sql) }
    }

    /// `psql` on the calling thread: only where a test cannot await (a `defer`, a `deinit`, a
    /// thread of its own).
    @discardableResult
    static func psqlNow(_ url: String, _ sql: String) throws -> String {
        try CommandLineClient.psql(url, schema: nil, sql)
    }

    /// The store's name as the prompt shows it: `shop` for the default file, the database's name on PostgreSQL.
    var prompt: String {
        if let store = environment["SHOPSH_STORE"], store.hasPrefix("postgres"), let slash = store.lastIndex(of: "/") {
            return String(store[store.index(after: slash)...].prefix { $0 != "?" })
        }
        return "shop"
    }

    /// The default store of this sandbox.
    var storePath: String { root.appendingPathComponent("data/shopsh/shop.sqlite").path }

    /// Writes a file into the sandbox and returns its path.
    func file(_ name: String, _ contents: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
        var stderrData = Data()
        /// True when a signal ended the process (then `status` is the signal's number).
        var signalled = false
        /// True when the run outlived its time limit and was killed.
        var timedOut = false
    }

    /// Runs shopsh with `arguments`, feeding `stdin` (empty by default, never a terminal).
    /// `launcher` runs it through another program (`setpriv … shopsh`), found on PATH.
    @discardableResult
    func run(_ arguments: [String], stdin: String = "", launcher: [String] = []) async throws -> Result {
        try await run(arguments, stdinData: Data(stdin.utf8), launcher: launcher)
    }

    /// Runs shopsh with `arguments`, feeding the raw bytes `stdinData` (which need not be UTF-8)
    /// from another thread, so a child that stops reading early cannot block the test; after
    /// `timeLimit` seconds the child is killed and the result says so.
    func run(_ arguments: [String], stdinData: Data, launcher: [String] = [], timeLimit: Double = 120) async throws -> Result {
        try await offThePool { try self.runNow(arguments, stdinData: stdinData, launcher: launcher, timeLimit: timeLimit) }
    }

    /// `run`, waiting for the child on the calling thread: only where a test cannot await (a
    /// `defer`, a thread of its own), never on a thread of the shared pool.
    func runNow(_ arguments: [String], stdin: String = "", stdinData: Data? = nil, launcher: [String] = [],
                timeLimit: Double = 120) throws -> Result {
        let stdinData = stdinData ?? Data(stdin.utf8)
        _ = ignoreBrokenPipes
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
        // The parent's read ends are closed here rather than when Foundation releases the Process
        // (it kept them: the bad-input corpus held 500 pipes open). Fewer open descriptors also keep
        // clear of swift-corelibs-foundation's over-read of /proc/self/fd in Process.run() (its
        // PR #5472), which crashed a run when the test process held well over a thousand.
        defer { for pipe in [output, errors] { try? pipe.fileHandleForReading.close() } }
        try process.run()
        let writer = Thread {
            let handle = input.fileHandleForWriting
            stdinData.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = write(handle.fileDescriptor, base + offset, buffer.count - offset)
                    if written <= 0 { break }   // the child closed its stdin (EPIPE): stop feeding it
                    offset += written
                }
            }
            try? handle.close()
        }
        writer.start()
        let fired = LockedData()
        // SIGKILL, not terminate()'s SIGTERM: a child started from a test thread inherits its blocked
        // signals, so SIGTERM could wait forever.
        let killer = DispatchWorkItem { if process.isRunning { fired.set(Data()); kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: killer)
        // Read both pipes concurrently so a full stderr pipe cannot block the child.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        let timedOut = fired.isSet
        while !errorData.isSet { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData.value, as: UTF8.self), stdoutData: outputData,
                      stderrData: errorData.value, signalled: process.terminationReason == .uncaughtSignal,
                      timedOut: timedOut)
    }

    /// Runs one command with `-c` and expects exit status 0.
    func ok(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await run(["-c", command])
        #expect(result.status == 0, "\(command) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// Runs one command and parses its stdout as JSON.
    func json(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Any {
        let result = try await run(["-c", command])
        #expect(result.status == 0, "\(command) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: result.stdoutData, options: [.fragmentsAllowed])
    }
}

struct SandboxError: Error, CustomStringConvertible {
    var description: String
}

extension Trait where Self == ConditionTrait {
    /// For tests about the SQLite file itself (its bytes, modes, first creation): they skip in
    /// the PostgreSQL pass, which runs every other end-to-end test on the server.
    static var aboutTheSQLiteFile: Self {
        .enabled(if: !ShopshSandbox.onPostgres, "about the SQLite store file (this pass runs on PostgreSQL)")
    }
}

/// Runs a program that may leave a daemon behind (tmux's server, PostgreSQL's postmaster) with
/// posix_spawn and waitpid, its output in a file: such a daemon inherits a pipe and keeps it open,
/// so reading a pipe to its end, or Foundation's Process, would wait for the daemon to stop.
enum Spawn {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> (status: Int32, output: String) {
        try await offThePool { try runNow(executable, arguments, environment: environment) }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np`, looked up in the C library.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// `run` on the calling thread: only where a test cannot await (a `deinit`, a `defer`).
    static func runNow(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: a daemon (tmux's server) would keep what it inherited
        // open for its whole life — a script another test just wrote and is about to run among
        // them ("Text file busy"), or a pipe another test reads to its end.
        // (glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare.)
        guard let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 else { throw CocoaError(.executableLoad) }
        let argv = [(executable as NSString).lastPathComponent] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        // Test threads may block SIGINT; the programs must get it, as under a person's shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }
}

/// Writing to a child that has exited must fail with EPIPE, not kill the test process.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

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

/// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's shared
/// pool. A test that waited for a child process on a pool thread held it for the child's whole run:
/// with two cores, two such tests left no thread for any other test's tasks (issue 21's note,
/// issue 40). `work` must not record test issues (`#expect`): the test's task-locals are not there.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
