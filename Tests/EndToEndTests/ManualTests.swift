// ManualTests: man/shopsh.1 is generated from the command tree (`make docs`), stays up to date,
// renders without warnings, and names every command and subcommand the binary offers.

import Foundation
import Testing

@Suite("man page")
struct ManualTests {
    static let pagePath = ShopshBinary.packageRoot.appendingPathComponent("man/shopsh.1").path
    /// The built-in plugins, one per folder of Swift sources under `plugins/` (the command is the
    /// folder's name in lower case); `plugins/external` holds example executables, not commands.
    static let plugins: [String] = {
        let root = ShopshBinary.packageRoot.appendingPathComponent("plugins")
        return ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter { name in
                !name.hasPrefix(".") && ((try? FileManager.default.contentsOfDirectory(
                    atPath: root.appendingPathComponent(name).path)) ?? []).contains { $0.hasSuffix(".swift") }
            }
            .map { $0.lowercased() }.sorted()
    }()

    /// A fresh `shopsh __manual`.
    static func generate() async throws -> ShopshSandbox.Result {
        let sandbox = try await ShopshSandbox()
        return try await sandbox.run(["__manual"])
    }

    @Test("the committed man/shopsh.1 equals a fresh generation")
    func upToDate() async throws {
        let fresh = try await Self.generate()
        #expect(fresh.status == 0, "shopsh __manual failed: \(fresh.stderr)")
        #expect(fresh.stderr.isEmpty)
        let committed = FileManager.default.contents(atPath: Self.pagePath)
        #expect(committed != nil, "man/shopsh.1 is missing: run `make docs`")
        #expect(committed == fresh.stdoutData,
                "man/shopsh.1 is out of date with the command tree: run `make docs` and commit man/shopsh.1")
    }

    @Test("the generation is reproducible byte for byte")
    func reproducible() async throws {
        let first = try await Self.generate(), second = try await Self.generate()
        #expect(first.stdoutData == second.stdoutData)
        #expect(!first.stdoutData.isEmpty)
    }

    @Test("man -l renders the page without warnings")
    func rendersWithoutWarnings() async throws {
        // All groff warnings (a superset of plain `man --warnings`), at a fixed width.
        let man = "/usr/bin/man"
        try #require(FileManager.default.isExecutableFile(atPath: man), "man is not installed: run `make deps` (man-db, groff-base)")
        let result = try await Self.runTool(man, ["--warnings=w", "-l", Self.pagePath])
        #expect(result.status == 0, "man failed: \(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(warnings.isEmpty, "man -l man/shopsh.1 warned:\n\(warnings.joined(separator: "\n"))")
        let text = result.stdout
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "COMMANDS", "OUTPUT FORMATS", "BATCH MODE", "EXIT STATUS",
                        "ENVIRONMENT", "FILES", "EXAMPLES", "SHELL COMPLETION"] {
            #expect(text.contains("\n" + section + "\n"), "the rendered page has no \(section) section")
        }
        for plugin in Self.plugins {
            #expect(text.contains(plugin), "the rendered page does not mention \(plugin)")
        }
        for variable in ["SHOPSH_STORE", "SHOPSH_FORMAT", "NO_COLOR", "PAGER", "XDG_DATA_HOME", "XDG_STATE_HOME",
                         "HOME", "COLUMNS"] {
            #expect(text.contains(variable), "ENVIRONMENT does not describe \(variable)")
        }
        for phrase in ["shopsh.bash", "_shopsh", "shopsh.fish", "--continue-on-error", "jq", "-o csv", "0600"] {
            #expect(text.contains(phrase), "the rendered page does not mention \(phrase)")
        }
    }

    @Test("every command and subcommand the binary offers is in the page")
    func everySubcommand() async throws {
        let sandbox = try await ShopshSandbox()
        let page = String(decoding: FileManager.default.contents(atPath: Self.pagePath) ?? Data(), as: UTF8.self)
        let fresh = try await sandbox.run(["__manual"]).stdout

        // The plugins the binary registers, as `plugins` lists them.
        let listed = try await sandbox.run(["-o", "json", "-c", "plugins"])
        #expect(listed.status == 0, "plugins failed: \(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]] ?? []
        let names = rows.compactMap { $0["name"] as? String }
        #expect(!Self.plugins.isEmpty)
        #expect(Set(Self.plugins).isSubset(of: Set(names)), "plugins lists \(names)")

        // Walk the tree through `help`, which shows the visible subcommands of each command.
        var paths: [[String]] = names.map { [$0] }
        var index = 0
        while index < paths.count {
            let path = paths[index]
            index += 1
            let help = try await sandbox.run(["-c", "help " + path.joined(separator: " ")])
            #expect(help.status == 0, "help \(path.joined(separator: " ")) failed: \(help.stderr)")
            paths += Self.subcommands(inHelp: help.stdout).map { path + [$0] }
        }
        let subcommandPaths = paths.filter { $0.count > 1 }
        #expect(subcommandPaths.count >= 30, "found only \(subcommandPaths.count) subcommands in help")
        for path in paths {
            let heading = "\\fB" + Self.roff(path.joined(separator: " ")) + "\\fR"
            let isPlugin = path.count == 1
            for (label, text) in [("man/shopsh.1", page), ("shopsh __manual", fresh)] {
                let found = isPlugin ? text.contains(".SS " + Self.roff(path[0]) + "\n") : text.contains(heading)
                #expect(found, "\(label) does not describe \(path.joined(separator: " "))")
            }
        }

        // The built-ins too.
        for builtin in ["help", "use", "set", "history", "watch", "source", "plugins", "exit"] {
            #expect(page.contains("\\fB" + builtin + "\\fR"), "man/shopsh.1 does not describe \(builtin)")
        }
    }

    /// The names under `SUBCOMMANDS:` in argument-parser's help text (without its `help`).
    static func subcommands(inHelp text: String) -> [String] {
        var result: [String] = []
        var inSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("SUBCOMMANDS:") { inSection = true; continue }
            guard inSection else { continue }
            if line.trimmingCharacters(in: .whitespaces).isEmpty || !line.hasPrefix(" ") { break }
            // A subcommand line is indented by two spaces; wrapped abstracts are indented more.
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            guard let word = line.split(separator: " ").first else { continue }
            let name = String(word)
            if name != "help" { result.append(name) }
        }
        return result
    }

    /// How the generator writes text in roff (hyphens as `\-`).
    static func roff(_ text: String) -> String {
        text.replacingOccurrences(of: "-", with: "\\-")
    }

    static func runTool(_ path: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["LANG"] = "C.UTF-8"
        environment["MAN_KEEP_FORMATTING"] = nil
        environment.removeValue(forKey: "MANPAGER")
        environment.removeValue(forKey: "PAGER")
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errorData.wait()
        // Rendered text may use overstrike for bold; strip it so the text can be searched.
        let text = Self.stripOverstrike(String(decoding: outputData, as: UTF8.self))
        return (process.terminationStatus, text, String(decoding: stderr, as: UTF8.self))
    }

    static func stripOverstrike(_ text: String) -> String {
        var result: [Character] = []
        for character in text {
            if character == "\u{8}" {
                if !result.isEmpty { result.removeLast() }
            } else {
                result.append(character)
            }
        }
        return String(result)
    }
}

/// Reads a pipe to its end on another thread (so a full stderr pipe cannot block the child).
private final class ErrorCollector: @unchecked Sendable {
    private let lock = NSCondition()
    private var data: Data?

    init(_ handle: FileHandle) {
        Thread { [self] in
            let value = handle.readDataToEndOfFile()
            lock.lock(); data = value; lock.broadcast(); lock.unlock()
        }.start()
    }

    func wait() -> Data {
        lock.lock(); defer { lock.unlock() }
        while data == nil { lock.wait() }
        return data ?? Data()
    }
}
