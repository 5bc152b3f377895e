// PostgresSession: who the store's connections log in as, as the server told it when the store
// opened (session_user, its shopsh role, a hot standby, default_transaction_read_only), and
// whether every connection must be read-only. The services read it to pick what they may read
// (a viewer reads users_masked) and the errors read it to say who was refused and why.

import ShopCore
import Synchronization

/// The operator of a store's connections; set once when the store opens, read by every call.
final class PostgresSession: Sendable {
    private struct State {
        var identity: OperatorIdentity?
        var readOnly: Bool
        var warnings: [String] = []
    }

    private let state: Mutex<State>

    /// `readOnly`: the operator asked for a read-only session (`--read-only`).
    init(readOnly: Bool) {
        state = Mutex(State(identity: nil, readOnly: readOnly))
    }

    /// The operator, once the store has asked the server; nil before.
    var identity: OperatorIdentity? { state.withLock { $0.identity } }

    /// Whether connections start with `default_transaction_read_only=on`.
    var isReadOnly: Bool { state.withLock { $0.readOnly } }

    /// What the operator should know about their login (e.g. that it has no shopsh role).
    var warnings: [String] { state.withLock { $0.warnings } }

    /// Records who logged in; a read-only identity makes every later connection read-only too.
    func identify(_ identity: OperatorIdentity, warnings: [String]) {
        state.withLock { state in
            state.identity = identity
            state.warnings = warnings
            if identity.isReadOnly { state.readOnly = true }
        }
    }

    /// Whether personal data must be read through the masking views (a viewer, or a role without
    /// a shopsh role, which the store treats as a viewer).
    var readsMaskedUsers: Bool { identity?.role.seesMaskedPersonalData ?? false }

    /// Where user rows are read: the `users_masked` view for a viewer, else the `users` table.
    /// Constant SQL (one of two names), never a value.
    var usersSource: String { readsMaskedUsers ? "users_masked" : "users" }

    /// Where customers' saved addresses are read (constant SQL, as `usersSource`).
    var addressesSource: String { readsMaskedUsers ? "addresses_masked" : "addresses" }

    /// Where orders' addresses are read (constant SQL, as `usersSource`).
    var orderAddressesSource: String { readsMaskedUsers ? "order_addresses_masked" : "order_addresses" }

    /// Where reviews are read (constant SQL, as `usersSource`): a viewer reads reviewers' emails masked.
    var reviewsSource: String { readsMaskedUsers ? "reviews_masked" : "reviews" }
}
