// ReportChartTerminalTests: `orders stats` charts in real terminals (tmux) — at 80 and 120 columns
// no line is wider than the pane and the longest bar belongs to the largest net sales; at 40 the
// chart is dropped rather than squeezed; `--no-chart` and other formats carry none; under `watch`
// the chart fits below the header.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct ReportChartTerminalTests {
    /// The eighths of a cell each bar character fills.
    static let eighths: [Character: Int] = ["▏": 1, "▎": 2, "▍": 3, "▌": 4, "▋": 5, "▊": 6, "▉": 7, "█": 8]

    /// How many eighths of a cell the bar on `line` fills.
    static func barLength(_ line: Substring) -> Int { line.reduce(0) { $0 + (eighths[$1] ?? 0) } }

    /// Runs `command` at the prompt of a fresh demo shop `width` columns wide; returns the screen.
    static func screen(_ command: String, width: Int, sandbox: ShopshSandbox) async throws -> String {
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: width, height: 60, pager: "cat")
        defer { try? terminal.sendNow("exit", "Enter") }
        try await terminal.send(command, "Enter")
        try await terminal.waitFor { $0.components(separatedBy: "\(terminal.prompt)>").count == 3 }
        return try await terminal.joinedScreen()
    }

    @Test(arguments: [80, 120])
    func theLongestBarIsTheLargestNetAndNoLineIsWiderThanThePane(width: Int) async throws {
        let sandbox = try await ShopshSandbox()
        let months = try await #require(try JSONSerialization.jsonObject(with: Data(try sandbox.ok("orders stats --by month -o json").utf8))
            as? [[String: Any]])
        let largest = try #require(months.max { ($0["net"] as? Double ?? 0) < ($1["net"] as? Double ?? 0) }?["month"] as? String)
        let screen = try await Self.screen("orders stats --by month", width: width, sandbox: sandbox)
        // The output's lines (the typed command after a long prompt may wrap: it is not output).
        for line in screen.split(separator: "\n") where !line.hasPrefix(sandbox.prompt + ">") {
            #expect(line.count <= width, "a line wraps at \(width) columns: \(line)")
        }
        let rows = screen.split(separator: "\n").filter { line in months.contains { line.hasPrefix($0["month"] as? String ?? "?") } }
        #expect(rows.count == months.count, "\(screen)")
        #expect(rows.allSatisfy { Self.barLength($0) > 0 }, "every month with sales has a bar:\n\(screen)")
        let longest = try #require(rows.max { Self.barLength($0) < Self.barLength($1) })
        #expect(longest.hasPrefix(largest), "the longest bar is \(longest), the largest net \(largest)")
        #expect(rows.filter { Self.barLength($0) == Self.barLength(longest) }.count == 1)
        // The sparkline under the months: one character each.
        #expect(screen.contains("net USD  \(months.first?["month"] as? String ?? "?") "), "\(screen)")
    }

    @Test func at40ColumnsAndWithNoChartThereIsNone() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("orders stats --by status")   // the demo shop is made (its note is long)
        let narrow = try await Self.screen("orders stats --by month", width: 40, sandbox: sandbox)
        #expect(!narrow.contains { Self.eighths[$0] != nil }, "\(narrow)")
        for line in narrow.split(separator: "\n") where !line.hasPrefix(sandbox.prompt + ">") { #expect(line.count <= 40, "\(line)") }
        #expect(narrow.contains("2026") || narrow.contains("2025"), "the figures are there:\n\(narrow)")
        let off = try await Self.screen("orders stats --by category --no-chart", width: 120, sandbox: sandbox)
        #expect(!off.contains { Self.eighths[$0] != nil } && off.contains("smartphones"), "\(off)")
        // Piped formats never carry one, whatever the terminal.
        for format in ["json", "csv", "tsv", "ndjson"] {
            await #expect(!(try sandbox.ok("orders stats --by month -o \(format)")).contains { Self.eighths[$0] != nil || $0 == "▁" })
        }
    }

    @Test func watchRedrawsTheChartBelowItsHeader() async throws {
        let sandbox = try await ShopshSandbox()
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 80, height: 30)
        try await terminal.send("watch -n 1 orders stats --by day --since 7d", "Enter")
        let screen = try await terminal.waitFor { $0.hasPrefix("Every 1s: orders stats") && $0.contains("net USD  ") }
        for line in screen.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        #expect(screen.split(separator: "\n").filter { Self.barLength($0) > 0 }.count >= 5, "\(screen)")
        try await terminal.send("C-c")
        try await terminal.waitFor { $0.contains("^C\(terminal.prompt)>") }
        try await terminal.send("exit", "Enter")
    }
}
