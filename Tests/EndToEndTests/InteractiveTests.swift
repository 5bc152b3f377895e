// InteractiveTests: the real binary under a real terminal (tmux): Tab completion, history
// across restarts (file mode 0600), and Ctrl-C on a half-typed line.

import Foundation
import Testing

/// A tmux server of its own (its own socket), running shopsh in a sandbox.
final class TerminalSession {
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
        let shells = (try? shopshProcesses()) ?? []
        _ = try? tmux(["kill-server"])
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
    func shopshProcesses() throws -> [pid_t] {
        let panePID = try tmux(["display-message", "-p", "-t", "shop", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Runs tmux with posix_spawn and waitpid: the tmux server that new-session forks keeps
    /// inherited descriptors open, which stalls Foundation's Process, so output goes to a file.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try Spawn.run("/usr/bin/tmux", ["-L", socket] + arguments, environment: sandbox.environment).output
    }

    /// Starts shopsh in a new terminal (160×40 unless told), with `PAGER` when given and
    /// `arguments` after the program's name (plain words: no quote of their own). With
    /// `statusFile`, shopsh runs with its standard error closed (as when the terminal it wrote to
    /// has gone: every write to it fails) and its exit status goes to that file.
    func start(width: Int = 160, height: Int = 40, pager: String? = nil, statusFile: URL? = nil, arguments: [String] = [],
               extraEnvironment: [String: String] = [:]) throws {
        let environment = ["HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "SHOPSH_STORE", "SHOPSH_PLUGIN_PATH"].filter { sandbox.environment[$0] != nil }.map { "\($0)='\(sandbox.environment[$0] ?? "")'" }
            + (pager.map { ["PAGER='\($0)'"] } ?? []) + extraEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
        var command = "env \(environment.joined(separator: " ")) TERM=xterm '\(ShopshBinary.url.path)'"
            + arguments.map { " '\($0)'" }.joined()
        if let statusFile {
            let script = sandbox.root.appendingPathComponent("run-without-stderr.sh")
            try "\(command) 2>&-\necho $? > '\(statusFile.path)'\n".write(to: script, atomically: true, encoding: .utf8)
            command = "sh '\(script.path)'"
        }
        let started = try tmux(["new-session", "-d", "-s", "shop", "-x", String(width), "-y", String(height), "\(command); sleep 30"])
        if !started.isEmpty { Issue.record("tmux new-session: \(started)") }
        try waitFor { $0.contains("\(prompt)>") }   // capture-pane drops trailing blanks
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "shop"] + keys) }

    /// Whether a command has ended on `screen`: the prompt, alone, is back on its last line.
    func promptIsBack(_ screen: String) -> Bool {
        screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(prompt)>"
    }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "shop"]) }

    /// The screen with lines the terminal wrapped joined back (`capture-pane -J`): a row wider than
    /// the terminal shows as one line longer than it.
    func joinedScreen() throws -> String { try tmux(["capture-pane", "-p", "-J", "-t", "shop"]) }

    /// Waits up to 20 s (a loaded CI machine) for the screen to satisfy `condition`; returns the screen.
    @discardableResult
    func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        var text = ""
        for _ in 0..<400 {
            text = try screen()
            if condition(text) { return text }
            usleep(50_000)
        }
        Issue.record("timed out; the screen shows:\n\(text)", sourceLocation: sourceLocation)
        return text
    }
}

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct InteractiveTests {
    @Test func tabCompletesCommandsAndSubcommands() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")   // create the demo shop first
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("prod", "Tab")
        try terminal.waitFor { $0.contains("\(terminal.prompt)> products") }
        // The completion added the space: typing on gives "products show 5".
        try terminal.send("sh", "Tab", "5", "Enter")
        try terminal.waitFor { $0.contains("BEA-NAI-NAI-005") }
    }

    @Test func historySurvivesARestartInAPrivateFile() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")
        let first = TerminalSession(sandbox: sandbox)
        try first.start()
        try first.send("products show 1 --fields sku", "Enter")
        try first.waitFor { $0.contains("BEA-ESS-ESS-001") }
        try first.send("exit", "Enter")
        let folder = URL(fileURLWithPath: sandbox.environment["XDG_STATE_HOME"] ?? "").appendingPathComponent("shopsh")
        for _ in 0..<100 where (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true {
            usleep(50_000)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("history-") }
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(files[0]).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let second = TerminalSession(sandbox: sandbox)
        try second.start()
        try second.send("Up", "Up")   // "exit", then the command before it
        try second.waitFor { $0.contains("\(second.prompt)> products show 1 --fields sku") }
        try second.send("C-u", " history 2", "Enter")   // a leading space keeps it out of the history
        try second.waitFor { $0.contains("1  products show 1 --fields sku") && $0.contains("2  exit") }
    }

    @Test func aStandardErrorThatFailsEndsTheShellCleanlyWithItsHistorySaved() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        let status = sandbox.root.appendingPathComponent("status")
        try terminal.start(statusFile: status)
        try terminal.send("products show 1 --fields sku", "Enter")
        try terminal.waitFor { $0.contains("BEA-ESS-ESS-001") }
        // Ctrl-D: shopsh ends its line on stderr, which fails (as when a closed window or a dropped
        // SSH session took the terminal): it must still save its history and exit 0, not trap.
        try terminal.send("C-d")
        // The shell writing the status creates the file before it writes the number: wait for the number.
        for _ in 0..<400 where ((try? String(contentsOf: status, encoding: .utf8)) ?? "").isEmpty { usleep(50_000) }
        let code = try String(contentsOf: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "0", "shopsh ended with status \(code) when it could not write to standard error")
        let folder = URL(fileURLWithPath: sandbox.environment["XDG_STATE_HOME"] ?? "").appendingPathComponent("shopsh")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("history-") }
        let history = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(history.contains("products show 1 --fields sku"), "\(history)")
    }

    @Test func thePromptShowsTheCurrentCustomer() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("use emily.johnson@x.dummyjson.com", "Enter")
        try terminal.waitFor { $0.contains("\(terminal.prompt) (emilys)>") }
        try terminal.send("basket total -o csv --fields customer", "Enter")
        try terminal.waitFor { $0.contains("customer\nemilys") }
        try terminal.send("use", "Enter")
        try terminal.waitFor { $0.hasSuffix("\(terminal.prompt)>\n") || $0.contains("no current customer") }
    }

    @Test func longOutputGoesThroughThePager() throws {
        let sandbox = try ShopshSandbox()
        sandbox.environment.removeValue(forKey: "PAGER")   // the default: less -FRX
        _ = try sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("products list --limit 45 --fields id", "Enter")
        try terminal.waitFor { $0.hasSuffix(":\n") || $0.contains("\n:") }   // less's prompt
        try terminal.send("q")
        try terminal.waitFor { $0.contains("\(terminal.prompt)>") && !$0.contains("\n:") }
        try terminal.send("clear", "Enter")   // not a command: just an error line
        try terminal.send("products list --limit 45 --fields id --no-pager", "Enter")
        let screen = try terminal.waitFor { $0.contains("45\n\(terminal.prompt)>") }
        #expect(!screen.contains("\n:\n"))
    }

    @Test func ctrlCStopsARunningSourcedFileWhereItIs() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")
        let lines = 100_000
        let path = try sandbox.file("long.shop", String(repeating: "products show 1 --fields sku\n", count: lines))
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("set pager off", "Enter")
        try terminal.send("source \(path)", "Enter")
        try terminal.waitFor { $0.contains("sku  BEA-ESS-ESS-001") }   // running
        try terminal.send("C-c")
        let screen = try terminal.waitFor { screen in   // the error, then the prompt on the last line
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
        try terminal.send("products show 3 --fields sku", "Enter")
        try terminal.waitFor { $0.contains("BEA-VEL-POW-003") }
    }

    @Test func ctrlCClearsTheLineAndTheShellStaysUp() throws {
        let sandbox = try ShopshSandbox()
        _ = try sandbox.ok("products show 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try terminal.start()
        try terminal.send("products show half-typed", "C-c")
        try terminal.waitFor { screen in   // handled: "^C", then an empty prompt on the last line
            screen.contains("^C")
                && screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) == "\(terminal.prompt)>"
        }
        try terminal.send("products show 3 --fields sku", "Enter")
        let screen = try terminal.waitFor { $0.contains("BEA-VEL-POW-003") }
        #expect(!screen.contains("no product with id or SKU \"half-typed"))
    }
}
