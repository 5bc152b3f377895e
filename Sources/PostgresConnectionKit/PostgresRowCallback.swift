// PostgresRowCallback: the long listings' rows, handed over without an async step per row.
// postgres-nio's row sequence takes a lock, installs a cancellation handler and asks for the
// task's executor on every `next()` — a fifth of a million-row export in perf. Its callback API
// calls a closure for each row on the connection's event-loop thread instead, as the rows arrive,
// while the caller waits for the end. Back-pressure comes from the callback itself: while it
// writes the row out, the event loop reads no more from the server.

import Logging
import PostgresNIO

package enum PostgresRowCallback {
    /// Runs `query` and calls `body` with each row, in order, on the connection's event-loop
    /// thread, while the caller waits; an error `body` throws stops the query and is rethrown.
    /// `body` never runs at the same time as the caller (which is suspended until the end) nor
    /// after this returns.
    package static func forEachRow(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger,
                           _ body: (PostgresRow) throws -> Void) async throws {
        try await withoutActuallyEscaping(body) { body in
            let box = Box(body)
            defer { box.clear() }
            _ = try await connection.query(query, logger: logger) { row in try box.call(row) }.get()
        }
    }

    /// Holds the caller's closure for the event-loop thread. Unchecked: the closure is called only
    /// while the caller is suspended awaiting the query's end (the event loop's submission and the
    /// future's completion order the accesses), and cleared before the caller goes on.
    private final class Box: @unchecked Sendable {
        private var body: ((PostgresRow) throws -> Void)?

        package init(_ body: @escaping (PostgresRow) throws -> Void) { self.body = body }

        package func call(_ row: PostgresRow) throws {
            try body?(row)
        }

        package func clear() { body = nil }
    }
}
