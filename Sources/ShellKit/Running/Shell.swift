// Shell: runs command lines: built-ins and plugins, errors reported as one line, exit status kept.

import ArgumentParser
import Foundation
import ShopCore
import ShopOutput
import LineEditor
import PluginHost

/// How one command ended.
public enum CommandOutcome: Equatable, Sendable {
    case success
    /// The command failed (exit status 1).
    case failure
    /// The command was used wrongly: unknown command or flag (exit status 2).
    case usageError
}

/// The command interpreter shared by the prompt, `-c`, `-f` and stdin batches.
public final class Shell: ShellHost, @unchecked Sendable {
    /// Finds and parses commands (on any thread: batches parse ahead).
    let parser: CommandParser
    public var plugins: [ShellPlugin] { parser.plugins }
    public var builtins: [any ShellCommand.Type] { parser.builtins }
    /// All command names the operator can type first.
    public var commandNames: [String] { parser.commandNames }
    public let services: ShopServices
    public let session: Session
    public let terminal: Terminal
    public let environment: [String: String]
    /// Standard output, buffered; flushed after every command.
    public let stdout: OutputSink
    /// Where error lines and notes go (stderr, unbuffered).
    private let stderrWriter: @Sendable (String) -> Void
    /// Set by `exit`/`quit`: the run stops after the current command.
    public private(set) var exitRequested = false
    /// The status `exit N` asked for, if it named one.
    public private(set) var exitStatus: Int32?
    /// The arguments of the aliases being run, innermost last (`$1`, `$@`).
    var argumentFrames: [[String]] = []
    /// The aliases being run, outermost first (an alias may not call itself).
    var aliasStack: [String] = []
    /// How many `$(…)` are being captured, one inside another.
    var captureDepth = 0
    /// Files being sourced, to refuse a file that sources itself.
    private var sourcing: [String] = []
    /// How many scripts (`-f`, `source`) are running, one inside another.
    var scriptDepth = 0
    /// How many commands run for another command (`watch`'s rounds), one inside another.
    var nestedDepth = 0
    /// The outcome of the last run of each line typed at the prompt in this session.
    private var promptOutcomes: [String: CommandOutcome] = [:]
    /// While a command writes `> FILE`: what its failure leaves of FILE (`out.csv was left as it
    /// was`), said on its error line.
    private var abandonedRedirectNote: String?

    /// `stdout` and `stderr` default to the process's streams; tests pass a memory sink and a collector.
    public init(services: ShopServices, plugins: [ShellPlugin], session: Session, terminal: Terminal,
                environment: [String: String], stdout: OutputSink = OutputSink(fileDescriptor: STDOUT_FILENO),
                stderr: (@Sendable (String) -> Void)? = nil) {
        self.stdout = stdout
        self.stderrWriter = stderr ?? Shell.writeToProcessStderr
        self.services = services
        self.parser = CommandParser(plugins: plugins)
        self.session = session
        self.terminal = terminal
        self.environment = environment
    }

    // MARK: - Running one command

    /// Runs one command line. Errors are reported on stderr, prefixed by `location` if given.
    public func execute(line: String, location: String? = nil) async -> CommandOutcome {
        let outcome = await execute(parser.prepare(line), location: location)
        if isInteractive && location == nil && scriptDepth == 0 { promptOutcomes[line] = outcome }
        return outcome
    }

    func execute(_ prepared: CommandParser.PreparedLine, location: String?) async -> CommandOutcome {
        guard session.timing && nestedDepth == 0 && aliasStack.isEmpty else { return await executeTimed(prepared, location: location) }
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = await executeTimed(prepared, location: location)
        writeToStderr("Time: \(Self.milliseconds(clock.now - started)) ms\n")
        return outcome
    }

