// BadInputCorpusTests: runs every case of BadInput/cases.txt through the built binary three ways
// (-c, -f FILE and stdin) and checks that bad input fails cleanly: no crash, exactly one escaped
// error line on stderr, nothing on stdout, and a store left exactly as it was.
//
// For speed, cases run in chunks of 32 in one process with --continue-on-error: a case passes
// there when it prints exactly one clean error line at its own location and the chunk leaves the
// store alone. Every other case (and every case that must run alone: see `runsAlone`) runs by
// itself, without --continue-on-error, and is judged and named by itself; when the chunk as a
// whole went wrong in a way its suspects do not explain, the rest of it is checked again, then
// halved.
//
// Set BADINPUT_REPORT=/some/folder to also write one TSV file per mode there, a row for each
// failing case with the problems found and the actual output (for bug lists).

import Foundation
import Testing

// MARK: - The corpus

/// One case of the corpus: one line of shopsh input and what it must do.
struct BadInputCase: Sendable, CustomStringConvertible {
    /// The line of cases.txt it comes from.
    let line: Int
    /// The case as written in cases.txt (tags and `{{…}}` included).
    let source: String
    /// The input line it stands for, without a final newline.
    let input: [UInt8]
    /// True when the input is legitimately valid and must succeed.
    let accepted: Bool
    /// Texts the error line must contain.
    let mentions: [String]

    var description: String { "cases.txt:\(line): \(source)" }

    /// True when the case runs alone, never in a chunk: it must succeed, spans or joins lines
    /// (LF, CR, a trailing backslash), holds bytes a line of a file cannot pass through
    /// unchanged (NUL, invalid UTF-8), or is long.
    var runsAlone: Bool {
        accepted || input.contains(0) || input.contains(0x0A) || input.contains(0x0D) || input.last == UInt8(ascii: "\\")
            || String(validating: input, as: UTF8.self) == nil || input.count > 10_000
    }

    /// Why the case cannot be one `-c` argument, or nil when it can.
    var reasonToSkipCommandMode: String? {
        if input.contains(0) { return "a NUL cannot be in an argument" }
        if String(validating: input, as: UTF8.self) == nil { return "an argument cannot hold invalid UTF-8" }
        if input.count > 100_000 { return "longer than one argument may be" }
        return nil
    }
}

struct CorpusError: Error, CustomStringConvertible {
    let description: String
}

/// Reads BadInput/cases.txt (format described at its top).
enum BadInputCorpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("BadInput")

    /// `orders`: the ids `{{ORDER 1}}` … stand for (the orders setup.shop placed).
    static func load(orders: [Int] = []) async throws -> [BadInputCase] {
        let text = try String(contentsOf: folder.appendingPathComponent("cases.txt"), encoding: .utf8)
        var cases: [BadInputCase] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if rawLine.isEmpty || rawLine.hasPrefix("#") { continue }
            var rest = Substring(rawLine)
            var accepted = false
            var mentions: [String] = []
            while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                if tag == "accepted" {
                    accepted = true
                } else if tag.hasPrefix("mentions:") {
                    mentions.append(String(tag.dropFirst("mentions:".count)))
                } else {
                    throw CorpusError(description: "cases.txt:\(number): unknown tag [\(tag)]")
                }
                rest = rest[rest.index(after: close)...].drop { $0 == " " }
            }
            guard !rest.isEmpty else { throw CorpusError(description: "cases.txt:\(number): a case without text") }
            await cases.append(BadInputCase(line: number, source: String(rawLine), input: try expand(rest, line: number, orders: orders),
                                      accepted: accepted, mentions: mentions))
        }
        return cases
    }

    /// Replaces every `{{…}}` of `text` by the bytes it stands for.
    static func expand(_ text: Substring, line: Int, orders: [Int] = []) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = text
        while let open = rest.range(of: "{{") {
            bytes += Array(rest[..<open.lowerBound].utf8)
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw CorpusError(description: "cases.txt:\(line): {{ without }}")
            }
            bytes += try macro(String(rest[open.upperBound..<close.lowerBound]), line: line, orders: orders)
            rest = rest[close.upperBound...]
        }
        return bytes + Array(rest.utf8)
    }

    static let controls: [String: UInt8] = ["ESC": 0x1B, "BEL": 0x07, "NUL": 0x00, "TAB": 0x09, "CR": 0x0D, "LF": 0x0A,
                                            "DEL": 0x7F]

    static func macro(_ name: String, line: Int, orders: [Int] = []) throws -> [UInt8] {
        if let byte = controls[name] { return [byte] }
        // The demo's history comes first: the orders setup.shop placed have ids only known then.
        if name.hasPrefix("ORDER "), let index = Int(name.dropFirst(6)), (1...3).contains(index) {
            return Array(String(orders.indices.contains(index - 1) ? orders[index - 1] : index).utf8)
        }
        if name.hasPrefix("U+"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
            return Array(String(Character(scalar)).utf8)
        }
        if name.hasPrefix("x"), name.count == 3, let byte = UInt8(name.dropFirst(), radix: 16) { return [byte] }
        if name.hasPrefix("REPEAT "), let colon = name.firstIndex(of: ":"),
           let count = Int(name[name.index(name.startIndex, offsetBy: 7)..<colon]), count > 0 {
            return Array(repeating: Array(name[name.index(after: colon)...].utf8), count: count).flatMap { $0 }
        }
        throw CorpusError(description: "cases.txt:\(line): unknown {{\(name)}}")
    }
}

