// ExternalCommand: runs `NAME COMMAND ARGS…` for an external plugin: its environment, its
// NDJSON rows streamed through the output layer, and its failures as one error line.

import Foundation
import ShopCore
import ShopOutput

/// Runs one external plugin command in `context`.
enum ExternalCommand {
    /// Runs `words` (the plugin's name first) for `plugin`, which has a description.
    static func run(_ plugin: ExternalPlugin, description: PluginDescription, words: [String],
                    in context: CommandContext) async throws {
        let invocation = try ExternalInvocation.parse(Array(words.dropFirst()), description: description)
        guard !invocation.wantsHelp, invocation.command != nil else {
            context.sink.write(ExternalHelp.text(plugin, description: description, command: invocation.command))
            return
        }
        let child = try ChildProcess.spawn(path: plugin.path, arguments: invocation.pluginArguments,
                                           environment: environment(for: context))
        let forwarded = context.host.isInteractive ? [] : PluginSignals.start(forwardingTo: child.pid)
        defer { PluginSignals.stop(forwarded) }
        let rendered: Bool
        do {
            rendered = try await render(child, options: invocation.output, in: context)
        } catch let error as ShopError {
            child.stop()
            if error == .interrupted { throw error }
            throw ShopError.system(plugin.name + ": " + error.message)
        } catch {
            child.stop()
            throw error
        }
        let ending: ChildProcess.Ending
        do {
            ending = try child.wait()
        } catch {
            child.stop()
            throw ShopError.interrupted
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
        environment["SHOPSH_READ_ONLY"] = session.identity.readOnlyReason == nil && !session.runsInOneTransaction ? nil : "1"
        // The plugin's own shopsh calls choose their format (`-o ndjson`); the operator's default
        // format is for the operator's terminal.
        environment["SHOPSH_FORMAT"] = nil
        return environment
    }

    /// Streams the plugin's rows to the output: the first row's keys are the columns. Returns
    /// false, rendering nothing, when there are no rows.
    private static func render(_ child: ChildProcess, options: OutputOptions, in context: CommandContext) async throws -> Bool {
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
                do {
                    if let chunk = try child.readStdout() { lines.append(chunk) } else { ended = true }
                } catch ChildProcess.ReadStop.interrupted {
                    throw ShopError.interrupted
                }
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
