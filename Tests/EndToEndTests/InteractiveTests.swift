// InteractiveTests: the real binary under a real terminal (tmux): Tab completion, history
// across restarts (file mode 0600), and Ctrl-C on a half-typed line.

import Foundation
import Testing

/// A tmux server of its own (its own socket), running shopsh in a sandbox.
final class TerminalSession: @unchecked Sendable {
    let sandbox: ShopshSandbox
    let socket: String
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    /// What the prompt starts with: the store's name.
    var prompt: String { sandbox.prompt }

    init(sandbox: ShopshSandbox) {
        self.sandbox = sandbox
        socket = "shopsh-test-\(UUID().uuidString.prefix(8))"
    }

    /// Ends the terminal and waits (up to 2 s) for shopsh to exit: it saves its history on the
    /// hang-up, and must be done before the sandbox's folder is removed.
    deinit {
        let shells = (try? shopshProcessesNow()) ?? []
        _ = try? Spawn.runNow("/usr/bin/tmux", ["-L", socket, "kill-server"], environment: sandbox.environment)
        for pid in shells {
            for _ in 0..<200 where Self.isRunning(pid) { usleep(10_000) }
        }
    }

    /// Whether `pid` is alive (a zombie waiting for its parent counts as ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return false }
        return !stat[afterName.upperBound...].hasPrefix("Z")
    }

    /// The processes running in the pane (shopsh, started by the pane's shell).
    func shopshProcesses() async throws -> [pid_t] {
        try await offThePool { try self.shopshProcessesNow() }
    }

    /// `shopshProcesses` on the calling thread (for `deinit`).
    func shopshProcessesNow() throws -> [pid_t] {
        let panePID = try Spawn.runNow("/usr/bin/tmux", ["-L", socket, "display-message", "-p", "-t", "shop", "#{pane_pid}"],
                                       environment: sandbox.environment).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Runs tmux with posix_spawn and waitpid: the tmux server that new-session forks keeps
    /// inherited descriptors open, which stalls Foundation's Process, so output goes to a file.
    @discardableResult
    func tmux(_ arguments: [String]) async throws -> String {
        try await Spawn.run("/usr/bin/tmux", ["-L", socket] + arguments, environment: sandbox.environment).output
    }

    /// Starts shopsh in a new terminal (160×40 unless told), with `PAGER` when given and
    /// `arguments` after the program's name (plain words: no quote of their own). With
    /// `statusFile`, shopsh runs with its standard error closed (as when the terminal it wrote to
    /// has gone: every write to it fails) and its exit status goes to that file.
    func start(width: Int = 160, height: Int = 40, pager: String? = nil, statusFile: URL? = nil, arguments: [String] = [],
               extraEnvironment: [String: String] = [:]) async throws {
        let environment = ["HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "SHOPSH_STORE", "SHOPSH_PLUGIN_PATH"].filter { sandbox.environment[$0] != nil }.map { "\($0)='\(sandbox.environment[$0] ?? "")'" }
            + (pager.map { ["PAGER='\($0)'"] } ?? []) + extraEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
        var command = "env \(environment.joined(separator: " ")) TERM=xterm '\(ShopshBinary.url.path)'"
            + arguments.map { " '\($0)'" }.joined()
        if let statusFile {
            let script = sandbox.root.appendingPathComponent("run-without-stderr.sh")
            try "\(command) 2>&-\necho $? > '\(statusFile.path)'\n".write(to: script, atomically: true, encoding: .utf8)
            command = "sh '\(script.path)'"
        }
        let started = try await tmux(["new-session", "-d", "-s", "shop", "-x", String(width), "-y", String(height), "\(command); sleep 30"])
        if !started.isEmpty { Issue.record("tmux new-session: \(started)") }
        try await waitFor { $0.contains("\(prompt)>") }   // capture-pane drops trailing blanks
    }

    func send(_ keys: String...) async throws { try await tmux(["send-keys", "-t", "shop"] + keys) }

    /// `send` on the calling thread: only where a test cannot await (a `defer`).
    func sendNow(_ keys: String...) throws {
        _ = try Spawn.runNow("/usr/bin/tmux", ["-L", socket, "send-keys", "-t", "shop"] + keys, environment: sandbox.environment)
    }

    /// Whether a command has ended on `screen`: the prompt, alone, is back on its last line.
    func promptIsBack(_ screen: String) -> Bool {
        screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(prompt)>"
    }

    func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-t", "shop"]) }

    /// The screen with lines the terminal wrapped joined back (`capture-pane -J`): a row wider than
    /// the terminal shows as one line longer than it.
    func joinedScreen() async throws -> String { try await tmux(["capture-pane", "-p", "-J", "-t", "shop"]) }

    /// Waits up to 20 s (a loaded CI machine) for the screen to satisfy `condition`; returns the screen.
    @discardableResult
    func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        var text = ""
        for _ in 0..<400 {
            text = try await screen()
            if condition(text) { return text }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out; the screen shows:\n\(text)", sourceLocation: sourceLocation)
        return text
    }
}

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct InteractiveTests {
    @Test func tabCompletesCommandsAndSubcommands() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")   // create the demo shop first
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("prod", "Tab")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)> products") }
        // The completion added the space: typing on gives "products show 5".
        try await terminal.send("sh", "Tab", "5", "Enter")
        try await terminal.waitFor { $0.contains("BEA-NAI-NAI-005") }
    }

    @Test func historySurvivesARestartInAPrivateFile() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let first = TerminalSession(sandbox: sandbox)
        try await first.start()
        try await first.send("products show 1 --fields sku", "Enter")
        try await first.waitFor { $0.contains("BEA-ESS-ESS-001") }
        try await first.send("exit", "Enter")
        let folder = URL(fileURLWithPath: sandbox.environment["XDG_STATE_HOME"] ?? "").appendingPathComponent("shopsh")
        for _ in 0..<100 where (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("history-") }
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files[0]).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let second = TerminalSession(sandbox: sandbox)
        try await second.start()
        try await second.send("Up", "Up")   // "exit", then the command before it
        try await second.waitFor { $0.contains("\(second.prompt)> products show 1 --fields sku") }
        try await second.send("C-u", " history 2", "Enter")   // a leading space keeps it out of the history
        try await second.waitFor { $0.contains("1  products show 1 --fields sku") && $0.contains("2  exit") }
    }

    @Test func aStandardErrorThatFailsEndsTheShellCleanlyWithItsHistorySaved() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        let status = sandbox.root.appendingPathComponent("status")
        try await terminal.start(statusFile: status)
        try await terminal.send("products show 1 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        // Ctrl-D: shopsh ends its line on stderr, which fails (as when a closed window or a dropped
        // SSH session took the terminal): it must still save its history and exit 0, not trap.
        try await terminal.send("C-d")
        // The shell writing the status creates the file before it writes the number: wait for the number.
        for _ in 0..<400 where ((try? String(contentsOf: status, encoding: .utf8)) ?? "").isEmpty { try? await Task.sleep(for: .milliseconds(50)) }
        let code = try String(contentsOf: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "0", "shopsh ended with status \(code) when it could not write to standard error")
        let folder = URL(fileURLWithPath: sandbox.environment["XDG_STATE_HOME"] ?? "").appendingPathComponent("shopsh")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("history-") }
        let history = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(history.contains("products show 1 --fields sku"), "\(history)")
    }

    @Test func thePromptShowsTheCurrentCustomer() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("use emily.johnson@x.dummyjson.com", "Enter")
        try await terminal.waitFor { $0.contains("\(terminal.prompt) (emilys)>") }
        try await terminal.send("basket total -o csv --fields customer", "Enter")
        try await terminal.waitFor { $0.contains("customer\nemilys") }
        try await terminal.send("use", "Enter")
        try await terminal.waitFor { $0.hasSuffix("\(terminal.prompt)>\n") || $0.contains("no current customer") }
    }

    @Test func longOutputGoesThroughThePager() async throws {
        let sandbox = try await ShopshSandbox()
        sandbox.environment.removeValue(forKey: "PAGER")   // the default: less -FRX
        _ = try await sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("products list --limit 45 --fields id", "Enter")
        try await terminal.waitFor { $0.hasSuffix(":\n") || $0.contains("\n:") }   // less's prompt
        try await terminal.send("q")
        try await terminal.waitFor { $0.contains("\(terminal.prompt)>") && !$0.contains("\n:") }
        try await terminal.send("clear", "Enter")   // not a command: just an error line
        try await terminal.send("products list --limit 45 --fields id --no-pager", "Enter")
        let screen = try await terminal.waitFor { $0.contains("45\n\(terminal.prompt)>") }
        #expect(!screen.contains("\n:\n"))
    }

    @Test func ctrlCStopsARunningSourcedFileWhereItIs() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let lines = 100_000
        let path = try sandbox.file("long.shop", String(repeating: "products show 1 --fields sku\n", count: lines))
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("set pager off", "Enter")
        try await terminal.send("source \(path)", "Enter")
        try await terminal.waitFor { $0.contains("sku  BEA-ESS-ESS-001") }   // running
        try await terminal.send("C-c")
        let screen = try await terminal.waitFor { screen in   // the error, then the prompt on the last line
            screen.contains("error: interrupted")
                && screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(terminal.prompt)>"
        }
        // Stopped at a line of the file, well before its end; nothing else was reported.
        // The terminal's echo of Ctrl-C (`^C`) may land at the start of the error's line, depending on timing.
        let stoppedAt = screen.split(separator: "\n").map { $0.hasPrefix("^C") ? $0.dropFirst(2) : $0 }
            .first { $0.hasPrefix("\(path):") && $0.hasSuffix(": error: interrupted") }
        let line = stoppedAt.flatMap { Int($0.dropFirst(path.count + 1).prefix { $0.isNumber }) }
        #expect(line.map { $0 < lines } == true, "screen:\n\(screen)")
        #expect(!screen.contains("SourcedFileFailed"))
        try await terminal.send("products show 3 --fields sku", "Enter")
        try await terminal.waitFor { $0.contains("BEA-VEL-POW-003") }
    }

    @Test func ctrlCClearsTheLineAndTheShellStaysUp() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start()
        try await terminal.send("products show half-typed", "C-c")
        try await terminal.waitFor { screen in   // handled: "^C", then an empty prompt on the last line
            screen.contains("^C")
                && screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(terminal.prompt)>"
        }
        try await terminal.send("products show 3 --fields sku", "Enter")
        let screen = try await terminal.waitFor { $0.contains("BEA-VEL-POW-003") }
        #expect(!screen.contains("no product with id or SKU \"half-typed"))
    }
}
