// Shell+Scripting: what makes command files programs — expansions resolved just before a line
// runs ($NAME, $1, $@, $(COMMAND)), aliases, and the blocks of ScriptBlocks (if/else/end,
// for/end) run step by step.

import Foundation
import ShopCore
import ShopOutput
import LineEditor

extension Shell {
    // MARK: - Expansions

    /// `line` with its expansions resolved: variables, the running alias's arguments, and the
    /// output of `$(…)` (which runs a command now).
    func resolve(_ template: LineTemplate, location: String?) async throws -> ParsedLine {
        var words: [String] = []
        for word in template.words { words += try await resolve(word, location: location) }
        var redirect: Redirect?
        if let path = template.redirectPath {
            let resolved = try await resolve(path, location: location).joined(separator: " ")
            guard !resolved.isEmpty else { throw ShopError.usage("the file name after > is empty once expanded") }
            redirect = Redirect(path: resolved, append: template.redirectAppend)
        }
        let line = ParsedLine(words: words, pipeCommand: template.pipeCommand, redirect: redirect)
        try LineParser.checkResolved(line)
        return line
    }

    /// The words `word` stands for: one, except `$@` alone, which is one word per argument.
    func resolve(_ word: ShellWord, location: String?) async throws -> [String] {
        if word.parts.count == 1, case .expansion(.allArguments, _) = word.parts[0] {
            return try arguments(for: "$@")
        }
        var text = ""
        for part in word.parts {
            switch part {
            case .text(let literal): text += literal
            case .expansion(let expansion, _): text += try await value(of: expansion, location: location)
            }
            try ScriptLimits.checkValue(text, what: "a word")
        }
        return [text]
    }

    private func value(of expansion: Expansion, location: String?) async throws -> String {
        switch expansion {
        case .allArguments:
            return try arguments(for: "$@").joined(separator: " ")
        case .command(let text):
            return try await capture(text, location: location)
        case .variable(let name, let fallback):
            if let number = expansion.argumentNumber {
                let given = try arguments(for: "$" + name)
                if number <= given.count { return given[number - 1] }
                if let fallback { return fallback }
                let alias = aliasStack.last ?? "the alias"
                throw ShopError.usage("\(alias) needs argument $\(number) (it was given \(given.count)): \(alias) "
                    + (1...number).map { "ARG\($0)" }.joined(separator: " "))
            }
            if let value = session.variables[name] { return value }
            if let fallback { return fallback }
            throw ShopError.usage("$\(name) is not set (let \(name) = VALUE sets it)")
        }
    }

    /// The running alias's arguments; outside an alias `$1` and `$@` are an error.
    private func arguments(for what: String) throws(ShopError) -> [String] {
        guard let frame = argumentFrames.last else {
            throw .usage("\(what) is an alias's argument and is set only while an alias runs ('\\\(what)' for the text)")
        }
        return frame
    }

    /// `$(COMMAND)`: runs one shopsh command with its output kept, and gives that output without
    /// its trailing newlines. A failing command fails the line (its own error line says why).
    private func capture(_ text: String, location: String?) async throws -> String {
        guard captureDepth < ScriptLimits.maxCaptureDepth else {
            throw ShopError.usage("$(…) nests at most \(ScriptLimits.maxCaptureDepth) deep")
        }
        // Counted before the inner line's own $(…) are resolved: they are the deeper ones.
        captureDepth += 1
        defer { captureDepth -= 1 }
        let parsed = try await resolve(LineParser.template(text), location: location)
        guard parsed.pipeCommand == nil && parsed.redirect == nil else {
            throw ShopError.usage("$(…) takes one shopsh command, without | or >: \(text.escapingControls)")
        }
        guard !parsed.words.isEmpty else { throw ShopError.usage("$() holds no command") }
        let sink = OutputSink.memory()
        nestedDepth += 1
        let outcome = await execute(words: parsed.words, location: location,
                                    destination: .standardOutput(sink, isTerminal: false), command: nil)
        nestedDepth -= 1
        guard outcome == .success else { throw AlreadyReported(usage: outcome == .usageError) }
        var output = sink.memoryText
        while let last = output.unicodeScalars.last, last == "\n" || last == "\r" { output.unicodeScalars.removeLast() }
        try ScriptLimits.checkValue(output, what: "the output of $(\(text.escapingControls))")
        return output
    }

    /// How a line whose expansions could not be resolved ends (reporting why).
    func outcome(ofExpansionError error: any Error, location: String?, words: [String]) -> CommandOutcome {
        if let reported = error as? AlreadyReported { return reported.usage ? .usageError : .failure }
        report(error, location: location, words: words)
        if let error = error as? ShopError { return error.isUsageError ? .usageError : .failure }
        return .failure
    }

