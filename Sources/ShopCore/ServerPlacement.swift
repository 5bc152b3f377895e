// ServerPlacement: which database server a session is on, for stores on a server that may have
// standbys (PostgreSQL with a failover formation): the host that serves it, whether that is the
// primary or a read-only standby, and how far a standby's replay lags behind its primary.

/// The server that serves a session.
public struct ServerPlacement: Sendable, Equatable {
    /// The host as the operator names it: `h2:5433`, `[::1]:5432`, or a socket directory.
    public var host: String
    /// Whether the server is a standby (in recovery: it replays its primary and takes no writes).
    public var isStandby: Bool
    /// For a standby, how long ago the last transaction it replayed committed on the primary
    /// (nil on a primary, or when the standby has replayed nothing yet).
    public var replayLag: Duration?

    public init(host: String, isStandby: Bool, replayLag: Duration? = nil) {
        self.host = host
        self.isStandby = isStandby
        self.replayLag = replayLag
    }

    /// `primary` or `standby`.
    public var kind: String { isStandby ? "standby" : "primary" }
}

/// Where a store finds out which server serves it (the PostgreSQL store; none for a file).
public protocol ServerPlacementSource: Sendable {
    /// The server the newest connection went to, without asking it anything.
    var current: ServerPlacement? { get }
    /// The same, asked of the server in one round trip: a standby's replay lag with it.
    func status() async -> ServerPlacement?
}
