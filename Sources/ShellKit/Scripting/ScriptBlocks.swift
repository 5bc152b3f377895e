// ScriptBlocks: the block structure of command files and of the prompt — `if … [else …] end`
// and `for NAME in WORDS … end` — read from commands before any of them runs, so a file with an
// unbalanced block is refused whole.

/// One step of a script: a command, or a block holding steps.
public indirect enum ScriptStep: Equatable, Sendable {
    case command(ScriptCommand)
    case condition(ScriptCondition)
    case loop(ScriptLoop)
}

/// `if TEST` … `[else` …`] end`: TEST is a command (true when it succeeds, `!` inverts it) or a
/// comparison `VALUE OP VALUE`.
public struct ScriptCondition: Equatable, Sendable {
    /// The line of the `if`.
    public var line: Int
    /// The text after `if`.
    public var test: String
    public var then: [ScriptStep] = []
    public var otherwise: [ScriptStep] = []
    /// Whether an `else` was read (a second one is an error).
    var hasElse = false
}

/// `for NAME in WORDS` … `end`: NAME takes each line of each word in turn.
public struct ScriptLoop: Equatable, Sendable {
    /// The line of the `for`.
    public var line: Int
    public var variable: String
    /// The text after `in` (words that may hold expansions).
    public var list: String
    public var body: [ScriptStep] = []
}

/// A block that is not closed, closed twice, or badly opened; `line` is where it was seen.
public struct ScriptBlockError: Error, Equatable, Sendable {
    public var line: Int
    public var message: String
}

/// Reads steps from commands, one command at a time (stdin and the prompt run a block as soon as
/// its `end` is read), or a whole script at once with ``ScriptBlocks/steps(of:)``.
public struct ScriptBlockReader: Sendable {
    private enum Open: Sendable {
        case condition(ScriptCondition)
        case loop(ScriptLoop)

        var line: Int {
            switch self {
            case .condition(let block): block.line
            case .loop(let block): block.line
            }
        }

        var keyword: String {
            switch self {
            case .condition: "if"
            case .loop: "for"
            }
        }

        mutating func append(_ step: ScriptStep) {
            switch self {
            case .condition(var block):
                if block.hasElse { block.otherwise.append(step) } else { block.then.append(step) }
                self = .condition(block)
            case .loop(var block):
                block.body.append(step)
                self = .loop(block)
            }
        }

        var step: ScriptStep {
            switch self {
            case .condition(let block): .condition(block)
            case .loop(let block): .loop(block)
            }
        }
    }

    /// The deepest nesting of blocks a script may have.
    public static let maxDepth = 32

    private var open: [Open] = []

    public init() {}

    /// Whether a block is open: more lines are needed before it can run.
    public var isOpen: Bool { !open.isEmpty }

    /// Takes one command; returns a step when one is complete at the top level.
    public mutating func feed(_ command: ScriptCommand) throws(ScriptBlockError) -> ScriptStep? {
        guard let (keyword, rest) = ScriptBlocks.keyword(of: command.text) else {
            return add(.command(command))
        }
        let fail = { (message: String) in ScriptBlockError(line: command.line, message: message) }
        switch keyword {
        case "if":
            guard !rest.isEmpty else { throw fail("if needs a test: if COMMAND, or if VALUE OP VALUE (OP: == != < <= > >=)") }
            try push(.condition(ScriptCondition(line: command.line, test: rest)), line: command.line)
        case "for":
            let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[1] == "in" else { throw fail("for needs a name and a list: for NAME in WORDS") }
            let name = String(words[0])
            guard ShellNames.isVariableName(name) else {
                throw fail("for \(name.escapingControls): not a variable name (letters, digits and _, not starting with a digit)")
            }
            let afterName = rest.drop { !$0.isWhitespace }.drop { $0.isWhitespace }
            let list = String(afterName.dropFirst(2)).trimmingBlanks()
            guard !list.isEmpty else {
                throw fail("for \(name) in: the list is missing")
            }
            try push(.loop(ScriptLoop(line: command.line, variable: name, list: list)), line: command.line)
        case "else":
            guard rest.isEmpty else { throw fail("else stands alone on its line (the test goes after if)") }
            guard case .condition(var block)? = open.last else {
                throw fail(open.last.map { "else inside the for of line \($0.line): else belongs to an if" } ?? "else without if")
            }
            guard !block.hasElse else { throw fail("a second else for the if of line \(block.line)") }
            block.hasElse = true
            open[open.count - 1] = .condition(block)
        default:  // end
            guard rest.isEmpty else { throw fail("end stands alone on its line") }
            guard let closed = open.popLast() else { throw fail("end without if or for") }
            return add(closed.step)
        }
        return nil
    }

    /// Ends the input: a block still open is an error at its first line.
    public func finish() throws(ScriptBlockError) {
        if let last = open.last {
            throw ScriptBlockError(line: last.line, message: "this \(last.keyword) has no end")
        }
    }

    private mutating func push(_ block: Open, line: Int) throws(ScriptBlockError) {
        guard open.count < Self.maxDepth else {
            throw ScriptBlockError(line: line, message: "blocks nest at most \(Self.maxDepth) deep")
        }
        open.append(block)
    }

    private mutating func add(_ step: ScriptStep) -> ScriptStep? {
        guard !open.isEmpty else { return step }
        open[open.count - 1].append(step)
        return nil
    }
}

/// Whole scripts and keywords.
public enum ScriptBlocks {
    /// The steps of a whole script, or the first block error in it.
    public static func steps(of commands: [ScriptCommand]) throws(ScriptBlockError) -> [ScriptStep] {
        var reader = ScriptBlockReader()
        var steps: [ScriptStep] = []
        for command in commands {
            if let step = try reader.feed(command) { steps.append(step) }
        }
        try reader.finish()
        return steps
    }

    /// `("if", "products show 1")` for `if products show 1`: the keyword a command starts with
    /// and the rest of it, trimmed (a comment after `else` or `end` is dropped); nil for a command
    /// that starts with no keyword.
    public static func keyword(of text: String) -> (keyword: String, rest: String)? {
        let trimmed = text.trimmingBlanks()
        let first = trimmed.prefix { !$0.isWhitespace }
        guard ShellNames.keywords.contains(String(first)) else { return nil }
        var rest = String(trimmed.dropFirst(first.count)).trimmingBlanks()
        if rest.hasPrefix("#") { rest = "" }
        return (String(first), rest)
    }
}
