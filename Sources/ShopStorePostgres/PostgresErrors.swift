// PostgresErrors: postgres-nio's errors as ShopError, in one line an operator can act on. The
// query text and its bound values are never part of the message (they may hold customer data).

import NIOCore
import NIOPosix
import PostgresConnectionKit
import PostgresNIO
import ShopCore
import PostgresShopSchema

/// Maps errors from postgres-nio (and transactions) to the shop's one error type.
enum PostgresErrors {
    /// COMMIT failed: when the connection broke, nobody knows whether the server committed.
    struct CommitFailed: Error {
        var underlying: any Error
    }

    /// The SQLSTATE of a query cancelled on request (Ctrl-C).
    static let queryCanceled = "57014"

    /// SQLSTATEs that mean "someone else made it first" while creating shared objects concurrently.
    static let duplicateStates: Set<String> = ["23505", "42P07", "42710"]

    /// Whether `error` is a duplicate key or object (a lost race of `CREATE … IF NOT EXISTS`).
    static func isDuplicateObject(_ error: PSQLError) -> Bool {
        error.serverInfo?[.sqlState].map(duplicateStates.contains) ?? false
    }

    /// The SQLSTATE of `error` (or of the error a transaction wraps), if the server sent one.
    static func sqlState(_ error: any Error) -> String? {
        (innermost(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// `error` as a ShopError: a ShopError thrown inside a transaction comes out unchanged; a
    /// server error says what the server said; a connection failure says so. With the `session`,
    /// a refusal for want of privileges or of a writable transaction names the operator, and
    /// `needs`, the role that may do it (`writing`: the call was a change, so nothing changed).
    static func shopError(_ error: any Error, doing what: String, session: PostgresSession? = nil,
                          needs: OperatorRole? = nil, writing: Bool = false) -> ShopError {
        let error = innermost(error)
        if let shopError = error as? ShopError { return shopError }
        if let kitError = error as? PostgresKitError { return ShopError(kitError) }
        if error is CancellationError { return .interrupted }
        if let failed = error as? PostgresConnections.ConnectFailed {
            return .storage("cannot reach the PostgreSQL server (\(reason(failed.underlying))), \(what)")
        }
        if let none = error as? PostgresConnections.NoServer {
            return .storage("cannot use any of the PostgreSQL servers\(none.wanted), \(what): \(none.skipped.joined(separator: "; "))")
        }
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo {
                let message = info[.message] ?? "the server refused it"
                if let state = info[.sqlState], let refused = PostgresRefusal.error(state: state, detail: info[.detail]) {
                    return refused
                }
                if let state = info[.sqlState], let refusal = refusal(state, doing: what, identity: session?.identity,
                                                                       needs: needs, writing: writing) {
                    return refusal
                }
                // Two writers at once on one unique key: the loser's refusal is a conflict, as on SQLite.
                if info[.sqlState] == "23505" { return .conflict("\(what): \(message)") }
                // admin_shutdown, crash_shutdown…: the server ended the session (a restart, pg_terminate_backend).
                if let state = info[.sqlState], state.hasPrefix("57P") {
                    return .storage("the PostgreSQL server closed the connection (\(message)), \(what); an open transaction was rolled back by the server")
                }
                // query_canceled: Ctrl-C asked the server to stop the query.
                if info[.sqlState] == queryCanceled { return .interrupted }
                return refusedByServer(state: info[.sqlState] ?? "", message: message, doing: what)
            }
            switch psql.code {
            case .connectionError:
                let cause = psql.underlying.map { " (\(reason($0)))" } ?? ""
                return .storage("cannot reach the PostgreSQL server\(cause), \(what)")
            case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
                return .storage("the PostgreSQL server closed the connection, \(what); an open transaction was rolled back by the server")
            case .queryCancelled:
                return .interrupted
            case .authMechanismRequiresPassword:
                return .storage("the PostgreSQL server wants a password: put it in the URL, PGPASSWORD or ~/.pgpass")
            default:
                return .storage("PostgreSQL, \(what): \(psql.code)")
            }
        }
        return .storage("PostgreSQL, \(what): \(error)")
    }

    /// How every refusal for want of a privilege begins.
    static let permissionDenied = "permission denied by the server"

    /// Whether `error` is the server's refusal for want of a privilege (as `refusal` words it).
    static func isPermissionRefusal(_ error: ShopError) -> Bool {
        error.message.hasPrefix(permissionDenied)
    }

    /// SQLSTATE 42501 (insufficient_privilege) and 25006 (read_only_sql_transaction) as one line
    /// naming the operator and the role needed, without the server's words (they may quote SQL);
    /// nil for any other state.
    static func refusal(_ state: String, doing what: String, identity: OperatorIdentity?, needs: OperatorRole?,
                        writing: Bool) -> ShopError? {
        guard state == "42501" || state == "25006" else { return nil }
        let outcome = writing ? "; nothing was changed" : ""
        let who = identity.map { "\($0.name) (\($0.role.withArticle))" } ?? "this login"
        // A role below the one needed is refused for that, even when its read-only transaction
        // was what the server noticed first.
        if let needs, state == "42501" || (identity.map { $0.role < needs } ?? false) {
            return .conflict("\(permissionDenied), \(what): \(who) may not do that (it needs the \(needs.serverRoleName) role)\(outcome)")
        }
        if state == "42501" {
            return .conflict("\(permissionDenied), \(what): \(who) may not do that\(outcome)")
        }
        let reason = identity?.readOnlyReason.map { "this session is read-only (\($0))" }
            ?? "the server allows only reads here (a hot standby, or default_transaction_read_only)"
        return .conflict("the server refused a change, \(what): \(reason)\(outcome)")
    }

    /// Any other refusal of the server, as one line in our words: a value it would not take
    /// (class 22) is invalid input, a constraint (23) a conflict, a program limit (54: e.g. an index
    /// row too large) too large to keep; the server's own message goes with it (shown escaped, as
    /// every error is), its SQLSTATE never. ShopCore's rules refuse such input before it gets here.
    static func refusedByServer(state: String, message: String, doing what: String) -> ShopError {
        if state == "22003" { return .sumTooLarge(doing: what) }
        switch state.prefix(2) {
        case "22": return .invalidInput("the PostgreSQL server refused a value, \(what): \(message)")
        case "23": return .conflict("the PostgreSQL server refused it, \(what): \(message)")
        case "54": return .invalidInput("too large for the PostgreSQL server to keep, \(what); nothing was changed")
        default: return .storage("the PostgreSQL server refused it, \(what): \(message)")
        }
    }

    /// What `host` did when a connection was tried, as a clause: `127.0.0.1:5432 refused the
    /// connection`, or `h2:5433: timed out`.
    static func hostFailure(_ host: String, _ error: any Error) -> String {
        let why = connectFailure(error)
        return why == "connection refused" ? "\(host) refused the connection" : "\(host): \(why)"
    }

    /// Why a connection to one host failed, in a few words (for a line that names every host).
    static func connectFailure(_ error: any Error) -> String {
        if let failed = error as? PostgresConnections.ConnectFailed { return reason(failed.underlying) }
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo { return info[.message] ?? "refused by the server" }
            switch psql.code {
            case .connectionError: return psql.underlying.map(reason) ?? "cannot connect"
            case .authMechanismRequiresPassword: return "wants a password"
            case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection: return "closed the connection"
            default: return "\(psql.code)"
            }
        }
        if let shopError = error as? ShopError { return shopError.message }
        return reason(error)
    }

    /// Why a connection could not be made, in a few words (`connection refused`, `timed out`…).
    static func reason(_ error: any Error) -> String {
        if let failed = error as? NIOConnectionError {
            if let first = failed.connectionErrors.first { return reason(first.error) }
            if let resolution = failed.dnsAError ?? failed.dnsAAAAError { return "cannot resolve \(failed.host): \(resolution)" }
            return "cannot connect to \(failed.host):\(failed.port)"
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if error is ChannelError { return "timed out" }
        return "\(error)"
    }

    /// A change whose connection broke while it was committing (a failover, a server that died)
    /// and that kept no receipt to look up (PostgresExactlyOnce): one line naming the command.
    static var outcomeUnknown: ShopError {
        let command = AuditContext.current.map { " (\($0.command))" } ?? ""
        return .storage("the connection to the PostgreSQL server broke while committing\(command): the change may or may not have been kept; look before running it again")
    }

    /// The error that caused `error`: what a transaction's body, BEGIN or COMMIT threw.
    static func innermost(_ error: any Error) -> any Error {
        if let failed = error as? CommitFailed {
            return isUnknown(failed) ? outcomeUnknown : innermost(failed.underlying)
        }
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
                return innermost(inner)
            }
        }
        return error
    }
}

extension ShopError {
    /// The connection kit's refusal as the shop's error: the one place it crosses the seam.
    init(_ error: PostgresKitError) {
        switch error.kind {
        case .usage: self = .usage(error.message)
        case .storage: self = .storage(error.message)
        }
    }
}

extension PostgresStore {
    /// The connection settings `text` (a URL or `key=value` words) with `environment`'s PG…
    /// variables, service and password files, or the kit's refusal as a usage error.
    public static func settings(_ text: String, environment: [String: String]) throws(ShopError) -> PostgresConnectionString {
        do {
            return try PostgresConnectionString(text, environment: environment)
        } catch {
            throw ShopError(error)
        }
    }
}
