// Main: picks the store and the mode (prompt, -c, -f, stdin batch, init) and runs it.

import ArgumentParser
import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import LineEditor

@main
enum Main {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = Self.environment()
        // `__complete` (the completion scripts' entry point) reads the words being typed, not a
        // command line, before any parsing (as argument-parser's own `---completion`). The
        // binary's modes come from the command tree; anything else is for the shell.
        if arguments.first == "__complete" {
            exit(CompleteCommand.run(Array(arguments.dropFirst()), environment: environment))
        }
        exit(ShopshCommand.runMode(arguments, environment: environment) ?? run(arguments, environment: environment))
    }

    /// The process environment as a dictionary, read from `environ` directly: ProcessInfo's copy
    /// sets up the whole ProcessInfo first (1% of a one-shot command's instructions, callgrind).
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if values[name] == nil { values[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return values
    }

    // MARK: - Modes

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        var global = GlobalArguments(arguments)
        var options: GlobalOptions?
        if global.needsFullParse || environment["SHOPSH_QUICK_PARSE"] == "off" {
            // argument-parser reads output and listing defaults, answers help and version, and
            // reports every mistake; its values win over the quick scan.
            switch parse(GlobalOptions.self, arguments) {
            case .parsed(let parsed): options = parsed
            case .exit(let status): return status
            }
            guard let parsed = options else { return 2 }
            // The pass-through command words swallow the binary's own --help and --version.
            switch parsed.words.first {
            case "-h", "--help":
                print(GlobalOptions.helpMessage() + commandList())
                return 0
            case "--version":
                print(GlobalOptions.configuration.version)
                return 0
            default:
                break
            }
            if let first = parsed.words.first, first.hasPrefix("-"), first != "--" {
                printError("unknown option \(first) (see 'shopsh --help')")
                return 2
            }
            global.store = parsed.options.store
            global.continueOnError = parsed.options.continueOnError
            global.atomic = parsed.options.atomic
            global.dryRun = parsed.options.dryRun
            global.readOnly = parsed.options.readOnly
            global.reconnectTimeout = parsed.options.reconnectTimeout
            global.rc = parsed.options.rc
            global.noRc = parsed.options.noRc
            global.variables = parsed.options.variables
            global.words = Array(parsed.words.drop { $0 == "--" })
        }
        let terminal = Terminal.current()
        let batch = !global.steps.isEmpty || !global.words.isEmpty || !terminal.stdinIsTerminal
        if (global.atomic || global.dryRun) && !batch {
            printError("--atomic and --dry-run apply to batches: -c, -f, a command given as words, or commands on stdin")
            return 2
        }
        // Set by the shell for the external plugins of a read-only session: their shopsh calls
        // are read-only too.
        if environment["SHOPSH_READ_ONLY"] == "1" { global.readOnly = true }
        let warmUp = batch ? ParseWarmUp.start(global, store: StoreFactory.value(explicit: global.store, environment: environment)) : nil
        let store: any ShopStore
        do {
            store = try StoreFactory.open(StoreFactory.value(explicit: global.store, environment: environment),
                                          readOnly: global.readOnly, reconnectTimeout: global.reconnectTimeout,
                                          environment: environment, notify: { printNote($0) }) {
                if terminal.stderrIsTerminal { printNote($0) }
            }
        } catch {
            printError(error.message)
            return error.isUsageError ? 2 : 1
        }
        defer { store.close() }
        warmUp?.wait()
        Blocking.use(store.preferredExecutor)
        for warning in store.warnings { printNote(warning) }
        let session = Session(storeName: store.displayName, identity: store.identity, environment: environment)
        session.placement = store.placement
        session.storeLocation = StoreFactory.forPlugins(StoreFactory.value(explicit: global.store, environment: environment),
                                                        location: store.location)
        if let value = environment["SHOPSH_FORMAT"], !value.isEmpty, session.output.format == nil {
            printError("ignoring SHOPSH_FORMAT=\(value): formats are \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard batch else {
            let shell = Shell(services: store.services.masked(for: store.identity.role), plugins: allPlugins, session: session, terminal: terminal,
                              environment: environment)
            if let status = setUp(shell, global: global, options: options, environment: environment) { return status }
            return InteractiveLoop(shell: shell, storeLocation: store.location, environment: environment).run()
        }
        let run = RunScope(atomic: global.atomic, dryRun: global.dryRun)
        session.oneTransaction = global.dryRun ? .dryRun : global.atomic ? .atomic : nil
        let services: ShopServices
        switch run.begin(on: store) {
        case .success(let runServices): services = runServices.masked(for: store.identity.role)
        case .failure(let status): return status
        }
        let shell = Shell(services: services, plugins: allPlugins, session: session, terminal: terminal, environment: environment)
        let historyFile = StoreLocation.historyPath(forStore: store.location, environment: environment)
        shell.savedHistorySource = { ReadlineLineReader.savedHistory(file: historyFile) }
        if let status = setUp(shell, global: global, options: options, environment: environment) {
            return run.end(status, pluginsOutside: session.pluginsOutsideTheRun)
        }
        var status: Int32
        if !global.steps.isEmpty {
            let steps = global.steps, continueOnError = global.continueOnError
            status = Blocking.run { await runBatch(steps, shell: shell, continueOnError: continueOnError) }
        } else if !global.words.isEmpty {
            let words = global.words
            status = Self.status(Blocking.run { await shell.execute(words: words) })
        } else {
            status = runStdinBatch(shell: shell, continueOnError: global.continueOnError)
        }
        if let asked = shell.exitStatus { status = asked }
        return run.end(status, pluginsOutside: session.pluginsOutsideTheRun, exitAsked: shell.exitStatus != nil)
    }

    static func runBatch(_ steps: [GlobalArguments.Step], shell: Shell, continueOnError: Bool) async -> Int32 {
        var worst = CommandOutcome.success
        for step in steps {
            let outcome: CommandOutcome
            switch step {
            case .command(let text, let label):
                outcome = await shell.run(script: ScriptReader.commands(in: text), label: label, continueOnError: continueOnError)
            case .file(let path):
                outcome = await shell.run(file: path, continueOnError: continueOnError)
            }
            worst = Shell.worse(worst, outcome)
            if shell.exitRequested || (outcome != .success && !continueOnError) { break }
        }
        return status(worst)
    }

    /// Commands read from a pipe or file on stdin, each run as soon as it is complete (a block
    /// when its `end` is read).
    static func runStdinBatch(shell: Shell, continueOnError: Bool) -> Int32 {
        let reader = PlainLineReader()
        var accumulator = ScriptAccumulator()
        var blocks = ScriptBlockReader()
        var worst = CommandOutcome.success
        var lineNumber = 0
        func blockError(_ error: ScriptBlockError) -> Bool {
            worst = Shell.worse(worst, shell.fail(.usage(error.message), location: "<stdin>:\(error.line)"))
            blocks = ScriptBlockReader()
            return continueOnError
        }
        func runCommand(_ command: ScriptCommand) -> Bool {
            let step: ScriptStep
            do {
                guard let complete = try blocks.feed(command) else { return true }
                step = complete
            } catch {
                return blockError(error)
            }
            let outcome = Blocking.run { await shell.run(step: step, label: "<stdin>", continueOnError: continueOnError) }
            worst = Shell.worse(worst, outcome)
            return !shell.exitRequested && (outcome == .success || continueOnError)
        }
        while case .line(let line) = reader.readLine(prompt: "") {
            lineNumber += 1
            guard reader.lastLineIsUTF8 else {
                worst = Shell.worse(worst, shell.fail(.invalidInput("not UTF-8 text"), location: "<stdin>:\(lineNumber)"))
                if continueOnError { continue }
                return status(worst)
            }
            if let command = accumulator.feed(line, lineNumber: lineNumber), !runCommand(command) {
                return status(worst)
            }
        }
        if let command = accumulator.finish(), !runCommand(command) { return status(worst) }
        do { try blocks.finish() } catch { _ = blockError(error) }
        return status(worst)
    }

    /// Before the first command: the start-up file (unless --no-rc), then the command line's
    /// output defaults (which win over its `set` lines), then its `-v` variables. Returns the
    /// exit status when the run cannot start (a start-up file others can write, a bad -v).
    static func setUp(_ shell: Shell, global: GlobalArguments, options: GlobalOptions?, environment: [String: String]) -> Int32? {
        if !global.noRc {
            let (path, mustExist) = StartupFile.choose(explicit: global.rc, environment: environment)
            do {
                if let text = try StartupFile.read(path, mustExist: mustExist) {
                    Blocking.run { _ = await shell.runStartupFile(text, label: path) }
                }
            } catch {
                printError(error.message)
                return 1
            }
        }
        if let options { apply(options, to: shell.session) }
        for assignment in global.variables {
            guard let equals = assignment.firstIndex(of: "=") else {
                printError("-v \(assignment): write -v NAME=VALUE")
                return 2
            }
            do {
                try shell.session.setVariable(String(assignment[..<equals]), to: String(assignment[assignment.index(after: equals)...]))
            } catch {
                printError("-v: " + error.message)
                return 2
            }
        }
        return nil
    }

    /// The commands, for `shopsh --help` (the prompt's `help` lists them the same way).
    static func commandList() -> String {
        let rows = allPlugins.map { ($0.name, $0.summary) } + BuiltinCommands.all.map { ($0.shellName, $0.configuration.abstract) }
        let width = rows.map(\.0.count).max() ?? 0
        return "\n\nCOMMANDS:\n" + rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }.joined(separator: "\n")
            + "\n\n  Type shopsh help COMMAND, or help COMMAND at the prompt, for a command's options."
    }

    // MARK: - Helpers

    static func apply(_ options: GlobalOptions, to session: Session) {
        if let format = options.options.output.format { session.output.format = format }
        if let fields = options.options.output.fields { session.output.fields = fields }
        if options.options.output.noHeader { session.output.noHeader = true }
        if options.options.output.wide { session.output.wide = true }
        if options.options.output.noPager { session.pager = false }
        if let color = options.options.output.color { session.output.color = color }
        session.paging = PagingDefaults(options.options.paging)
    }

    enum ParseResult<T> {
        case parsed(T)
        case exit(Int32)
    }

    /// Parses the binary's own arguments; help and version print and exit 0, misuse exits 2.
    static func parse<T: ParsableCommand>(_ type: T.Type, _ arguments: [String]) -> ParseResult<T> {
        do {
            return .parsed(try type.parse(arguments))
        } catch {
            let code = type.exitCode(for: error)
            if code == .success {
                print(type.fullMessage(for: error))
                return .exit(0)
            }
            printError(ParserMessage.oneLine(type.message(for: error)) + " (see 'shopsh --help')")
            return .exit(2)
        }
    }

    static func status(_ outcome: CommandOutcome) -> Int32 {
        switch outcome {
        case .success: return 0
        case .failure: return 1
        case .usageError: return 2
        }
    }

    /// `shopsh: error: …` on stderr, with data in the message escaped as in table cells.
    static func printError(_ message: String) {
        writeToStream("shopsh: error: \(TerminalEscaping.escape(message))\n", STDERR_FILENO)
    }

    /// `shopsh: …` on stderr, escaped, and wrapped at word boundaries on a terminal.
    static func printNote(_ message: String) {
        var text = "shopsh: " + TerminalEscaping.escape(message)
        if isatty(STDERR_FILENO) != 0 { text = TextWrap.wrap(text, width: Terminal.width(environment: environment())) }
        writeToStream(text + "\n", STDERR_FILENO)
    }
}