// MARK: - Running a case

/// How a case reaches the shell.
enum BadInputMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case command = "-c", file = "-f FILE", stdin = "stdin"
    var testDescription: String { rawValue }
}

/// One sandbox per mode: a demo shop prepared by setup.shop, the fixtures beside it, and the
/// store's bytes and SQL dump from then, to compare against after every case.
final class CorpusSandbox {
    let sandbox: ShopshSandbox
    let pristineStore: Data
    let pristineDump: [String]
    /// The orders setup.shop placed: the first is placed, the second delivered, the third cancelled.
    let orders: [Int]

    init() async throws {
        sandbox = try await ShopshSandbox()
        try FileManager.default.copyItem(at: BadInputCorpus.folder.appendingPathComponent("fixtures"),
                                         to: sandbox.root.appendingPathComponent("fixtures"))
        let setup = try await sandbox.run(["-f", BadInputCorpus.folder.appendingPathComponent("setup.shop").path])
        guard setup.status == 0 else { throw CorpusError(description: "setup.shop failed: \(setup.stderr)") }
        // The demo's history ends yesterday: today's orders are setup's.
        orders = try await sandbox.ok("orders list --since today --sort id -o tsv --fields id --no-header")
            .split(separator: "\n").compactMap { Int($0) }
        guard orders.count == 3 else { throw CorpusError(description: "setup.shop placed \(orders) today") }
        for line in ["orders status \(orders[1]) paid", "orders status \(orders[1]) shipped", "orders status \(orders[1]) delivered",
                     "orders cancel \(orders[2])"] {
            _ = try await sandbox.ok(line)
        }
        pristineStore = try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        pristineDump = try await Self.dump(sandbox.storePath)
        guard !pristineDump.isEmpty else { throw CorpusError(description: "sqlite3 dumped nothing") }
    }

    /// The store as SQL text, one statement a line (`sqlite3 -readonly STORE .dump`).
    static func dump(_ store: String) async throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-readonly", store, ".dump"]
        let output = Pipe()
        process.standardOutput = output
        defer { try? output.fileHandleForReading.close() }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    var walPath: String { sandbox.storePath + "-wal" }

