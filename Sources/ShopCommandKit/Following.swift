// Following: `--follow` — the audit rows a follower has not read, as the store signals them
// (HistoryService.changeSignals: pushed by PostgreSQL, watched on SQLite), each read once in id
// order, until Ctrl-C; and where a follow prints: a table follows with one line per change,
// ndjson/csv/tsv with one row per change (flushed at once, so `| jq` sees it), json not at all.

import Glibc
import LineEditor
import ShellKit
import ShopCore
import ShopOutput

/// Where the changes a follow prints go.
public final class FollowOutput {
    private let context: CommandContext
    private let writer: (any RowWriter)?

    /// A follow printing rows of `columns` (ndjson, csv, tsv: no second header), or lines (a table).
    public init(columns: [Column], defaultFields: [String]? = nil, options: OutputOptions, context: CommandContext) throws {
        self.context = context
        var rendering = context.renderOptions(options, defaultFields: defaultFields)
        rendering.header = false
        writer = context.format(options) == .table ? nil : try Renderer.list(columns: columns, options: rendering, sink: context.sink)
    }

    /// Refuses a format that cannot stream: json (one array, closed at the end); with
    /// `streamsRows` false (a follow whose first state is not rows of the same shape), csv and tsv too.
    public static func checkFormat(_ format: OutputFormat, streamsRows: Bool) throws(ShopError) {
        switch format {
        case .table, .ndjson: return
        case .csv, .tsv where streamsRows: return
        default:
            throw .usage("--follow prints a stream: use -o ndjson (one object per line)\(streamsRows ? ", csv or tsv" : ""), or a table")
        }
    }

    /// One change: `row` for machine formats, `line` (escaped here) for a table.
    public func emit(row: [Cell], line: @autoclosure () -> String) throws {
        if let writer {
            try writer.write(row)
        } else {
            context.sink.write(TerminalEscaping.escape(line()) + "\n")
        }
    }

    /// Sends what was printed now (a pipe would otherwise hold it).
    public func flush() throws { try context.sink.flush() }
}

/// Reads the audit log as it grows.
public enum AuditFollower {
    /// How many read ids a follower remembers (rows of transactions that committed late are
    /// read by id once, never twice).
    static let rememberedIDs = 100_000

    /// Calls `body` with each batch of rows after `lastID` that `filter` selects, oldest first,
    /// each row once, as the store signals them, until Ctrl-C (which ends it normally).
    public static func follow(after lastID: Int64, filter: AuditFilter, context: CommandContext,
                              _ body: ([AuditEntry]) async throws -> Void) async throws {
        unblockEndingSignals()
        let signals = context.services.history.changeSignals()
        let (events, continuation) = AsyncThrowingStream<ChangeSignal, any Error>.makeStream()
        let pump = Task {
            do {
                for try await signal in signals { continuation.yield(signal) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let watcher = Task {
            while !Interrupt.isRequested, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
            continuation.finish()
        }
        defer {
            pump.cancel()
            watcher.cancel()
        }
        var last = lastID
        var seen: Set<Int64> = []
        for try await event in events {
            switch event {
            case .resumed(let note):
                context.note(note)
            case .changed(let from):
                var query = filter
                query.afterID = min(last, (from ?? last &+ 1) &- 1)
                var rows: [AuditEntry] = []
                let read = { [seen] in
                    rows = []
                    try await context.services.audit.listAudit(query, page: Page(sort: [SortKey(field: "id")])) { row in
                        if !seen.contains(row.id) { rows.append(row) }
                    }
                }
                do {
                    try await read()
                } catch where !Interrupt.isRequested {
                    // Nothing of a read that failed was printed: a connection that broke under it
                    // (a failover's shutdown) is followed to the server now serving, and it runs again.
                    try await read()
                }
                guard !rows.isEmpty else { continue }
                for row in rows { seen.insert(row.id) }
                last = max(last, rows.map(\.id).max() ?? last)
                if seen.count > rememberedIDs { seen = seen.filter { $0 > last &- Int64(rememberedIDs / 2) } }
                try await body(rows)
            }
        }
    }
}

/// A follow runs until it is told to stop: a parent that started shopsh with SIGINT, SIGTERM or
/// SIGHUP blocked (a test runner, some supervisors) must still reach it. Signals a parent set to
/// be ignored (`&` in a script) stay ignored.
func unblockEndingSignals() {
    var ending = sigset_t()
    sigemptyset(&ending)
    for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&ending, number) }
    pthread_sigmask(SIG_UNBLOCK, &ending, nil)
}

extension Optional {
    /// The value mapped by an async function, or nil.
    public func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
