// WatchCommand: `watch [-n SECONDS] [--count N] COMMAND …` runs a command again every few
// seconds (psql's \watch, watch(1)); on a terminal each round redraws the screen under a header.

import ArgumentParser
import Foundation
import ShopCore
import ShopOutput
import LineEditor

/// `watch [-n SECONDS] [--count N] COMMAND …`.
///
/// At the prompt (a terminal on stdin and stdout) each round clears the screen and draws a
/// header line (`Every 2s: orders list` on the left, the time in UTC on the right), then the
/// command's output, until Ctrl-C (which ends watch successfully) or `--count` rounds. In a
/// batch `--count` is required, and the rounds' outputs follow one another with nothing
/// added, so `-o ndjson` stays clean. A failing round stops watch with that failure.
struct WatchCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run a command again every few seconds (until Ctrl-C, or --count times).",
        discussion: """
            watch -n 1 orders list --status placed --limit 5 · watch -n 0.5 --count 10 products show 1 -o ndjson. \
            At the prompt the screen is redrawn each round under a header (the command, the time in UTC). \
            In a batch (-c, -f, stdin, or output that is not a terminal) --count is required and nothing but the \
            command's output is printed. A failing round stops watch with its error.
            """)

    /// The shortest interval between rounds, in seconds.
    static let minimumInterval = 0.1
    /// The longest interval (a day): more is a mistake, not a wish.
    static let maximumInterval = 86_400.0
    /// How long one slice of the wait is: Ctrl-C is seen within this.
    static let sliceMilliseconds = 50

    @Option(name: [.customShort("n"), .customLong("interval")],
            help: ArgumentHelp("Seconds between rounds (default 2; decimals such as 0.5 allowed, at least 0.1).",
                               valueName: "seconds"))
    var interval: String?

    @Option(help: ArgumentHelp("Run the command N times, then stop (required in a batch).", valueName: "n"))
    var count: Int?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command to run, with its own options.",
                                                                 valueName: "command"))
    var command: [String] = []

    // MARK: - Checking the words

    /// The interval in seconds, from `-n` (2 when not given).
    func seconds() throws(ShopError) -> Double {
        guard let interval else { return 2 }
        guard let value = Double(interval), value.isFinite,
              value >= Self.minimumInterval, value <= Self.maximumInterval else {
            throw .usage("watch -n needs a number of seconds from \(Self.minimumInterval) to \(Int(Self.maximumInterval)), "
                         + "not \"\(interval)\" (usage: watch [-n SECONDS] [--count N] COMMAND …)")
        }
        return value
    }

    /// The command to run: the words after watch's own options (a leading `--` dropped).
    func innerWords() throws(ShopError) -> [String] {
        let words = command.first == "--" ? Array(command.dropFirst()) : command
        guard let first = words.first else {
            throw .usage("watch needs a command (usage: watch [-n SECONDS] [--count N] COMMAND …)")
        }
        if first == Self.configuration.commandName {
            throw .usage("watch cannot watch watch; give the command itself")
        }
        if ([ExitCommand.configuration.commandName, SourceCommand.configuration.commandName]
            + ExitCommand.configuration.aliases).contains(first) {
            throw .usage("watch cannot watch \(first)")
        }
        return words
    }

    // MARK: - Running

    func run(in context: CommandContext) async throws {
        let seconds = try seconds()
        let words = try innerWords()
        if let count, count < 1 { throw ShopError.usage("watch --count must be 1 or more") }
        if context.host.neededRole(of: words) != nil {
            throw ShopError.usage("watch only runs commands that read: \(words.prefix(2).joined(separator: " ")) changes the shop")
        }
        let onScreen = context.host.isInteractive && context.sinkIsTerminal && context.terminal.stdinIsTerminal
        guard onScreen || count != nil else {
            throw ShopError.usage(context.host.isInteractive ? "watch needs --count N when its output is not a terminal"
                                                             : "watch in a batch needs --count N")
        }
        let header = WatchScreen.commandText(words, seconds: seconds)
        var round = 0
        while count.map({ round < $0 }) ?? true {
            if round > 0 {
                guard await Self.wait(seconds) else { return }
            }
            round += 1
            if onScreen {
                context.sink.write(WatchScreen.clear
                                   + WatchScreen.header(header, time: Date(), width: Terminal.width(environment: context.environment))
                                   + "\n\n")
            }
            let outcome = await context.host.run(words: words, for: context)
            if Interrupt.isRequested { return }   // Ctrl-C during the round: stop, not an error
            switch outcome {
            case .success: continue
            case .failure: throw AlreadyReported()
            case .usageError: throw AlreadyReported(usage: true)
            }
        }
    }

    /// Sleeps `seconds` in short slices; false when Ctrl-C cut the wait short.
    static func wait(_ seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int((seconds * 1000).rounded()))
        while ContinuousClock.now < deadline {
            if Interrupt.isRequested { return false }
            let left = deadline - ContinuousClock.now
            try? await Task.sleep(for: min(left, .milliseconds(sliceMilliseconds)))
        }
        return !Interrupt.isRequested
    }
}
