// GlobalArguments: one pass over the binary's own arguments: the -c/-f steps in the order given,
// --store, --continue-on-error, --reconnect-timeout, --rc/--no-rc, -v, and where the command words begin.

/// The `shopsh` arguments before the command, read without argument-parser.
///
/// argument-parser (``GlobalOptions``) stays the authority for help, output and listing
/// defaults and every error; it costs about 3 ms at start-up, so an invocation that uses only
/// `-c`, `-f`, `--store` and `--continue-on-error` (how scripts and jobs call shopsh) is read
/// here alone, with `--atomic`, `--dry-run` and `--read-only`. Anything else sets ``needsFullParse``.
struct GlobalArguments: Equatable {
    /// One `-c` command or `-f` file, in the order given.
    enum Step: Equatable, Sendable {
        case command(String, label: String)
        case file(String)
    }

    var steps: [Step] = []
    var store: String?
    var continueOnError = false
    var atomic = false
    var dryRun = false
    var readOnly = false
    /// `--rc FILE`: the start-up file to read instead of the default one.
    var rc: String?
    /// `--no-rc`: read no start-up file.
    var noRc = false
    /// `-v NAME=VALUE`, in the order given.
    var variables: [String] = []
    /// `--reconnect-timeout SECONDS`: how long a command whose server went away waits for one.
    var reconnectTimeout: Int?
    /// The command given as words after the options (`shopsh products list --all`).
    var words: [String] = []
    /// Whether an option other than -c, -f, --store and the batch flags appears, or one of
    /// those lacks its value: argument-parser must read the arguments.
    var needsFullParse = false
    /// Whether the arguments end with an option that takes a value, without the value.
    var endsBeforeAValue = false

    /// Options of ``GlobalOptions`` whose value is the next argument.
    static let optionsWithValues: Set<String> = [
        "-c", "--command", "-f", "--file", "--store", "--reconnect-timeout", "--rc", "-v", "--variable",
        "-o", "--format", "--fields", "--color", "--sort", "--limit", "--offset",
    ]

    init(_ arguments: [String]) {
        var index = 0
        func take(_ value: String, as option: String) {
            // A value that looks like an option is left to argument-parser (it reports it).
            if value.hasPrefix("-") { needsFullParse = true }
            switch option {
            case "-c", "--command": steps.append(.command(value, label: "-c"))
            case "-f", "--file": steps.append(.file(value))
            case "--store": store = value
            case "--rc": rc = value
            case "-v", "--variable": variables.append(value)
            case "--reconnect-timeout":
                // Out of range or not a number: argument-parser says so.
                if let seconds = Int(value), RootOptions.reconnectTimeoutRange.contains(seconds) {
                    reconnectTimeout = seconds
                } else {
                    needsFullParse = true
                }
            default: needsFullParse = true
            }
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                words = Array(arguments[index...])
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                words = Array(arguments[(index - 1)...])
                break
            }
            if argument == "--continue-on-error" {
                continueOnError = true
            } else if argument == "--atomic" {
                atomic = true
            } else if argument == "--dry-run" {
                dryRun = true
            } else if argument == "--read-only" {
                readOnly = true
            } else if argument == "--no-rc" {
                noRc = true
            } else if Self.optionsWithValues.contains(argument) {
                guard index < arguments.count else {
                    endsBeforeAValue = true
                    needsFullParse = true
                    break
                }
                take(arguments[index], as: argument)
                index += 1
            } else if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"),
                      Self.optionsWithValues.contains(String(argument[..<equals])) {
                take(String(argument[argument.index(after: equals)...]), as: String(argument[..<equals]))
            } else {
                // A flag, or a mistake such as `-cTEXT` (argument-parser does not join short
                // options with their values) that argument-parser reports.
                needsFullParse = true
            }
        }
        // Several -c commands are told apart in error lines: -c[1], -c[2], …
        let commandCount = steps.filter { if case .command = $0 { true } else { false } }.count
        guard commandCount > 1 else { return }
        var number = 0
        steps = steps.map { step in
            guard case .command(let text, _) = step else { return step }
            number += 1
            return .command(text, label: "-c[\(number)]")
        }
    }
}
