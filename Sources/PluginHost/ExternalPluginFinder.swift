// ExternalPluginFinder: where external plugins are looked for (SHOPSH_PLUGIN_PATH, then
// $XDG_DATA_HOME/shopsh/plugins, then PATH) and how they are described, cached by path, size
// and modification time for the life of the process.

import Foundation
import ShopCore
import Synchronization
import PluginProtocol

/// Finds and describes `shopsh-NAME` executables. Built-in commands never call it: the shell
/// looks here only for a first word that is not a built-in, and for `plugins`, `help` and Tab.
public enum ExternalPluginFinder {
    /// The prefix of a plugin's file name.
    public static let prefix = "shopsh-"
    /// The most bytes a describe may print.
    static let describeCap = 1 << 20
    /// How long a describe may take.
    static let describeTimeout: Duration = .seconds(2)

    /// The folders searched, first wins: `SHOPSH_PLUGIN_PATH`, the data folder, then `PATH`.
    public static func searchPath(environment: [String: String]) -> [String] {
        func split(_ value: String?) -> [String] {
            (value ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return split(environment["SHOPSH_PLUGIN_PATH"]) + [dataHome + "/shopsh/plugins"] + split(environment["PATH"])
    }

    /// The plugin `name`, described, or nil when no executable `shopsh-NAME` exists.
    /// `builtinNames` are the words the shell's own commands take.
    public static func find(_ name: String, environment: [String: String], builtinNames: Set<String>) -> ExternalPlugin? {
        guard isPluginName(name) else { return nil }
        for folder in searchPath(environment: environment) {
            let path = folder + "/" + prefix + name
            guard let file = FileState(path: path), file.isRegular else { continue }
            guard file.isExecutable else { continue }
            return plugin(name: name, path: path, file: file, builtinNames: builtinNames, environment: environment)
        }
        return nil
    }

    /// Every plugin on the search path, by name (the first of a name; a non-executable file is
    /// listed only when no executable one of that name is found).
    public static func all(environment: [String: String], builtinNames: Set<String>) -> [ExternalPlugin] {
        var found: [String: ExternalPlugin] = [:]
        var order: [String] = []
        for folder in searchPath(environment: environment) {
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            for entry in entries where entry.hasPrefix(prefix) {
                let name = String(entry.dropFirst(prefix.count))
                guard isPluginName(name) else { continue }
                if let earlier = found[name], earlier.status != .notExecutable { continue }
                let path = folder + "/" + entry
                guard let file = FileState(path: path), file.isRegular else { continue }
                if found[name] == nil { order.append(name) }
                found[name] = file.isExecutable
                    ? plugin(name: name, path: path, file: file, builtinNames: builtinNames, environment: environment)
                    : found[name] ?? ExternalPlugin(name: name, path: path, status: .notExecutable)
            }
        }
        return order.compactMap { found[$0] }.sorted { $0.name < $1.name }
    }

    /// Whether `name` can be a plugin's word (no `/`, no leading `-` or `.`).
    static func isPluginName(_ name: String) -> Bool {
        guard let first = name.first, first != "-", first != "." else { return false }
        return !name.contains("/") && !name.contains(where: \.isWhitespace)
    }

    private static func plugin(name: String, path: String, file: FileState, builtinNames: Set<String>,
                               environment: [String: String]) -> ExternalPlugin {
        if builtinNames.contains(name) { return ExternalPlugin(name: name, path: path, status: .shadowed) }
        return ExternalPlugin(name: name, path: path, status: describe(path: path, file: file, environment: environment))
    }

    // MARK: - Describing

    private static let cache = Mutex<[String: (FileState, ExternalPlugin.Status)]>([:])

    /// Runs `PATH --shopsh-describe`, or answers from the cache: in memory, then the file
    /// ``DescribeCache`` (so `shopsh -c` and the completion scripts' `__complete` do not run every
    /// describe each time).
    static func describe(path: String, file: FileState, environment: [String: String]) -> ExternalPlugin.Status {
        if let (state, status) = cache.withLock({ $0[path] }), state == file { return status }
        let fileCache = DescribeCache(environment: environment)
        let status: ExternalPlugin.Status
        if let cached = fileCache.lookup(path: path, file: file) {
            status = cached
        } else {
            let (described, output) = runDescribe(path: path, environment: environment)
            status = described
            fileCache.store(path: path, file: file, status: described, output: output)
        }
        cache.withLock { $0[path] = (file, status) }
        return status
    }

    /// The status, and the describe output when it was usable.
    private static func runDescribe(path: String, environment: [String: String]) -> (ExternalPlugin.Status, [UInt8]?) {
        let (status, output) = describeOutput(path: path, environment: environment)
        return (status, status.isOK ? output : nil)
    }

    private static func describeOutput(path: String, environment: [String: String]) -> (ExternalPlugin.Status, [UInt8]) {
        var environment = environment
        environment["SHOPSH_PROTOCOL"] = String(PluginDescription.supportedProtocols.last ?? 1)
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path: path, arguments: ["--shopsh-describe"], environment: environment)
        } catch {
            return (.describeFailed(error.message), [])
        }
        var output: [UInt8] = []
        let deadline = ContinuousClock.now + describeTimeout
        do {
            while let chunk = try child.readStdout(deadline: deadline) {
                output += chunk
                if output.count > describeCap {
                    child.stop()
                    return (.describeFailed("its description is over \(describeCap) bytes"), [])
                }
            }
        } catch {
            child.stop()
            return (.describeFailed("--shopsh-describe did not finish within 2 s"), [])
        }
        let ending: ChildProcess.Ending
        do {
            ending = try child.wait(deadline: deadline)
        } catch {
            child.stop()
            return (.describeFailed("--shopsh-describe did not finish within 2 s"), [])
        }
        switch ending {
        case .exited(0): break
        case .exited(let code):
            return (.describeFailed("--shopsh-describe exited with status \(code)"
                                    + (child.lastStderrLine.map { ": " + $0 } ?? "")), [])
        case .signaled(let signal):
            return (.describeFailed("--shopsh-describe was killed by signal \(signal)"), [])
        }
        do {
            return (.ok(try PluginDescription.parse(output)), output)
        } catch {
            return (.describeFailed(error.message), [])
        }
    }
}

/// A file's type, permission, size and modification time (what the describe cache keys on).
struct FileState: Equatable, Sendable {
    var isRegular: Bool
    var isExecutable: Bool
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        isRegular = (info.st_mode & S_IFMT) == S_IFREG
        isExecutable = access(path, X_OK) == 0
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