    // MARK: - Aliases

    /// Runs alias `name`: each command of its body in turn, with `arguments` as `$1`…`$9` and `$@`
    /// (or, for a body that reads none, added to its one command), all to `destination`.
    func runAlias(_ name: String, body: String, arguments: [String], location: String?,
                  destination: OutputDestination) async -> CommandOutcome {
        guard !aliasStack.contains(name) else {
            report(ShopError.usage("alias \(name) calls itself (\((aliasStack + [name]).joined(separator: " → ")))"),
                   location: location, words: [])
            return .usageError
        }
        guard aliasStack.count < ScriptLimits.maxAliasDepth else {
            report(ShopError.usage("aliases call one another more than \(ScriptLimits.maxAliasDepth) deep"), location: location, words: [])
            return .usageError
        }
        let commands: [LineTemplate]
        do {
            commands = try AliasBody.commands(of: name, body: body, arguments: arguments)
        } catch {
            report(error, location: location, words: [])
            return .usageError
        }
        aliasStack.append(name)
        argumentFrames.append(arguments)
        defer {
            aliasStack.removeLast()
            argumentFrames.removeLast()
        }
        for template in commands {
            let outcome: CommandOutcome
            do {
                let parsed = try await resolve(template, location: location)
                if parsed.redirect != nil || parsed.pipeCommand != nil {
                    guard destination.isStandardOutput else {
                        throw ShopError.usage("alias \(name) sends a command's output to | or > itself; its own output cannot go elsewhere too")
                    }
                    outcome = await execute(parsed: parsed, location: location, command: nil)
                } else if parsed.words.isEmpty {
                    continue
                } else {
                    outcome = await execute(words: parsed.words, location: location, destination: destination, command: nil)
                }
            } catch {
                return self.outcome(ofExpansionError: error, location: location, words: [])
            }
            if outcome != .success || exitRequested || Interrupt.isRequested { return outcome }
        }
        return .success
    }

    /// Whether `name` is taken by a command (built-in, plugin or external plugin) or a keyword.
    public func isTakenByCommand(_ name: String) -> Bool {
        parser.commandType(named: name) != nil || ShellNames.keywords.contains(name) || externalPlugin(named: name) != nil
    }

    // MARK: - Blocks

    /// Runs `steps` (a script with blocks); `stop` says the run must end here (a failure without
    /// --continue-on-error, `exit`, Ctrl-C).
    func run(steps: [ScriptStep], label: String, continueOnError: Bool) async -> (outcome: CommandOutcome, stop: Bool) {
        var worst = CommandOutcome.success
        for step in steps {
            let outcome: CommandOutcome
            var stop = false
            switch step {
            case .command(let command):
                outcome = await execute(parser.prepare(command.text), location: Self.location(label, command.line))
            case .condition(let block):
                let location = Self.location(label, block.line)
                switch await test(block.test, location: location) {
                case .holds(let holds):
                    let branch = await run(steps: holds ? block.then : block.otherwise, label: label, continueOnError: continueOnError)
                    (outcome, stop) = branch
                case .ends(let failed):
                    outcome = failed
                }
            case .loop(let block):
                let location = Self.location(label, block.line)
                do {
                    let values = try await loopValues(block.list, location: location)
                    var loopOutcome = CommandOutcome.success
                    for value in values {
                        session.variables[block.variable] = value
                        let round = await run(steps: block.body, label: label, continueOnError: continueOnError)
                        loopOutcome = Self.worse(loopOutcome, round.outcome)
                        if round.stop { stop = true; break }
                    }
                    outcome = loopOutcome
                } catch {
                    outcome = self.outcome(ofExpansionError: error, location: location, words: [])
                }
            }
            worst = Self.worse(worst, outcome)
            if Interrupt.isRequested {
                if outcome == .success { report(ShopError.interrupted, location: nil, words: []) }
                return (Self.worse(worst, .failure), true)
            }
            if stop || exitRequested || (outcome != .success && !continueOnError) { return (worst, true) }
        }
        return (worst, false)
    }

