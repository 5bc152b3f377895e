// ExternalCommand: runs `NAME COMMAND ARGS…` for an external plugin: its environment, its
// NDJSON rows streamed through the output layer, and its failures as one error line.

import Foundation
import ShopCore
import ShopOutput
import LineEditor
import PluginHost
import PluginProtocol

/// Runs one external plugin command in `context`.
enum ExternalCommand {
    /// Runs `words` (the plugin's name first) for `plugin`, which has a description.
    static func run(_ plugin: ExternalPlugin, description: PluginDescription, words: [String],
                    in context: CommandContext) async throws {
        let invocation = try ExternalInvocation.parse(Array(words.dropFirst()), description: description)
        guard !invocation.wantsHelp, let command = invocation.command else {
            context.sink.write(ExternalHelp.text(plugin, description: description, command: invocation.command))
            return
        }
        let session = context.session
        if command.writes, let refusal = refusal(of: plugin.name + " " + command.name, in: session) { throw refusal }
        // A run's one transaction holds its locks while the plugin runs: a plugin waiting on
        // them (writing despite its description) would wait for ever, and the run with it.
        let bound = try session.oneTransaction.map { run throws(ShopError) in (run, try timeout(context.environment)) }
        let child = try ChildProcess.spawn(path: plugin.path, arguments: invocation.pluginArguments,
                                           environment: environment(for: context))
        if session.oneTransaction != nil && !session.pluginsOutsideTheRun.contains(plugin.name) {
            session.pluginsOutsideTheRun.append(plugin.name)
        }
        let deadline = bound.map { ContinuousClock.now + .milliseconds(Int64(($0.1 * 1000).rounded(.up))) }
        let forwarded = context.host.isInteractive ? nil : EndingSignals.forward(to: child.pid)
        defer { if let forwarded { EndingSignals.release(forwarded) } }
        let rendered: Bool
        let ending: ChildProcess.Ending
        do {
            do {
                rendered = try await render(child, options: invocation.output, deadline: deadline, in: context)
                ending = try child.wait(deadline: deadline, isInterrupted: { Interrupt.isRequested })
            } catch ChildProcess.ReadStop.interrupted {
                throw ShopError.interrupted
            } catch ChildProcess.ReadStop.timedOut {
                let (run, limit) = bound ?? (.atomic, 0)
                throw ShopError.system("stopped after \(seconds(limit)), the most a plugin may run in \(run == .atomic ? "an" : "a") "
                                       + "\(run.flag) run (\(timeoutVariable)), which holds its locks meanwhile; "
                                       + "its processes were killed")
            }
        } catch let error as ShopError {
            child.stop()
            if error == .interrupted { throw error }
            throw ShopError.system(plugin.name + ": " + error.message)
        } catch {
            child.stop()
            throw error
        }
        switch ending {
        case .exited(0):
            // No rows: an empty listing, once the plugin is known to have succeeded.
            if !rendered {
                try await context.list(columns: [], options: invocation.output, page: Page(), emptyNote: "no rows") { _ in }
            }
        case .exited(let code):
            throw ShopError.system(plugin.name + ": " + (child.lastStderrLine ?? "exited with status \(code)"))
        case .signaled(let signal):
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
            throw ShopError.system(plugin.name + ": killed by \(name.lowercased()) (signal \(signal))")
        }
    }

    // MARK: - Promises of the session and the run

    /// Why `command` (a plugin command that may change the shop) is not started in `session`:
    /// a read-only session, and an `--atomic` or `--dry-run` run (which could not undo what
    /// another program changes), keep their promise only for commands declared read-only.
    static func refusal(of command: String, in session: Session) -> ShopError? {
        let context: String
        if let reason = session.identity.readOnlyReason {
            context = "this session is read-only (\(reason))"
        } else if let run = session.oneTransaction {
            context = "this \(run.flag) run could not undo what it changes"
        } else {
            return nil
        }
        return .conflict("\(command) may change the shop (its description does not say \"writes\": false), and "
                         + context + ": it was not started; nothing was changed")
    }