    /// `12.345`: a duration in milliseconds with three decimals, as psql's `\timing` shows it.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private func executeTimed(_ prepared: CommandParser.PreparedLine, location: String?) async -> CommandOutcome {
        var parsed: ParsedLine
        switch prepared.line {
        case .success(let line): parsed = line
        case .failure(let error):
            report(error, location: location, words: [])
            return .usageError
        }
        if let template = prepared.template {
            do {
                parsed = try await resolve(template, location: location)
            } catch {
                return outcome(ofExpansionError: error, location: location, words: parsed.words)
            }
            return await execute(parsed: parsed, location: location, command: nil)
        }
        return await execute(parsed: parsed, location: location, command: prepared.command)
    }

    /// Runs a line whose expansions are resolved: its words, to its `| CMD` or `> FILE` if any.
    func execute(parsed: ParsedLine, location: String?, command: CommandParser.ParsedCommand?) async -> CommandOutcome {
        if parsed.words.isEmpty && parsed.pipeCommand == nil && parsed.redirect == nil { return .success }
        guard !parsed.words.isEmpty else {
            report(ShopError.usage("missing command before | or >"), location: location, words: [])
            return .usageError
        }
        guard parsed.redirect != nil || parsed.pipeCommand != nil else {
            return await execute(words: parsed.words, location: location, command: command)
        }
        flushStdout()
        let destination: OutputDestination
        do {
            destination = try parsed.pipeCommand.map { command throws(ShopError) in try OutputDestination.pipe(to: command) }
                ?? OutputDestination.file(parsed.redirect ?? Redirect(path: "", append: false))
        } catch {
            report(error, location: location, words: parsed.words)
            return .failure
        }
        let enclosing = abandonedRedirectNote
        abandonedRedirectNote = destination.abandonedNote ?? enclosing
        let outcome = await execute(words: parsed.words, location: location, destination: destination,
                                    command: command)
        abandonedRedirectNote = enclosing
        if let failed = destination.finish(keep: outcome == .success), outcome == .success {
            report(failed, location: location, words: parsed.words)
            return .failure
        }
        return outcome
    }

    /// Runs one command given as words (`["products", "list", "--all"]`). On a terminal, output
    /// taller than the screen goes through the pager unless `--no-pager` or `set pager off`.
    public func execute(words: [String], location: String? = nil) async -> CommandOutcome {
        await execute(words: words, location: location, command: nil)
    }

    func execute(words: [String], location: String?, command: CommandParser.ParsedCommand?) async -> CommandOutcome {
        guard terminal.stdoutIsTerminal, session.pager, !words.contains("--no-pager"), !drawsItsOwnScreen(words),
              Pager.command(environment: environment) != nil else {
            return await execute(words: words, location: location,
                                 destination: .standardOutput(stdout, isTerminal: terminal.stdoutIsTerminal), command: command)
        }
        let screen = OutputSink.memory()
        heldForPager = screen
        let outcome = await execute(words: words, location: location, destination: .standardOutput(screen, isTerminal: true),
                                    command: command)
        heldForPager = nil
        Pager.show(screen.memoryText, environment: environment, stdout: stdout)
        return outcome
    }

    /// Whether `words` run `watch`, which redraws the screen round after round, or follow the
    /// shop as it changes (`--follow`, until Ctrl-C): their output goes to the terminal as it
    /// comes, never to the pager.
    func drawsItsOwnScreen(_ words: [String]) -> Bool {
        if words.contains("--follow") { return true }
        guard let name = words.first, let type = parser.commandType(named: name) else { return false }
        return ObjectIdentifier(type) == ObjectIdentifier(WatchCommand.self)
    }

    func execute(words: [String], location: String?, destination: OutputDestination,
                 command prepared: CommandParser.ParsedCommand?) async -> CommandOutcome {
        // A Ctrl-C is forgotten when the operator's next command starts, not between the
        // commands of a script: the script stops at it (see `run(script:)`).
        if scriptDepth == 0 && nestedDepth == 0 && aliasStack.isEmpty { Interrupt.clear() }
        if let name = words.first, let body = session.aliases[name], parser.commandType(named: name) == nil {
            return await runAlias(name, body: body, arguments: Array(words.dropFirst()), location: location, destination: destination)
        }
        let context = CommandContext(services: services, session: session, terminal: terminal,
                                     environment: environment, sink: destination.sink,
                                     sinkIsTerminal: destination.isTerminal, host: self, location: location)
        let stdout = destination.sink
        defer { try? stdout.flush() }
        guard let prepared = prepared ?? parser.parseCommand(words) else { return .success }
        guard let root = prepared.root else {
            if let name = words.first, let plugin = externalPlugin(named: name) {
                return await runExternal(plugin, words: words, context: context, location: location)
            }
            if case .failure(let error) = prepared.result { report(error, location: location, words: words) }
            return .usageError
        }
        let arguments = Array(words.dropFirst())
        do {
            let parsed = try prepared.result.get()
            if let command = parsed as? any ShellCommand {
                let type = type(of: command)
                context.command = (root, type)
                if let needed = command.invocationOperation?.leastRole,
                   let refusal = session.identity.refusal(of: context.commandPath, needs: needed) { throw refusal }
                let audit = AuditContext(command: Self.auditText(words), operatorIdentity: session.identity)
                try await AuditContext.$current.withValue(audit) { try await command.run(in: context) }
            } else {
                // A plugin's name alone, `--help`, or `products help list` (argument-parser answers
                // those with its own help command): show the help of the subcommand named.
                let path = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
                stdout.write(root.helpMessage(for: parser.subcommand(of: root, path: path), columns: helpColumns))
                stdout.write("\n")
            }
            return .success
        } catch {
            if let outcome = outcome(ofShellError: error, location: location, words: words) { return outcome }
            let code = root.exitCode(for: error)
            if code == .success {
                stdout.write(root.fullMessage(for: error, columns: helpColumns))
                stdout.write("\n")
                return .success
            }
            let message = ParserMessage.oneLine(root, error)
            let isUsage = code == .validationFailure
            let hint = isUsage ? " (see '\(parser.helpPath(root: root, arguments: arguments)) --help')" : ""
            report(isUsage ? ShopError.usage(message + hint) : ShopError.invalidInput(message),
                   location: location, words: words)
            return isUsage ? .usageError : .failure
        }
    }

    /// Runs an external plugin's command (the first word is not a built-in's): a plugin whose
    /// describe failed is one error line.
    func runExternal(_ plugin: ExternalPlugin, words: [String], context: CommandContext, location: String?) async -> CommandOutcome {
        do {
            guard let description = plugin.description else {
                throw ShopError.system(plugin.warning ?? "plugin \(plugin.name) cannot run")
            }
            try await ExternalCommand.run(plugin, description: description, words: words, in: context)
            return .success
        } catch {
            if let outcome = outcome(ofShellError: error, location: location, words: words) { return outcome }
            report(ShopError.system("\(plugin.name): \(error)"), location: location, words: words)
            return .failure
        }
    }

    /// How a command that threw one of the shell's own errors ends (reporting it); nil for
    /// another error (argument-parser's, for the caller to word).
    private func outcome(ofShellError error: any Error, location: String?, words: [String]) -> CommandOutcome? {
        switch error {
        case let error as ShopError:
            // A round of `watch` stopped by Ctrl-C: watch stops too, without an error.
            if error == .interrupted && nestedDepth > 0 { return .failure }
            // A change kept whose answer was lost: one line saying so, and the batch goes on.
            if case .keptWithoutAnswer(let message) = error {
                writeToStderr(ErrorLine.text(message, location: location, format: OutputOptions.format(in: words, fallback: session.output.format),
                                             toTerminal: terminal.stderrIsTerminal, kind: .note))
                return .success
            }
            report(error, location: location, words: words)
            return error.isUsageError ? .usageError : .failure
        case let error as AlreadyReported:
            return error.usage ? .usageError : .failure   // the file's failing line said why
        case let error as OutputError:
            if error == .brokenPipe { return .success }
            report(ShopError.system("cannot write output: \(error)"), location: location, words: words)
            return .failure
        default:
            return nil
        }
    }

    /// The command as the audit log keeps it: its words, quoted where needed, secrets as `***`.
    static func auditText(_ words: [String]) -> String {
        CommandSecrets.masked(words.map(LineParser.quotedIfNeeded).joined(separator: " "))
    }

    // MARK: - Batches

    /// Runs `commands` in order. Stops at the first failure unless `continueOnError`, and at
    /// Ctrl-C (`source` at the prompt) whatever the options. Returns the worst outcome.
    public func run(script commands: some Sequence<ScriptCommand>, label: String,
                    continueOnError: Bool) async -> CommandOutcome {
        let commands = Array(commands)
        let steps: [ScriptStep]
        do {
            steps = try ScriptBlocks.steps(of: commands)
        } catch {
            report(ShopError.usage(error.message), location: "\(label):\(error.line)", words: [])
            return .usageError
        }
        guard steps.count == commands.count else {
            scriptDepth += 1
            defer { scriptDepth -= 1 }
            return await run(steps: steps, label: label, continueOnError: continueOnError).outcome
        }
        var worst = CommandOutcome.success
        let ahead = ParseAhead(commands) { [parser] line in parser.prepare(line) }
        defer { ahead.stop() }
        scriptDepth += 1
        defer { scriptDepth -= 1 }
        while let (command, prepared) = ahead.next() {
            let location = "\(label):\(command.line)"
            let outcome = await execute(prepared, location: location)
            worst = Self.worse(worst, outcome)
            if Interrupt.isRequested {
                // A command that saw Ctrl-C itself has said so; one that finished first has not.
                if outcome == .success { report(ShopError.interrupted, location: location, words: []) }
                return Self.worse(worst, .failure)
            }
            if exitRequested { break }
            if outcome != .success && !continueOnError { break }
        }
        return worst
    }

    /// Runs a file of commands (`-f FILE`, `source FILE`).
    public func run(file path: String, continueOnError: Bool) async -> CommandOutcome {
        let text: String
        do {
            text = try FileInput.readText(path)
        } catch {
            report(error, location: nil, words: [])
            return .failure
        }
        return await run(script: ScriptReader.commands(in: text), label: path, continueOnError: continueOnError)
    }

    public static func worse(_ a: CommandOutcome, _ b: CommandOutcome) -> CommandOutcome {
        if a == .usageError || b == .usageError { return .usageError }
        if a == .failure || b == .failure { return .failure }
        return .success
    }

    // MARK: - ShellHost

    public func source(path: String, context: CommandContext) async throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard !sourcing.contains(absolute) else { throw ShopError.usage("\(path) is already being sourced") }
        sourcing.append(absolute)
        defer { sourcing.removeLast() }
        let outcome = await run(file: path, continueOnError: false)
        if outcome == .failure { throw AlreadyReported() }
        if outcome == .usageError { throw AlreadyReported(usage: true) }
    }

    public func requestExit() { exitRequested = true }

    public func recordHistory(_ line: String) { historyRecorder?(line) }

    public func requestExit(status: Int32?) {
        exitRequested = true
        if let status { exitStatus = status }
    }

    public func run(words: [String], for context: CommandContext) async -> CommandOutcome {
        nestedDepth += 1
        defer { nestedDepth -= 1 }
        flushStdout()
        return await execute(words: words, location: context.location,
                             destination: .standardOutput(context.sink, isTerminal: context.sinkIsTerminal), command: nil)
    }

    /// Whether this shell runs the interactive prompt, which sets ``historySource``.
    public var isInteractive: Bool { historySource != nil }

    /// Where `history` reads from outside the prompt: the store's saved prompt history.
    public var savedHistorySource: (() -> [String])?

    /// Records a command in the prompt's history (`edit` records what it ran); set by the prompt.
    public var historyRecorder: ((String) -> Void)?

    /// The running command's output, held to go through the pager when it ends.
    private var heldForPager: OutputSink?

    public func showOutputSoFar() {
        if let held = heldForPager { Pager.show(held.takeMemoryText(), environment: environment, stdout: stdout) }
        flushStdout()
    }

    public func neededRole(of words: [String]) -> OperatorRole? {
        guard case .success(let parsed)? = parser.parseCommand(words)?.result, let command = parsed as? any ShellCommand else {
            return nil
        }
        return command.invocationOperation?.leastRole
    }

    public func promptOutcome(of line: String) -> CommandOutcome? { promptOutcomes[line] }

    public func externalPlugins() -> [ExternalPlugin] {
        ExternalPluginFinder.all(environment: environment, builtinNames: Set(commandNames))
    }

    public func externalPlugin(named name: String) -> ExternalPlugin? {
        ExternalPluginFinder.find(name, environment: environment, builtinNames: Set(commandNames))
    }

    /// Where `history` reads from: the interactive line reader sets it.
    public var historySource: (() -> [String])?

    public var history: [String] { historySource?() ?? savedHistorySource?() ?? [] }

    public func writeToStderr(_ text: String) {
        flushStdout()
        stderrWriter(text)
    }

    static func writeToProcessStderr(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { if written < 0 && errno == EINTR { continue }; return }
                offset += written
            }
        }
    }

    // MARK: - Errors

    /// Reports `error` as a command's failure at `location` and returns that outcome (for input
    /// that never became a command, such as a line that is not UTF-8).
    public func fail(_ error: ShopError, location: String?) -> CommandOutcome {
        report(error, location: location, words: [])
        return error.isUsageError ? .usageError : .failure
    }

    /// Writes one error line (``ErrorLine``): a JSON object when the command's (or the
    /// session's) format is json or ndjson.
    func report(_ error: any Error, location: String?, words: [String]) {
        let message = ((error as? ShopError)?.message ?? "\(error)") + (abandonedRedirectNote.map { "; " + $0 } ?? "")
        writeToStderr(ErrorLine.text(message, location: location, format: OutputOptions.format(in: words, fallback: session.output.format),
                                     toTerminal: terminal.stderrIsTerminal))
    }

    var helpColumns: Int? { terminal.stdoutIsTerminal ? Terminal.width(environment: environment) : 80 }

    func flushStdout() {
        do { try stdout.flush() } catch {}
    }
}

/// Thrown by a command that failed and has already said so (a sourced file's failing line, the
/// `no match` of `users check-password`): the command fails, and the shell adds no error line.
public struct AlreadyReported: Error {
    /// Whether the failure was a usage error (exit status 2).
    public var usage: Bool

    public init(usage: Bool = false) {
        self.usage = usage
    }
}
