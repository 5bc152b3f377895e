// ShopError: the one error type of the shop; every case carries a message a person can act on.

/// An error whose message is shown to the operator as one line (`error: <message>`).
public enum ShopError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input that does not have the right shape (an amount, a quantity, a flag value).
    case invalidInput(String)
    /// Something named does not exist (a product id, a user, a file).
    case notFound(String)
    /// The request is well-formed but conflicts with the shop's state (duplicate SKU, no stock).
    case conflict(String)
    /// The command was used wrongly (unknown command or flag); exits with status 2.
    case usage(String)
    /// The storage layer failed (file not writable, corrupt database).
    case storage(String)
    /// The system refused something the shell needs: a pipe, a terminal, a process, writing output.
    case system(String)
    /// The operator pressed Ctrl-C.
    case interrupted
    /// Not a failure: the change was kept, but its answer was lost with its connection (a broken
    /// COMMIT, looked up afterwards). The shell says so in one line and goes on as after success.
    case keptWithoutAnswer(String)

    public var message: String {
        switch self {
        case .invalidInput(let text), .notFound(let text), .conflict(let text),
             .usage(let text), .storage(let text), .system(let text), .keptWithoutAnswer(let text):
            return text
        case .interrupted:
            return "interrupted"
        }
    }

    public var description: String { message }

    /// Whether this error is the operator's misuse of a command (exit status 2) rather than a failure.
    public var isUsageError: Bool {
        if case .usage = self { return true }
        return false
    }
}

extension ShopError {
    /// A sum a store computes (a report's figures) that passes 64-bit integers: SQLite's "integer
    /// overflow", PostgreSQL's SQLSTATE 22003. ShopCore's limits keep each order far below that;
    /// many orders at those limits may add up past it.
    public static func sumTooLarge(doing what: String) -> ShopError {
        .invalidInput("a sum is too large for 64-bit integers, \(what): narrow it (--since, --until, --status, --user); nothing was changed")
    }
}
