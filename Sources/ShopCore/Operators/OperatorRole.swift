// OperatorRole and OperatorIdentity: who is at the shell (a database role or an OS login), what
// that operator may do, and whether the session may write at all.

/// What an operator may do. Each role may do everything the one before it may.
///
/// On PostgreSQL these are the group roles `shopsh_viewer`, `shopsh_support` and `shopsh_admin`,
/// and the server enforces them; on SQLite the file's permissions are the only boundary.
public enum OperatorRole: String, CaseIterable, Comparable, Sendable {
    /// Reads everything; customers' emails and phones are masked.
    case viewer
    /// A viewer who may also change baskets and favourites, check out, and set an order's status.
    case support
    /// Everything: products, users, passwords, currency imports.
    case admin

    private var rank: Int {
        switch self {
        case .viewer: return 0
        case .support: return 1
        case .admin: return 2
        }
    }

    public static func < (lhs: OperatorRole, rhs: OperatorRole) -> Bool { lhs.rank < rhs.rank }

    /// The PostgreSQL group role that grants this role: `shopsh_viewer`, …
    public var serverRoleName: String { "shopsh_" + rawValue }

    /// Whether customers' emails and phones are shown masked to this role.
    public var seesMaskedPersonalData: Bool { self == .viewer }

    /// `a viewer`, `an admin`: for messages.
    public var withArticle: String { self == .admin ? "an admin" : "a " + rawValue }
}

/// The operator of a session: who they are, their role, and whether the session is read-only.
public struct OperatorIdentity: Hashable, Sendable {
    /// The database role that logged in (PostgreSQL's `session_user`) or the OS login (SQLite).
    public var name: String
    /// What the operator may do.
    public var role: OperatorRole
    /// Why every write is refused (`--read-only`, a viewer, a hot standby, a read-only file); nil
    /// when the session may write.
    public var readOnlyReason: String?

    public init(name: String, role: OperatorRole, readOnlyReason: String? = nil) {
        self.name = name
        self.role = role
        self.readOnlyReason = readOnlyReason
    }

    /// The `readOnlyReason` of a viewer's session: a viewer never writes.
    public static let viewerReadOnlyReason = "the viewer role"

    /// Whether every write is refused.
    public var isReadOnly: Bool { readOnlyReason != nil }

    /// Why `command` (as typed, e.g. `basket add`) may not run here, as one line; nil when it may.
    /// `needs` is the least role the command needs. A session read-only for a reason of its own
    /// (`--read-only`, a file, a standby) says so first: a higher role would not help there.
    public func refusal(of command: String, needs: OperatorRole) -> ShopError? {
        if let readOnlyReason, readOnlyReason != Self.viewerReadOnlyReason {
            return .conflict("\(command) changes the shop, and this session is read-only (\(readOnlyReason)): nothing was changed")
        }
        if role < needs {
            return .conflict("\(command) needs the \(needs.rawValue) role (or higher); \(name) is \(role.withArticle): nothing was changed")
        }
        if let readOnlyReason {
            return .conflict("\(command) changes the shop, and this session is read-only (\(readOnlyReason)): nothing was changed")
        }
        return nil
    }
}
