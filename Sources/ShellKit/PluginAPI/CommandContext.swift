// CommandContext: what a running command gets: the services, the session, and the output.

import ArgumentParser
import ShopCore
import ShopOutput
import LineEditor
import PluginHost

/// Everything a command may use. Commands never print directly: rows go through `list` and
/// `record`, messages through `note`.
public final class CommandContext: @unchecked Sendable {
    public let services: ShopServices
    public let session: Session
    public let terminal: Terminal
    public let environment: [String: String]
    /// Where data goes: stdout, or a file for `> FILE`.
    public let sink: OutputSink
    /// Whether `sink` is a terminal (false when redirected or piped).
    public let sinkIsTerminal: Bool
    /// The shell that runs this command (for built-ins such as `help` and `source`).
    public let host: any ShellHost
    /// Where the command comes from in a batch (`FILE:LINE`, `-c:1`), for error lines; nil at the prompt.
    public let location: String?
    /// The command being run (its plugin's root and its own type), set by the shell once parsed.
    var command: (root: any ParsableCommand.Type, type: any ParsableCommand.Type)?

    /// The command being run as its words name it (`basket add`), for usage lines and refusals.
    /// Computed when asked (a derived command name costs a type-name lookup).
    public var commandPath: String {
        guard let command else { return "" }
        return command.type == command.root ? command.root.shellName
            : command.root.shellName + " " + command.type.shellName
    }

    public init(services: ShopServices, session: Session, terminal: Terminal, environment: [String: String],
                sink: OutputSink, sinkIsTerminal: Bool, host: any ShellHost, location: String? = nil) {
        self.services = services
        self.session = session
        self.terminal = terminal
        self.environment = environment
        self.sink = sink
        self.sinkIsTerminal = sinkIsTerminal
        self.host = host
        self.location = location
    }

    // MARK: - Resolving options

    /// The format for this command: its flag, else the session's, else table on a terminal and tsv otherwise.
    public func format(_ options: OutputOptions) -> OutputFormat {
        options.format ?? session.output.format ?? OutputFormat.defaultFormat(outputIsTerminal: sinkIsTerminal)
    }

    /// The render options for this command: its flags over the session's defaults.
    ///
    /// Without `--fields`, machine formats show `defaultFields` (every column when nil); a table
    /// shows `tableView` (its optional fields while they fit), or every column with `--wide`.
    public func renderOptions(_ options: OutputOptions, defaultFields: [String]? = nil,
                              tableView: TableView? = nil) -> RenderOptions {
        let fieldsText = options.fields ?? session.output.fields
        let explicit = fieldsText.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingASCIISpaces } }
        let colorMode = options.color ?? session.output.color ?? .auto
        let color = colorMode.isEnabled(outputIsTerminal: sinkIsTerminal, environment: environment)
        let wide = options.wide || session.output.wide
        let format = format(options)
        var rendering = RenderOptions(format: format, fields: explicit ?? defaultFields,
                                      header: !(options.noHeader || session.output.noHeader),
                                      wide: wide, color: color,
                                      terminalWidth: sinkIsTerminal && !wide ? Terminal.width(environment: environment) : nil,
                                      // The one place where the output layer learns that its bytes
                                      // reach a terminal: then no format lets data's controls through raw.
                                      toTerminal: sinkIsTerminal)
        if format == .table, explicit == nil {
            if wide {
                rendering.fields = nil
            } else if let tableView {
                rendering.fields = tableView.fields
                rendering.optionalFields = tableView.optional
                rendering.headers = tableView.headers
            }
        }
        return rendering
    }

    /// The fields a listing of `columns` may show with these options (as `list` will render
    /// them), so that a command can leave out of its query what nobody will see.
    public func shownFields(_ options: OutputOptions, columns: [Column], defaultFields: [String]? = nil,
                            tableView: TableView? = nil) -> Set<String> {
        Set(renderOptions(options, defaultFields: defaultFields, tableView: tableView).fields ?? columns.map(\.key))
    }

    /// The page to fetch: sort, offset and limit from the flags over the session's defaults.
    /// Without `--limit` or `--all` one row more than the default limit is fetched, so that
    /// `list` can say that more rows exist.
    public func page(_ paging: PagingOptions) throws(ShopError) -> Page {
        let sortText = paging.sort ?? session.paging.sort
        let sort = try sortText.map { (text: String) throws(ShopError) in try SortKey.parseList(text) } ?? []
        let offset = paging.offset ?? session.paging.offset ?? 0
        let limit: Int?
        if paging.all || (paging.limit == nil && session.paging.all) {
            limit = nil
        } else if let explicit = paging.limit ?? session.paging.limit {
            limit = explicit
        } else {
            limit = PagingOptions.defaultLimit + 1
        }
        return Page(sort: sort, limit: limit, offset: offset)
    }

    // MARK: - Output

    /// Renders a listing as it streams from `produce`, which calls its argument once per row.
    ///
    /// Empty results are normal output (`[]`, a header alone); on a terminal `emptyNote` goes
    /// to stderr. When the default limit cut the listing, a note says how to see more.
    /// Ctrl-C stops the listing between rows.
    /// Without `--fields`, only `defaultFields` (all columns if nil) are shown; a table shows
    /// `tableView` (see `renderOptions`).
    public func list(columns: [Column], defaultFields: [String]? = nil, tableView: TableView? = nil,
                     options: OutputOptions, page: Page,
                     emptyNote: @autoclosure () -> String,
                     produce: (_ emit: ([Cell]) throws -> Void) async throws -> Void) async throws {
        let writer = try Renderer.list(columns: columns,
                                       options: renderOptions(options, defaultFields: defaultFields, tableView: tableView),
                                       sink: sink)
        let cutAt = page.limit == PagingOptions.defaultLimit + 1 ? PagingOptions.defaultLimit : nil
        var emitted = 0
        var truncated = false
        do {
            try await produce { row in
                if let cutAt, emitted >= cutAt {
                    truncated = true
                    return
                }
                if Interrupt.isRequested { throw ShopError.interrupted }
                try writer.write(row)
                emitted += 1
            }
        } catch ShopError.interrupted {
            _ = try? writer.finish()   // close what was printed (a json array's `]`)
            throw ShopError.interrupted
        }
        let count = try writer.finish()
        if count == 0 && terminal.stderrIsTerminal {
            note(emptyNote())
        } else if truncated && terminal.stderrIsTerminal {
            note("(first \(count) rows; use --limit N or --all for more)")
        }
    }

    /// Renders one record (a `show`): key/value lines in a table, one object in json.
    public func record(columns: [Column], defaultFields: [String]? = nil, row: [Cell], options: OutputOptions) throws {
        try Renderer.record(columns: columns, row: row, options: renderOptions(options, defaultFields: defaultFields),
                            sink: sink)
    }

    /// Renders a record with nested rows (``NestedView``: a basket or an order with its lines).
    /// When the rows come out flat without the record (csv, tsv; a table that leaves the record
    /// out), `flatNote` (what they leave out, such as the totals) goes to stderr, or on a
    /// terminal `emptyNote` when there are no rows.
    public func nested(_ view: NestedView, options: OutputOptions, tableView: TableView? = nil,
                       emptyNote: @autoclosure () -> String, flatNote: () throws -> String) throws {
        let layout = try Renderer.nested(view, options: renderOptions(options, tableView: tableView), sink: sink)
        guard case .flat(let rows, let withRecord) = layout, !withRecord else { return }
        if rows == 0 {
            if terminal.stderrIsTerminal { note(emptyNote()) }
        } else {
            note(try flatNote())
        }
    }

    /// Renders a yes/no answer: the word for people, the record in json and ndjson.
    public func answer(_ word: String, columns: [Column], record: [Cell], options: OutputOptions) throws {
        try Renderer.answer(word, columns: columns, record: record, options: renderOptions(options), sink: sink)
    }

    /// A message for the operator (stderr): confirmations, hints, empty-result notes. Data in it
    /// is escaped as in table cells; on a terminal it wraps at word boundaries.
    public func note(_ text: String) {
        let escaped = TerminalEscaping.escape(text)
        let shown = terminal.stderrIsTerminal ? TextWrap.wrap(escaped, width: Terminal.width(environment: environment)) : escaped
        host.writeToStderr(shown + "\n")
    }
}

