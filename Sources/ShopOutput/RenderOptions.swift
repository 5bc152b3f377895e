// RenderOptions: everything a command's flags and the terminal decide about rendering.

/// How to render one listing or record; built by the caller from flags and the environment.
public struct RenderOptions: Sendable {
    /// The output format.
    public var format: OutputFormat
    /// Which columns to show, in this order (`--fields price,id`); nil shows all columns.
    /// An unknown name makes rendering throw `ShopError.invalidInput`.
    public var fields: [String]?
    /// Whether to print the header row (`--no-header` sets false); csv, tsv and table.
    public var header: Bool
    /// When true (`--wide`), table cells are never cut to fit the terminal.
    public var wide: Bool
    /// Whether to colour the table; already resolved by the caller (see `ColorMode.isEnabled`).
    public var color: Bool
    /// The terminal's width in columns; nil means do not cut to a width.
    public var terminalWidth: Int?
    /// Fields of `fields` a table shows only while it fits the terminal uncut (see `TableView`).
    public var optionalFields: Set<String> = []
    /// Table headers that replace `ColumnStyle`'s, by column key (see `TableView`).
    public var headers: [String: String] = [:]
    /// Whether the output reaches a terminal (stdout or the pager, not a file or pipe). Then no
    /// format lets a control character from the data through raw (`TerminalEscaping`'s rule):
    /// table and tsv always escape them, csv then escapes text as the table does, and json and
    /// ndjson write them as JSON escapes (`\u009B`), which mean the same text. Files and pipes
    /// get each format's exact bytes.
    public var toTerminal = false

    public init(format: OutputFormat, fields: [String]? = nil, header: Bool = true, wide: Bool = false,
                color: Bool = false, terminalWidth: Int? = nil, toTerminal: Bool = false) {
        self.format = format
        self.fields = fields
        self.header = header
        self.wide = wide
        self.color = color
        self.terminalWidth = terminalWidth
        self.toTerminal = toTerminal
    }
}
