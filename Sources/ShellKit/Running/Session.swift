// Session: the settings of one shell run (`set format json`, global flags, the environment).

import ShopCore
import ShopOutput

/// Settings that last for the whole run. Global flags (`shopsh -o json …`) and `set` write
/// them; a command's own flags win over them.
public final class Session: @unchecked Sendable {
    /// Output defaults for every command of this run.
    public var output = OutputDefaults()
    /// Paging defaults for every listing of this run.
    public var paging = PagingDefaults()
    /// The store's display name (the prompt shows it).
    public var storeName: String
    /// Where the store is, as the operator named it (a path; a URL without its password):
    /// external plugins get it as `SHOPSH_STORE`.
    public var storeLocation: String?
    /// The current customer (`use USER`) as a USER reference (the user's id, so a rename does
    /// not lose it): USER arguments may then be left out.
    public var currentUser: String?
    /// The current customer's username, for the prompt.
    public var currentUserName: String?
    /// The session's display currency (`set currency CODE`).
    public var currency: String?
    /// Whether long terminal output goes through the pager (`set pager off`, `--no-pager`).
    public var pager = true
    /// Whether each command's time is printed on stderr after it (`set timing on`).
    public var timing = false
    /// The run's variables (`let NAME = …`, `-v NAME=VALUE`), read as `$NAME`.
    public var variables: [String: String] = [:]
    /// The run's aliases (`alias NAME 'COMMANDS'`): name → body.
    public var aliases: [String: String] = [:]
    /// Who is at the shell, their role, and whether the session is read-only.
    public let identity: OperatorIdentity
    /// Which server serves the session, for a store on a server (whoami, `set`, the prompt).
    public var placement: (any ServerPlacementSource)?
    /// The batch's one transaction (`--atomic`, `--dry-run`), if it runs in one: what another
    /// process would write (an external plugin through shopsh) could not join it.
    public var oneTransaction: OneTransactionRun?
    /// The external plugins started during the `--atomic` or `--dry-run` run, in order, each
    /// once: they ran outside its transaction, so its end must not claim to have undone them.
    public internal(set) var pluginsOutsideTheRun: [String] = []

    public init(storeName: String, identity: OperatorIdentity, environment: [String: String]) {
        self.storeName = storeName
        self.identity = identity
        if let value = environment["SHOPSH_FORMAT"], let format = OutputFormat(rawValue: value.lowercased()) {
            output.format = format
        }
    }
}

/// A batch run as one store transaction.
public enum OneTransactionRun: Sendable {
    /// `--atomic`: all the changes, or none if a command fails.
    case atomic
    /// `--dry-run`: every change undone at the end.
    case dryRun

    /// The flag that asked for it.
    public var flag: String { self == .atomic ? "--atomic" : "--dry-run" }
}

/// Session-wide values of the `OutputOptions` flags (nil: not set).
public struct OutputDefaults: Sendable {
    public var format: OutputFormat?
    public var fields: String?
    public var noHeader = false
    public var wide = false
    public var color: ColorMode?

    public init() {}
}

/// Session-wide values of the `PagingOptions` flags (nil: not set).
public struct PagingDefaults: Sendable {
    public var sort: String?
    public var limit: Int?
    public var offset: Int?
    public var all = false

    public init() {}

    public init(_ options: PagingOptions) {
        sort = options.sort
        limit = options.limit
        offset = options.offset
        all = options.all
    }
}
