// Main: picks the store and the mode (prompt, -c, -f, stdin batch, init) and runs it.

import ArgumentParser
import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite

@main
enum Main {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = Self.environment()
        let rest = Array(arguments.dropFirst())
        let status: Int32
        switch arguments.first {
        case "init": status = runInit(rest, environment: environment)
        // Hidden commands for tools: shell completion scripts, the man page, benchmarks.
        case "__complete": status = CompleteCommand.run(rest, environment: environment)
        case "__manual": status = ManualCommand.run(rest, environment: environment)
        case "dev": status = DevCommand.run(rest, environment: environment)
        default: status = run(arguments, environment: environment)
        }
        exit(status)
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
        if global.needsFullParse {
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
                print(GlobalOptions.helpMessage())
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
            global.store = parsed.store
            global.continueOnError = parsed.continueOnError
            global.atomic = parsed.atomic
            global.dryRun = parsed.dryRun
            global.words = Array(parsed.words.drop { $0 == "--" })
        }
        let terminal = Terminal.current()
        let batch = !global.steps.isEmpty || !global.words.isEmpty || !terminal.stdinIsTerminal
        if (global.atomic || global.dryRun) && !batch {
            printError("--atomic and --dry-run apply to batches: -c, -f, a command given as words, or commands on stdin")
            return 2
        }
        let store: SQLiteStore
        do {
            store = try openStore(explicitPath: global.store, environment: environment, terminal: terminal)
        } catch {
            printError(error.message)
            return 1
        }
        defer { store.closeForExit() }
        let session = Session(storeName: StoreLocation.storeName(store.path), environment: environment)
        if let value = environment["SHOPSH_FORMAT"], !value.isEmpty, session.output.format == nil {
            printError("ignoring SHOPSH_FORMAT=\(value): formats are \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let options { apply(options, to: session) }
        let shell = Shell(services: store.services, plugins: allPlugins, session: session, terminal: terminal,
                          environment: environment)

        guard batch else {
            return InteractiveLoop(shell: shell, storePath: store.path, environment: environment).run()
        }
        let run = RunScope(atomic: global.atomic, dryRun: global.dryRun, transaction: store.services.runTransaction)
        if let failed = run.begin() { return failed }
        let status: Int32
        if !global.steps.isEmpty {
            let steps = global.steps, continueOnError = global.continueOnError
            status = Blocking.run { await runBatch(steps, shell: shell, continueOnError: continueOnError) }
        } else if !global.words.isEmpty {
            let words = global.words
            status = Self.status(Blocking.run { await shell.execute(words: words) })
        } else {
            status = runStdinBatch(shell: shell, continueOnError: global.continueOnError)
        }
        return run.end(status)
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

    /// Commands read from a pipe or file on stdin, each run as soon as it is complete.
    static func runStdinBatch(shell: Shell, continueOnError: Bool) -> Int32 {
        let reader = PlainLineReader()
        var accumulator = ScriptAccumulator()
        var worst = CommandOutcome.success
        var lineNumber = 0
        func runCommand(_ command: ScriptCommand) -> Bool {
            let outcome = Blocking.run { await shell.execute(line: command.text, location: "<stdin>:\(command.line)") }
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
        if let command = accumulator.finish() { _ = runCommand(command) }
        return status(worst)
    }

    static func runInit(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: InitOptions
        switch parse(InitOptions.self, arguments) {
        case .parsed(let parsed): options = parsed
        case .exit(let status): return status
        }
        let path = options.store ?? storePath(explicit: nil, environment: environment)
        do {
            var summary: String?
            let created = try SQLiteStore.create(at: path) { store throws(ShopError) in
                if !options.empty { summary = try describeDemo(store, path: path) }
            }
            guard created else {
                printError("a store already exists at \(path); remove it first or pick another --store")
                return 1
            }
            printNote(summary ?? "created an empty store at \(path)")
            return 0
        } catch {
            printError(error.message)
            return 1
        }
    }

    // MARK: - The store

    static func storePath(explicit: String?, environment: [String: String]) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = environment["SHOPSH_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return StoreLocation.defaultPath(environment: environment)
    }

    /// Opens the chosen store. The default store is created with the demo shop on first run
    /// (built aside and moved into place when complete: see `SQLiteStore.create`).
    static func openStore(explicitPath: String?, environment: [String: String], terminal: Terminal) throws(ShopError) -> SQLiteStore {
        let path = storePath(explicit: explicitPath, environment: environment)
        let isDefault = explicitPath == nil && (environment["SHOPSH_STORE"] ?? "").isEmpty
        if isDefault, !FileManager.default.fileExists(atPath: path) {
            var summary: DemoShopSummary?
            let created = try SQLiteStore.create(at: path) { store throws(ShopError) in summary = try store.importDemoShop() }
            if created, let summary, terminal.stderrIsTerminal { printNote(describe(summary, at: path)) }
        }
        let store = try SQLiteStore(path: path)
        for warning in store.warnings { printNote(warning) }
        return store
    }

    /// Imports the demo shop and says what was created.
    static func describeDemo(_ store: SQLiteStore, path: String) throws(ShopError) -> String {
        guard let summary = try store.importDemoShop() else { return "using the existing shop at \(path)" }
        return describe(summary, at: path)
    }

    static func describe(_ summary: DemoShopSummary, at path: String) -> String {
        "created the demo shop at \(path): \(summary.products) products, \(summary.users) users, \(summary.baskets) baskets, \(summary.rates) exchange rates"
    }

    // MARK: - Helpers

    static func apply(_ options: GlobalOptions, to session: Session) {
        if let format = options.output.format { session.output.format = format }
        if let fields = options.output.fields { session.output.fields = fields }
        if options.output.noHeader { session.output.noHeader = true }
        if options.output.wide { session.output.wide = true }
        if options.output.noPager { session.pager = false }
        if let color = options.output.color { session.output.color = color }
        session.paging = PagingDefaults(options.paging)
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
            printError(type.message(for: error) + " (see 'shopsh --help')")
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
        FileHandle.standardError.write(Data("shopsh: error: \(TerminalEscaping.escape(message))\n".utf8))
    }

    /// `shopsh: …` on stderr, escaped, and wrapped at word boundaries on a terminal.
    static func printNote(_ message: String) {
        var text = "shopsh: " + TerminalEscaping.escape(message)
        if isatty(STDERR_FILENO) != 0 { text = TextWrap.wrap(text, width: Terminal.width(environment: environment())) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
