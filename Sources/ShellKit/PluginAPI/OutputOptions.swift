// OutputOptions and PagingOptions: the flags every command that prints data accepts.

import ArgumentParser
import ShopCore
import ShopOutput

extension OutputFormat: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}

/// How to render: `-o/--format`, `--fields`, `--no-header`, `--wide`, `--color`.
public struct OutputOptions: ParsableArguments, Sendable {
    @Option(name: [.customShort("o"), .customLong("format")],
            help: "Output format: table, json, ndjson, csv or tsv (default: table on a terminal, tsv otherwise).")
    public var format: OutputFormat?

    @Option(help: ArgumentHelp("Comma-separated fields to show, in order.", valueName: "a,b,…"))
    public var fields: String?

    @Flag(name: .customLong("no-header"), help: "Leave out the header row (table, csv, tsv).")
    public var noHeader = false

    @Flag(help: "Tables: show every column and never cut a cell to the terminal width.")
    public var wide = false

    @Option(help: "Colour: auto, always or never (NO_COLOR turns auto off).")
    public var color: ColorMode?

    @Flag(name: .customLong("no-pager"), help: "Do not send long output on a terminal through $PAGER.")
    public var noPager = false

    public init() {}

    /// The format `-o`/`--format` asks for in a command's words (the last one given; `fallback`
    /// when none is), read without parsing them: a command that failed to parse still reports
    /// its error in that format. A value that is no format gives nil.
    static func format(in words: [String], fallback: OutputFormat?) -> OutputFormat? {
        var format = fallback
        var index = 0
        while index < words.count {
            let word = words[index]
            if (word == "-o" || word == "--format"), index + 1 < words.count {
                format = OutputFormat(rawValue: words[index + 1])
                index += 1
            } else if word.hasPrefix("--format=") {
                format = OutputFormat(rawValue: String(word.dropFirst("--format=".count)))
            }
            index += 1
        }
        return format
    }
}

/// Which rows of a listing: `--sort`, `--limit`, `--offset`, `--all`.
public struct PagingOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Sort by fields, e.g. price:desc,title.", valueName: "field[:desc]"))
    public var sort: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most N rows (default \(PagingOptions.defaultLimit)).", valueName: "N"))
    public var limit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip the first N rows.", valueName: "N"))
    public var offset: Int?

    @Flag(help: "Show every row (no limit).")
    public var all = false

    /// Rows a listing shows when neither `--limit` nor `--all` is given.
    public static let defaultLimit = 50

    public init() {}

    public func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more") }
        if all && limit != nil { throw ValidationError("--all and --limit cannot be used together") }
    }
}