    /// nil when the store is as it was after setup, else what changed (and the store is put back).
    func storeChange() async throws -> String? {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: walPath))) ?? Data()
        if bytes == pristineStore && wal.isEmpty { return nil }
        // The bytes moved: compare what the store holds, then put the pristine file back.
        let now = try await Self.dump(sandbox.storePath)
        try await restore()
        if now == pristineDump { return nil }
        let before = Set(pristineDump), after = Set(now)
        let removed = pristineDump.filter { !after.contains($0) }, added = now.filter { !before.contains($0) }
        func cut(_ line: String) -> String { line.count > 160 ? String(line.prefix(160)) + "…" : line }
        return "store changed: -\(removed.count) +\(added.count) SQL lines, e.g. "
            + (added.prefix(2).map { "+ " + cut($0) } + removed.prefix(2).map { "- " + cut($0) }).joined(separator: " | ")
    }

    func restore() async throws {
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.storePath + suffix) }
        try pristineStore.write(to: URL(fileURLWithPath: sandbox.storePath))
    }

    /// Runs `inputs` in `mode` in one process with --continue-on-error, and says where each
    /// input's error must be reported (the choices for each).
    func runChunk(_ inputs: [[UInt8]], mode: BadInputMode) async throws -> (ShopshSandbox.Result, locations: [[String]]) {
        switch mode {
        case .command:
            let arguments = inputs.flatMap { ["-c", String(decoding: $0, as: UTF8.self)] }
            let locations = inputs.indices.map { $0 == 0 ? ["-c:1", "-c[1]:1"] : ["-c[\($0 + 1)]:1"] }
            return await (try sandbox.run(["--continue-on-error"] + arguments, stdinData: Data(), timeLimit: 120), locations)
        case .file:
            let path = sandbox.root.appendingPathComponent("chunk.shop")
            try Data(inputs.flatMap { $0 + [0x0A] }).write(to: path)
            let locations = inputs.indices.map { ["\(path.path):\($0 + 1)"] }
            return await (try sandbox.run(["--continue-on-error", "-f", path.path], stdinData: Data(), timeLimit: 120), locations)
        case .stdin:
            let locations = inputs.indices.map { ["<stdin>:\($0 + 1)"] }
            return await (try sandbox.run(["--continue-on-error"], stdinData: Data(inputs.flatMap { $0 + [0x0A] }), timeLimit: 120),
                    locations)
        }
    }

    /// Runs `input` alone in `mode`.
    func run(_ input: [UInt8], mode: BadInputMode) async throws -> ShopshSandbox.Result {
        let timeLimit = 120.0   // a hang, not a speed: a debug build on a loaded machine takes ~15 s for the 10 MB lines
        switch mode {
        case .command:
            return try await sandbox.run(["-c", String(decoding: input, as: UTF8.self)], stdinData: Data(), timeLimit: timeLimit)
        case .file:
            let path = sandbox.root.appendingPathComponent("case.shop")
            try Data(input + [0x0A]).write(to: path)
            return try await sandbox.run(["-f", path.path], stdinData: Data(), timeLimit: timeLimit)
        case .stdin:
            return try await sandbox.run([], stdinData: Data(input + [0x0A]), timeLimit: timeLimit)
        }
    }
}

// MARK: - What a clean failure looks like

enum CleanFailure {
    /// Every problem with `result` for `badCase` ([] when it failed cleanly, or succeeded when accepted).
    static func problems(of result: ShopshSandbox.Result, for badCase: BadInputCase) -> [String] {
        var problems: [String] = []
        if result.timedOut {
            problems.append("timed out")
        } else if result.signalled {
            problems.append("crash: signal \(result.status)")
        } else if badCase.accepted {
            if result.status != 0 { problems.append("exit \(result.status) for an accepted case") }
        } else if result.status == 0 {
            problems.append("exit 0")
        } else if result.status != 1 && result.status != 2 {
            problems.append("exit \(result.status), not 1 or 2")
        }
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast(result.stderr.hasSuffix("\n") ? 1 : 0)
        if badCase.accepted {
            if lines.contains(where: { isErrorLine($0) }) { problems.append("an error line for an accepted case") }
        } else {
            if !result.stdoutData.isEmpty { problems.append("stdout not empty") }
            if lines.count != 1 {
                problems.append("\(lines.count) lines on stderr, not 1")
            } else if let line = lines.first, !isErrorLine(line) {
                problems.append("stderr is not an error line")
            }
            if let line = lines.first(where: { isErrorLine($0) }) {
                for text in badCase.mentions where !mentions(line, text) { problems.append("error does not mention \(text)") }
            }
        }
        let raw = rawControls(in: result.stderrData)
        if !raw.isEmpty { problems.append("raw control characters in stderr: \(raw.joined(separator: " "))") }
        if let leak = leakedInternalMessage(in: result.stderr) { problems.append("error leaks an internal message: \(leak)") }
        return problems
    }