/// What built-in commands need from the shell that runs them.
public protocol ShellHost: AnyObject, Sendable {
    /// The registered plugins, in order.
    var plugins: [ShellPlugin] { get }
    /// The built-in commands.
    var builtins: [any ShellCommand.Type] { get }
    /// Runs the commands of a file, as `source FILE`.
    func source(path: String, context: CommandContext) async throws
    /// Asks the shell to stop after this command.
    func requestExit()
    /// Asks the shell to stop after this command, the run ending with `status` (`exit N`).
    func requestExit(status: Int32?)
    /// Whether `name` is a command (built-in, plugin, external plugin) or a keyword: no alias may take it.
    func isTakenByCommand(_ name: String) -> Bool
    /// Runs `text` (one command or several lines, blocks included) as typed; `label` names it in error lines.
    func run(text: String, label: String) async -> CommandOutcome
    /// Adds `line` to the prompt's history (nothing outside the prompt).
    func recordHistory(_ line: String)
    /// Writes text to stderr unbuffered, after flushing pending stdout so the two stay in order.
    func writeToStderr(_ text: String)
    /// The interactive history, oldest first (empty in batch mode).
    var history: [String] { get }
    /// Whether commands come from the operator at the interactive prompt (not `-c`, `-f` or stdin).
    var isInteractive: Bool { get }
    /// Shows what the running command has printed so far (output held for the pager goes out
    /// now), before the command asks a question.
    func showOutputSoFar()
    /// Runs a command given as words for `context`'s command (`watch`), exactly as if typed, but
    /// with its output to `context`'s sink and never through the pager.
    ///
    /// Its error line, if any, is reported as usual (at `context`'s location). A Ctrl-C that
    /// stops it is not reported: the outcome is `.failure` and ``Interrupt/isRequested`` stays set.
    func run(words: [String], for context: CommandContext) async -> CommandOutcome
    /// The role the command `words` needs when it changes the shop (nil for one that only reads,
    /// or words that are no command).
    func neededRole(of words: [String]) -> OperatorRole?
    /// How `line` last ended when typed at the prompt in this session; nil if it was not (for
    /// lines recalled from an earlier session's history).
    func promptOutcome(of line: String) -> CommandOutcome?
    /// The external plugins on the search path, described (runs their describes not cached yet).
    func externalPlugins() -> [ExternalPlugin]
    /// The external plugin `name`, if an executable `shopsh-NAME` is on the search path.
    func externalPlugin(named name: String) -> ExternalPlugin?
}