    /// Whether an `if`'s test holds, or the outcome that ends the script when it cannot be told
    /// (a bad comparison, or a test command that is no command at all).
    func test(_ text: String, location: String?) async -> TestResult {
        var rest = text
        var negated = false
        if rest.hasPrefix("! ") {
            negated = true
            rest = String(rest.dropFirst(2)).trimmingBlanks()
        }
        let plain: LineTemplate
        do {
            plain = try LineParser.template(rest, operatorsArePlain: true)
        } catch {
            report(error, location: location, words: [])
            return .ends(.usageError)
        }
        if plain.words.count == 3, !plain.words[1].hasExpansions, let op = Comparison(rawValue: plain.words[1].literal) {
            do {
                let left = try await resolve(plain.words[0], location: location).joined(separator: " ")
                let right = try await resolve(plain.words[2], location: location).joined(separator: " ")
                return .holds(try op.holds(left, right) != negated)
            } catch {
                return .ends(outcome(ofExpansionError: error, location: location, words: []))
            }
        }
        let outcome = await execute(parser.prepare(rest), location: location)
        if outcome == .usageError || exitRequested || Interrupt.isRequested { return .ends(outcome) }
        return .holds((outcome == .success) != negated)
    }

    /// The values a `for` walks: each line of each word of `list`, blank lines left out.
    func loopValues(_ list: String, location: String?) async throws -> [String] {
        var values: [String] = []
        for word in try LineParser.template(list).words {
            for text in try await resolve(word, location: location) {
                values += text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                    .map { String($0).trimmingBlanks() }.filter { !$0.isEmpty }
            }
        }
        return values
    }

    /// `FILE:LINE` for error lines; nil at the prompt (`label` empty).
    static func location(_ label: String, _ line: Int) -> String? {
        label.isEmpty ? nil : "\(label):\(line)"
    }

    // MARK: - Text run as typed

    /// Runs `text` (one command or several lines, blocks included) as if typed at the prompt:
    /// what `edit` saved.
    public func run(text: String, label: String) async -> CommandOutcome {
        await run(script: ScriptReader.commands(in: text), label: label, continueOnError: false)
    }

    /// Runs one step read at the prompt or from stdin (a command, or a whole block).
    public func run(step: ScriptStep, label: String, continueOnError: Bool) async -> CommandOutcome {
        if case .command(let command) = step { return await execute(line: command.text, location: Self.location(label, command.line)) }
        scriptDepth += 1
        defer { scriptDepth -= 1 }
        return await run(steps: [step], label: label, continueOnError: continueOnError).outcome
    }
}

/// What an `if`'s test gave: whether it holds, or the outcome that ends the script.
enum TestResult {
    case holds(Bool)
    case ends(CommandOutcome)
}

/// The operators of `if VALUE OP VALUE`.
enum Comparison: String {
    case equal = "==", same = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    /// Numbers (`12`, `-3.50`) compare as numbers, exactly, however many digits they have; other
    /// text only with `==` and `!=`.
    func holds(_ left: String, _ right: String) throws(ShopError) -> Bool {
        if let a = DecimalText(left), let b = DecimalText(right) {
            let order = a.compare(b)
            switch self {
            case .equal, .same: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        }
        switch self {
        case .equal, .same: return left == right
        case .notEqual: return left != right
        default:
            let culprit = DecimalText(left) == nil ? left : right
            throw .usage("if: \(rawValue) compares numbers, and \"\(String(culprit.prefix(80)).escapingControls)\" is not one")
        }
    }
}

/// A decimal number as written (`-12.50`: an optional `-`, digits, and one `.` with digits),
/// compared digit by digit: exact at any length, with no conversion that could round.
struct DecimalText {
    let negative: Bool
    /// The integer digits without leading zeros, and the fraction's without trailing zeros.
    let whole: Substring
    let fraction: Substring

    init?(_ text: String) {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }) else {
            return nil
        }
        whole = parts[0].drop { $0 == "0" }
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.last == "0" { fraction = fraction.dropLast() }
        self.fraction = fraction
        negative = text.hasPrefix("-") && !(whole.isEmpty && fraction.isEmpty)   // -0 is 0
    }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    func compare(_ other: DecimalText) -> Int {
        if negative != other.negative { return negative ? -1 : 1 }
        let magnitude = Self.compareMagnitudes(self, other)
        return negative ? -magnitude : magnitude
    }

    private static func compareMagnitudes(_ a: DecimalText, _ b: DecimalText) -> Int {
        if a.whole.count != b.whole.count { return a.whole.count < b.whole.count ? -1 : 1 }
        if a.whole != b.whole { return a.whole < b.whole ? -1 : 1 }
        let width = max(a.fraction.count, b.fraction.count)
        let left = a.fraction + String(repeating: "0", count: width - a.fraction.count)
        let right = b.fraction + String(repeating: "0", count: width - b.fraction.count)
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}