    /// Texts of Foundation, SQLite and the Swift runtime that mean an error reached the operator
    /// unexplained.
    static let internalMessages = ["The operation could not be completed", "NSCocoaErrorDomain", "Error Domain=",
                                   "SQLite error", "SQLITE_", "ORDER BY clause", "LIKE or GLOB pattern", "Fatal error",
                                   "DecodingError", "ShopError"]

    static func leakedInternalMessage(in text: String) -> String? {
        internalMessages.first { text.contains($0) }
    }

    /// What a chunk's run shows.
    struct ChunkVerdict {
        /// The cases (indices) with exactly one clean error line at their own location.
        var clean: Set<Int> = []
        /// No crash, status 1 or 2, valid UTF-8 ending in a newline on stderr.
        var runIsClean = true
        var stdoutIsEmpty = true
        /// Lines on stderr without the location of a case.
        var strayLines: [String] = []

        var wholeRunIsClean: Bool { runIsClean && stdoutIsEmpty && strayLines.isEmpty }

        /// True when the run is clean but for output on stdout and stray stderr lines that the
        /// suspects print when they run alone.
        func isClean(butFor suspectsStdout: Data, suspectsStderr: [String], stdout: Data) -> Bool {
            var unexplained = strayLines
            for line in suspectsStderr { if let index = unexplained.firstIndex(of: line) { unexplained.remove(at: index) } }
            return runIsClean && unexplained.isEmpty && stdout == suspectsStdout
        }
    }

    static func judgeChunk(_ result: ShopshSandbox.Result, cases: [BadInputCase], locations: [[String]]) -> ChunkVerdict {
        var verdict = ChunkVerdict()
        verdict.runIsClean = !result.signalled && !result.timedOut && (result.status == 1 || result.status == 2)
            && (result.stderr.isEmpty || result.stderr.hasSuffix("\n"))
            && String(validating: result.stderrData, as: UTF8.self) != nil
        verdict.stdoutIsEmpty = result.stdoutData.isEmpty
        var linesOfCase: [Int: [Substring]] = [:]
        for line in result.stderr.split(separator: "\n") {
            guard let location = location(of: line), let index = locations.firstIndex(where: { $0.contains(location) }) else {
                verdict.strayLines.append(String(line))
                continue
            }
            linesOfCase[index, default: []].append(line)
        }
        for (index, lines) in linesOfCase {
            guard lines.count == 1, let line = lines.first, isErrorLine(line), rawControls(in: Data(line.utf8)).isEmpty,
                  leakedInternalMessage(in: String(line)) == nil else { continue }
            if cases[index].mentions.allSatisfy({ mentions(line, $0) }) { verdict.clean.insert(index) }
        }
        return verdict
    }