    /// The variable that sets how long a plugin may run in an `--atomic` or `--dry-run` run.
    static let timeoutVariable = "SHOPSH_PLUGIN_TIMEOUT"
    /// How many seconds a plugin may run in an `--atomic` or `--dry-run` run unless
    /// ``timeoutVariable`` says.
    static let defaultTimeout = 60.0

    /// The bound in seconds from ``timeoutVariable`` (above 0), else ``defaultTimeout``.
    static func timeout(_ environment: [String: String]) throws(ShopError) -> Double {
        guard let text = environment[timeoutVariable], !text.isEmpty else { return defaultTimeout }
        guard let value = Double(text), value.isFinite, value > 0, value <= 1e9 else {
            throw .usage("\(timeoutVariable) must be a number of seconds above 0 (such as 60 or 0.5), not \"\(text)\"")
        }
        return value
    }

    /// `2 s`, `0.5 s`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int64(value)) s" : "\(value) s"
    }

    // MARK: - Environment and rows

    /// The plugin's environment: the shell's, and what protocol 1 adds.
    ///
    /// `SHOPSH_STORE` is the store's location as the operator named it, which for PostgreSQL is
    /// the URL without its password: the plugin's own `shopsh` call finds the password where
    /// this one did (PGPASSWORD, ~/.pgpass), so it is never put in an environment that `ps e`
    /// shows. Unset variables are removed, so a stale `SHOPSH_USER` from outside never leaks in.
    /// `SHOPSH_READ_ONLY=1` in a read-only session, and in an `--atomic` or `--dry-run` run, makes
    /// the plugin's shopsh calls read-only.
    static func environment(for context: CommandContext) -> [String: String] {
        var environment = context.environment
        let session = context.session
        environment["SHOPSH_PROTOCOL"] = "1"
        environment["SHOPSH_STORE"] = session.storeLocation
        environment["SHOPSH_USER"] = session.currentUser
        environment["SHOPSH_OPERATOR"] = session.identity.name
        environment["SHOPSH_BIN"] = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first
        // A read-only session's plugins may not write through shopsh either; nor may those of an
        // --atomic or --dry-run run: their writes would escape its one transaction.
        environment["SHOPSH_READ_ONLY"] = session.identity.readOnlyReason == nil && session.oneTransaction == nil ? nil : "1"
        // The plugin's own shopsh calls choose their format (`-o ndjson`); the operator's default
        // format is for the operator's terminal.
        environment["SHOPSH_FORMAT"] = nil
        return environment
    }

    /// Streams the plugin's rows to the output: the first row's keys are the columns. Returns
    /// false, rendering nothing, when there are no rows.
    private static func render(_ child: ChildProcess, options: OutputOptions, deadline: ContinuousClock.Instant?,
                               in context: CommandContext) async throws -> Bool {
        var lines = LineSplitter()
        var ended = false
        /// The next row, or nil at the end of the output.
        func nextRow() throws -> (JSONObject, Int)? {
            while true {
                if let line = try lines.next(atEnd: ended) {
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                    return (try ExternalRow.object(line, number: lines.lineNumber), lines.lineNumber)
                }
                if ended { return nil }
                // Rows so far reach the screen before waiting for more: a slow plugin streams.
                try context.sink.flush()
                if let chunk = try child.readStdout(deadline: deadline, isInterrupted: { Interrupt.isRequested }) { lines.append(chunk) } else { ended = true }
            }
        }
        guard let (object, number) = try nextRow() else { return false }
        let keys = object.keys
        try await context.list(columns: keys.map(Column.init), options: options, page: Page(), emptyNote: "no rows") { emit in
            try emit(try ExternalRow.cells(object, columns: keys, number: number))
            while let (object, number) = try nextRow() {
                try emit(try ExternalRow.cells(object, columns: keys, number: number))
            }
        }
        return true
    }
}
