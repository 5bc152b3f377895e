// HistoryService: what a store gives `--as-of` and `--follow` beyond the audit log itself —
// from when its log answers, the stock ledger after a moment, the log's last id, and a stream
// of signals that the log has grown (pushed by the server on PostgreSQL, its last id watched on
// SQLite).

/// A sign from the store that the audit log may hold rows a follower has not read.
public enum ChangeSignal: Sendable, Equatable {
    /// New rows may exist from this id on (nil: from where the follower last read).
    case changed(from: Int64?)
    /// The stream was lost and found again (`note` says where, e.g. a new primary after a
    /// failover); rows written meanwhile are read from the log, so none is missed.
    case resumed(note: String)
}

/// History a store keeps besides its audit rows.
public protocol HistoryService: Sendable {
    /// The first moment the audit log holds every change from (`2026-11-20T08:00:00Z`): when the
    /// store was created, or when the log started or was last trimmed. nil: it does not know.
    func historyStart() async throws -> String?
    /// Every stock movement after `moment` (a UTC timestamp, exclusive), oldest first.
    func stockMovements(after moment: String) async throws -> [StockMovement]
    /// The audit log's last id (0 when it is empty).
    func lastAuditID() async throws -> Int64
    /// Signals that the log has grown, until the consumer stops iterating (Ctrl-C).
    func changeSignals() -> AsyncThrowingStream<ChangeSignal, any Error>
}

extension ChangeSignal {
    /// A stream of signals that `produce` yields on a task of its own; the stream ends when it
    /// returns (or throws), and the task is cancelled when the consumer stops listening.
    public static func stream(
        _ produce: @escaping @Sendable (AsyncThrowingStream<ChangeSignal, any Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<ChangeSignal, any Error> {
        AsyncThrowingStream { continuation in
            let producer = Task {
                do {
                    try await produce(continuation)
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
    }
}