    /// True when the message of an error line (not its location) contains `text`, ignoring case.
    static func mentions(_ line: Substring, _ text: String) -> Bool {
        let message: String
        if line.hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            message = object?["error"] as? String ?? ""
        } else {
            message = line.range(of: "error: ").map { String(line[$0.upperBound...]) } ?? ""
        }
        return message.lowercased().contains(text.lowercased())
    }

    /// The `LOCATION:LINE` an error line starts with, or the "location" of a JSON error.
    static func location(of line: Substring) -> String? {
        if line.hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["location"] as? String
        }
        return line.range(of: ": error: ").map { String(line[..<$0.lowerBound]) }
    }

    /// `error: …`, `shopsh: error: …`, `LOCATION:LINE: error: …`, or a JSON object with an "error" string.
    static func isErrorLine(_ line: Substring) -> Bool {
        if line.hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["error"] as? String).map { !$0.isEmpty } ?? false
        }
        guard let marker = line.range(of: "error: ") else { return false }
        guard line[marker.upperBound...].contains(where: { $0 != " " }) else { return false }
        let prefix = line[..<marker.lowerBound]
        if prefix.isEmpty || prefix == "shopsh: " { return true }
        // LOCATION:LINE: with a non-empty location and a decimal line number.
        guard prefix.hasSuffix(": ") else { return false }
        let location = prefix.dropLast(2)
        guard let colon = location.lastIndex(of: ":") else { return false }
        let number = location[location.index(after: colon)...]
        return colon != location.startIndex && !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The raw control characters in `data` (C0 except a line's final LF, DEL, C1, bidi controls,
    /// bytes that are not UTF-8), named as U+XXXX.
    static func rawControls(in data: Data) -> [String] {
        var found: [String] = []
        if String(validating: data, as: UTF8.self) == nil { found.append("invalid-UTF-8") }
        let bidi: ClosedRange<UInt32> = 0x202A...0x202E, isolates: ClosedRange<UInt32> = 0x2066...0x2069
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            for scalar in line.unicodeScalars {
                let value = scalar.value
                if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || bidi.contains(value)
                    || isolates.contains(value) || value == 0x200E || value == 0x200F {
                    let name = "U+" + String(format: "%04X", value)
                    if !found.contains(name) { found.append(name) }
                }
            }
        }
        return found
    }
}

// MARK: - Chunks and single cases

/// The cases of one mode as they run: chunks that fail are halved down to single cases.
struct CorpusRun {
    struct Failure {
        let line: Int
        let message: String
        let row: String
    }

    let mode: BadInputMode
    let corpus: CorpusSandbox
    var failures: [Failure] = []

    init(mode: BadInputMode, corpus: CorpusSandbox) {
        self.mode = mode
        self.corpus = corpus
    }

    /// Runs a chunk; cases whose error line is missing, doubled or unclean run alone. When the
    /// chunk as a whole went wrong (a crash, output on stdout, a stray stderr line, a changed
    /// store), those cases run alone and the rest is checked again as a chunk; without any such
    /// suspects, the chunk is halved.
    mutating func checkChunk(_ chunk: ArraySlice<BadInputCase>) async throws {
        if chunk.count <= 2 {
            for badCase in chunk { try await checkAlone(badCase) }
            return
        }
        let cases = Array(chunk)
        let (result, locations) = try await corpus.runChunk(cases.map(\.input), mode: mode)
        let storeChanged = try await corpus.storeChange() != nil
        let verdict = CleanFailure.judgeChunk(result, cases: cases, locations: locations)
        let suspects = cases.indices.filter { !verdict.clean.contains($0) }
        var suspectsStdout = Data(), suspectsStderr: [String] = []
        for index in suspects {
            let alone = try await checkAlone(cases[index])
            suspectsStdout += alone.stdoutData
            suspectsStderr += alone.stderr.split(separator: "\n").map(String.init)
        }
        if verdict.wholeRunIsClean && !storeChanged { return }
        // Output that the suspects print alone too (stdout in order) is theirs.
        if !storeChanged
            && verdict.isClean(butFor: suspectsStdout, suspectsStderr: suspectsStderr, stdout: result.stdoutData) { return }
        let rest = cases.indices.filter { verdict.clean.contains($0) }.map { cases[$0] }
        if !suspects.isEmpty {
            try await checkChunk(rest[...])
        } else {
            try await checkChunk(rest[..<(rest.count / 2)])
            try await checkChunk(rest[(rest.count / 2)...])
        }
    }

