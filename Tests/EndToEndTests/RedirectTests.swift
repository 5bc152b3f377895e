// RedirectTests: `> FILE` and `>> FILE` are all or nothing. The output goes to a hidden temporary
// file beside FILE (mode 0600) that replaces FILE, or is appended to it, only when the command
// succeeds; a failed or interrupted command (Ctrl-C at the prompt, a signal in a batch) leaves
// FILE as it was, or absent, and no temporary file behind.

import Foundation
import Testing

@Suite(.serialized) struct RedirectTests {
    /// A sandbox with an `out` folder and a plugin `slow` that prints two rows, then sleeps:
    /// Ctrl-C lands while its output is half written.
    static func slowShop() async throws -> (PluginSandbox, out: URL) {
        let plugins = try await PluginSandbox()
        let out = plugins.sandbox.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try plugins.plugin("slow", writes: false, body: """
            printf '%s\\n' '{"row": "first"}' '{"row": "second"}'
            exec sleep 100
            """)
        return (plugins, out)
    }

    /// The names in `folder`, hidden ones included, sorted.
    static func names(_ folder: URL) async throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func mode(_ path: String) async throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// Waits (up to 20 s) until a file in `folder` holds the plugin's first row: the output has
    /// reached the disk (under FILE's name, or a temporary one), so Ctrl-C lands mid-write.
    /// Returns that file's path.
    @discardableResult
    static func waitForPartialOutput(in folder: URL) async throws -> String? {
        for _ in 0..<400 {
            for name in try await names(folder) {
                let path = folder.appendingPathComponent(name).path
                if ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains("first") { return path }
            }
            try? await Task.sleep(for: .microseconds(50_000))
        }
        Issue.record("the output never reached \(folder.path): \(try await names(folder))")
        return nil
    }

    @Test(.enabled(if: TerminalSession.available, "needs tmux"))
    func ctrlCDuringARedirectLeavesTheFileAsItWas() async throws {
        let (plugins, out) = try await Self.slowShop()
        let existing = out.appendingPathComponent("old.csv")
        let appended = out.appendingPathComponent("log.csv")
        try "old contents\n".write(to: existing, atomically: false, encoding: .utf8)
        try "old log\n".write(to: appended, atomically: false, encoding: .utf8)
        let terminal = TerminalSession(sandbox: plugins.sandbox)
        try await terminal.start()
        let folder = out.path
        for (target, redirect, said) in [("new.csv", ">", "\(folder)/new.csv was not created"),
                                         ("old.csv", ">", "\(folder)/old.csv was left as it was"),
                                         ("log.csv", ">>", "nothing was appended to \(folder)/log.csv")] {
            try await terminal.send("C-l")   // a clear screen: this round's lines only
            try await terminal.waitFor { !$0.contains("interrupted") && terminal.promptIsBack($0) }
            try await terminal.send("slow list -o csv \(redirect) \(folder)/\(target)", "Enter")
            let partial = try await Self.waitForPartialOutput(in: out)
            if let partial, partial.hasSuffix("/" + target) == false {
                await #expect(try Self.mode(partial) == 0o600, "the partial file is private: \(partial)")
            }
            try await terminal.send("C-c")
            let screen = try await terminal.waitFor { $0.contains("error: interrupted") && terminal.promptIsBack($0) }
            #expect(screen.replacingOccurrences(of: "\n", with: "").contains("error: interrupted; \(said)"), "\(screen)")
            await #expect(try Self.names(out) == ["log.csv", "old.csv"], "\(target): nothing else, no temporary file")
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old contents\n")
        #expect(try String(contentsOf: appended, encoding: .utf8) == "old log\n")

        // The same command that finishes replaces the file whole.
        try await terminal.send("C-l", "products show 1 --fields id,sku -o csv > \(folder)/old.csv", "Enter")
        try await terminal.waitFor { $0.contains("old.csv") && terminal.promptIsBack($0) }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "id,sku\r\n1,BEA-ESS-ESS-001\r\n")
    }

    /// A batch ended by a signal while it writes `> FILE` leaves neither FILE nor a temporary file.
    @Test func aSignalDuringABatchRedirectLeavesNoFile() async throws {
        let (plugins, out) = try await Self.slowShop()
        try "old contents\n".write(to: out.appendingPathComponent("old.csv"), atomically: false, encoding: .utf8)
        for target in ["new.csv", "old.csv"] {
            // Spawn, not the sandbox's run: a test thread's blocked signals would be inherited.
            let result = try await Spawn.run("/usr/bin/timeout", ["-s", "INT", "3", ShopshBinary.url.path, "-c",
                                                            "slow list -o csv > \(out.path)/\(target)"],
                                       environment: plugins.sandbox.environment)
            #expect(result.status != 0)
            await #expect(try Self.names(out) == ["old.csv"], "\(target): \(result.output)")
        }
        #expect(try String(contentsOf: out.appendingPathComponent("old.csv"), encoding: .utf8) == "old contents\n")
    }

    @Test func aFailedCommandLeavesTheFileAsItWasAndASuccessfulOneReplacesItPrivately() async throws {
        let (plugins, out) = try await Self.slowShop()
        let target = out.appendingPathComponent("p.csv").path
        let failed = try await plugins.run(["-c", "products show 99999 -o csv > \(target)"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("; \(target) was not created"), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1)
        await #expect(try Self.names(out).isEmpty)

        let written = try await plugins.run(["-c", "products show 1 --fields id -o csv > \(target)"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "id\r\n1\r\n")
        await #expect(try Self.mode(target) == 0o600)

        let again = try await plugins.run(["-c", "products show 99999 -o csv > \(target)"])
        #expect(again.stderr.contains("; \(target) was left as it was"), "\(again.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "id\r\n1\r\n")

        // An existing file keeps its permissions, as with a shell's `>`.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        _ = try await plugins.run(["-c", "products show 2 --fields id -o csv > \(target)"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "id\r\n2\r\n")
        await #expect(try Self.mode(target) == 0o640)
        await #expect(try Self.names(out) == ["p.csv"])
    }

    @Test func appendAddsTheWholeOutputOnlyOnSuccess() async throws {
        let (plugins, out) = try await Self.slowShop()
        let target = out.appendingPathComponent("log.csv").path
        _ = try await plugins.run(["-c", "products show 1 --fields id -o csv --no-header >> \(target)"])
        await #expect(try Self.mode(target) == 0o600)
        _ = try await plugins.run(["-c", "products show 2 --fields id -o csv --no-header >> \(target)"])
        let failed = try await plugins.run(["-c", "products show 99999 -o csv >> \(target)"])
        #expect(failed.stderr.contains("; nothing was appended to \(target)"), "\(failed.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "1\r\n2\r\n")
        await #expect(try Self.names(out) == ["log.csv"])
    }

    /// A symbolic link is written through, and a device or FIFO is written directly.
    @Test func linksAndDevicesAreWrittenThrough() async throws {
        let (plugins, out) = try await Self.slowShop()
        let real = out.appendingPathComponent("real.csv").path
        let link = out.appendingPathComponent("link.csv").path
        try "old\n".write(toFile: real, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
        let written = try await plugins.run(["-c", "products show 1 --fields id -o csv > \(link)"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "id\r\n1\r\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.csv")
        await #expect(try plugins.run(["-c", "products show 1 > /dev/null"]).status == 0)
        await #expect(try Self.names(out) == ["link.csv", "real.csv"])
    }
}
