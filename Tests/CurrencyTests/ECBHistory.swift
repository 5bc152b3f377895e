// ECBHistory: the shipped ECB full history (Tests/Data, gzipped) for the currency tests, and an
// independent reading of it (plain text splitting, Foundation Decimal) to compute what to expect.

import Foundation

/// The real ECB history 1999-01-04…2026-04-13, unpacked once per test run.
enum ECBHistory {
    static let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/ecb-eurofxref/eurofxref-hist.csv.gz")

    /// The unpacked `eurofxref-hist.csv` in a temporary folder.
    static func file() throws -> URL { try unpacked.get() }

    private static let unpacked: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-ecb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("eurofxref-hist.csv")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", archive.path]
        guard FileManager.default.createFile(atPath: target.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let output = try FileHandle(forWritingTo: target)
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return target
    }

    /// The history as a table: for each day (newest first) the rates per code. EUR is 1 every day.
    static func table() throws -> [(date: String, rates: [String: Decimal])] {
        let lines = try String(contentsOf: try file(), encoding: .utf8).split(separator: "\n")
        guard let header = lines.first else { return [] }
        let codes = header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var rates: [String: Decimal] = ["EUR": 1]
            for (code, cell) in zip(codes, cells).dropFirst() where !code.isEmpty && cell != "N/A" && !cell.isEmpty {
                rates[code] = Decimal(string: cell, locale: Locale(identifier: "en_US_POSIX"))
            }
            return (cells[0], rates)
        }
    }

    /// The latest day on or before `limit` on which both codes have a rate, found by walking the file.
    static func commonDay(_ a: String, _ b: String, onOrBefore limit: String?,
                          in table: [(date: String, rates: [String: Decimal])]) -> (date: String, rates: [String: Decimal])? {
        table.first { row in (limit.map { row.date <= $0 } ?? true) && row.rates[a] != nil && row.rates[b] != nil }
    }

    /// `amount` × to / from, rounded half away from zero to `digits` decimals, as shopsh prints it.
    static func converted(_ amount: Decimal, from: Decimal, to: Decimal, digits: Int) -> String {
        var exact = amount * to / from
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, digits, .plain)
        return fixed(rounded, digits: digits)
    }

    /// `rounded` with exactly `digits` decimals (Decimal drops trailing zeros when printed).
    static func fixed(_ rounded: Decimal, digits: Int) -> String {
        var text = "\(rounded)"
        if digits > 0 {
            if !text.contains(".") { text += "." }
            let decimals = text.count - (text.distance(from: text.startIndex, to: text.firstIndex(of: ".") ?? text.endIndex) + 1)
            text += String(repeating: "0", count: max(0, digits - decimals))
        }
        return text
    }

    /// Days from `earlier` to `later` (both YYYY-MM-DD), by Foundation's Gregorian calendar.
    static func days(from earlier: String, to later: String) -> Int? {
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = utc
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let start = formatter.date(from: earlier), let end = formatter.date(from: later) else { return nil }
        return calendar.dateComponents([.day], from: start, to: end).day
    }
}