    @discardableResult
    mutating func checkAlone(_ badCase: BadInputCase) async throws -> ShopshSandbox.Result {
        let result = try await corpus.run(badCase.input, mode: mode)
        var problems = CleanFailure.problems(of: result, for: badCase)
        if let change = try await corpus.storeChange() { problems.append(change) }
        guard !problems.isEmpty else { return result }
        let stderr = BadInputCorpusTests.shown(result.stderrData), stdout = BadInputCorpusTests.shown(result.stdoutData)
        let message = """
            \(mode.rawValue) \(badCase): \(problems.joined(separator: "; "))
              exit \(result.status); stderr: \(stderr); stdout: \(stdout)
            """
        let row = [String(badCase.line), problems.joined(separator: "; "), badCase.source, String(result.status), stderr, stdout]
            .map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: "\t")
        failures.append(Failure(line: badCase.line, message: message, row: row))
        return result
    }
}

// MARK: - The tests

// The corpus proves "changes nothing" on the store file's bytes: the PostgreSQL pass skips it.
@Suite(.aboutTheSQLiteFile) struct BadInputCorpusTests {
    @Test func theCorpusHoldsAtLeast300WellFormedCases() async throws {
        let cases = try await BadInputCorpus.load()
        #expect(cases.count >= 300, "only \(cases.count) cases")
    }

    @Test func theCorpusNotationExpandsToTheBytesItNames() async throws {
        await #expect(try BadInputCorpus.expand("a{{ESC}}]{{BEL}}{{NUL}}{{x80}}", line: 0) == [0x61, 0x1B, 0x5D, 0x07, 0x00, 0x80])
        await #expect(try BadInputCorpus.expand("{{U+202E}}{{REPEAT 3:ab}}!", line: 0) == Array("\u{202E}ababab!".utf8))
        #expect(throws: CorpusError.self) { try BadInputCorpus.expand("{{NOPE}}", line: 0) }
        #expect(throws: CorpusError.self) { try BadInputCorpus.expand("{{ESC", line: 0) }
    }

    @Test func theJudgeTellsErrorLinesAndRawControlsApart() {
        for line in ["error: x", "shopsh: error: x", "-c:1: error: x", "-c[2]:1: error: x", "<stdin>:3: error: x",
                     "/tmp/a b/x.shop:12: error: x", #"{"error":"x","location":"-c:1"}"#] {
            #expect(CleanFailure.isErrorLine(Substring(line)), "\(line)")
        }
        for line in ["Error: x", "imported 0 products", "x.shop:1x: error: y", ":1: error: y", "error: ", #"{"ok":1}"#] {
            #expect(!CleanFailure.isErrorLine(Substring(line)), "\(line)")
        }
        #expect(CleanFailure.rawControls(in: Data("error: \"\\x1B]0;x\\a\"\n".utf8)).isEmpty)
        #expect(CleanFailure.rawControls(in: Data("error: \u{1B}]0;x\u{07}\n".utf8)) == ["U+001B", "U+0007"])
        #expect(CleanFailure.rawControls(in: Data("error: \u{202E}x\u{85}\n".utf8)) == ["U+202E", "U+0085"])
        #expect(CleanFailure.rawControls(in: Data([0x65, 0xFF, 0x0A])) == ["invalid-UTF-8"])
    }

