// PostgresServerChoice: which of a connection string's hosts a new connection may use, as libpq's
// `target_session_attrs` decides it (PostgreSQL 14+): hosts tried in order (shuffled once per store
// with `load_balance_hosts=random`), a server that does not match skipped with its reason,
// `prefer-standby` taking a primary only when no standby answers. A read-only session
// (`--read-only`, a viewer once the server has said so) needs no server that takes writes: unless
// the operator asked for something else it prefers a standby, and a `read-write` in the string (as
// `pg_autoctl show uri` writes it) reads as that too.


/// The hosts a store may connect to and what it asks of the server it lands on.
package struct PostgresServerChoice: Sendable {
    package typealias Host = PostgresConnectionString.Host
    package typealias Attributes = PostgresConnectionString.SessionAttributes

    /// In the order they are tried.
    package let hosts: [Host]
    package let attributes: Attributes

    /// `settings`' hosts and attributes; `readOnly`: the session will not write.
    package init(_ settings: PostgresConnectionString, readOnly: Bool) {
        var hosts = settings.hosts
        if settings.loadBalanceHosts { hosts.shuffle() }
        self.hosts = hosts
        var attributes = settings.targetSessionAttributes
        if readOnly && (!settings.targetSessionAttributesGiven || attributes == .readWrite) { attributes = .preferStandby }
        self.attributes = attributes
    }

    /// What a server said of itself when the connection greeted it.
    package struct ServerState: Sendable, Equatable {
        /// `pg_is_in_recovery()`: a standby.
        package var inRecovery: Bool
        /// Its transactions are read-only by the server's own setting (not the session's).
        package var readOnly: Bool

        package init(inRecovery: Bool, readOnly: Bool) { (self.inRecovery, self.readOnly) = (inRecovery, readOnly) }
    }

    /// Why a server in `state` is not what the first (`strict`) or second pass wants; nil when it is.
    /// `prefer-standby` wants a standby in its first pass and takes any server in its second.
    package func mismatch(_ state: ServerState, strict: Bool) -> String? {
        let refusesWrites = state.inRecovery || state.readOnly
        switch attributes {
        case .any: return nil
        case .readWrite: return refusesWrites ? (state.inRecovery ? "a standby (read-only)" : "read-only (default_transaction_read_only)") : nil
        case .readOnly: return refusesWrites ? nil : "takes writes (not read-only)"
        case .primary: return state.inRecovery ? "a standby, not the primary" : nil
        case .standby: return state.inRecovery ? nil : "the primary, not a standby"
        case .preferStandby: return strict && !state.inRecovery ? "the primary (a standby was preferred)" : nil
        }
    }

    /// Whether a second pass over the hosts may take what the first skipped.
    package var hasSecondPass: Bool { attributes == .preferStandby }
}