    /// Every case, in one sandbox per mode; a case that changed the store is named, and the store
    /// is put back before the next.
    @Test(arguments: BadInputMode.allCases)
    func everyCaseFailsCleanly(mode: BadInputMode) async throws {
        let corpus = try await CorpusSandbox()
        let cases = try await BadInputCorpus.load(orders: corpus.orders).filter { mode != .command || $0.reasonToSkipCommandMode == nil }
        var run = CorpusRun(mode: mode, corpus: corpus)
        for badCase in cases where badCase.runsAlone { try await run.checkAlone(badCase) }
        let chunked = cases.filter { !$0.runsAlone }
        for start in stride(from: 0, to: chunked.count, by: 32) {
            try await run.checkChunk(chunked[start..<min(start + 32, chunked.count)])
        }
        for failure in run.failures.sorted(by: { $0.line < $1.line }) {
            Issue.record(Comment(rawValue: failure.message))
        }
        if let folder = ProcessInfo.processInfo.environment["BADINPUT_REPORT"] {
            let name = ["-c": "command", "-f FILE": "file", "stdin": "stdin"][mode.rawValue] ?? "mode"
            let rows = run.failures.sorted { $0.line < $1.line }.map(\.row)
            let text = (["line\tproblems\tcase\tstatus\tstderr\tstdout"] + rows).joined(separator: "\n") + "\n"
            try text.write(toFile: folder + "/badinput-\(name).tsv", atomically: true, encoding: .utf8)
        }
    }

    /// Bad command lines of the binary itself (global options, -f files, stores): run once each in
    /// the sandbox's folder, they must fail as cleanly as the corpus's lines, and leave the store
    /// and the fixture files alone.
    static let badCommandLines: [[String]] = [
        ["--frobnicate"], ["-c"], ["-f"], ["--format"], ["--store"],
        ["-o", "xml", "-c", "products show 1"],
        ["--color", "purple", "-c", "products show 1"],
        ["--limit", "-1", "-c", "products list"],
        ["--limit", "abc", "-c", "products list"],
        ["--offset", "9223372036854775808", "-c", "products list"],
        ["--sort", "nope", "-c", "products list"],
        ["--fields", "nope", "-c", "products show 1"],
        ["--fields", "id,id", "-c", "products show 1"],
        ["-f", "fixtures/missing.shop"],
        ["-f", "fixtures"],
        ["-f", "fixtures/empty.txt", "-f", "fixtures/missing.shop"],
        ["-f", "fixtures/garbage.bin"],
        ["-f", "fixtures/self-source.shop"],
        ["--store", "fixtures/garbage.bin", "-c", "products show 1"],
        ["--store", "fixtures", "-c", "products show 1"],
        ["--store", "fixtures/garbage.bin/shop.sqlite", "-c", "products show 1"],
        ["init", "--store", "fixtures/garbage.bin"],
        ["init", "--frobnicate"],
        ["products", "show", "99999"],
        ["products", "show", "\u{1B}]0;pwned\u{07}"],
        ["frobnicate"],
    ]

    @Test func everyBadCommandLineFailsCleanly() async throws {
        let corpus = try await CorpusSandbox()
        let garbage = corpus.sandbox.root.appendingPathComponent("fixtures/garbage.bin")
        let garbageBefore = try Data(contentsOf: garbage)
        for arguments in Self.badCommandLines {
            let badCase = BadInputCase(line: 0, source: arguments.joined(separator: " "), input: [], accepted: false, mentions: [])
            let result = try await corpus.sandbox.run(arguments, stdinData: Data(), timeLimit: 30)
            let problems = await CleanFailure.problems(of: result, for: badCase) + [try corpus.storeChange()].compactMap { $0 }
            #expect(problems.isEmpty, """
                shopsh \(Self.shown(Data(badCase.source.utf8))): \(problems.joined(separator: "; "))
                  exit \(result.status); stderr: \(Self.shown(result.stderrData)); stdout: \(Self.shown(result.stdoutData))
                """)
            #expect(try Data(contentsOf: garbage) == garbageBefore, "shopsh \(badCase.source) wrote to fixtures/garbage.bin")
        }
    }

    /// Output as Swift would write it in a string literal, cut at 300 characters.
    static func shown(_ data: Data) -> String {
        let text = String(decoding: data.prefix(600), as: UTF8.self)
        let escaped = text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
        return "\"" + (escaped.count > 300 ? String(escaped.prefix(300)) + "…" : escaped) + "\""
            + (data.count > 600 ? " (\(data.count) bytes)" : "")
    }
}
