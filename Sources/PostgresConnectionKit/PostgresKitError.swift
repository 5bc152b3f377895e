// PostgresKitError: what the connection kit refuses — a connection string, service file or TLS
// setting it cannot use — as one line that says what is wrong (never a password). The store maps
// it to the shop's own error in one place.

/// A refusal of the connection kit, in one line.
public struct PostgresKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Whether the operator's setting is wrong (`usage`) or the machine's (`storage`: a TLS
    /// certificate that cannot be read).
    public enum Kind: Sendable, Equatable { case usage, storage }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A setting the operator gave that cannot be used.
    public static func usage(_ message: String) -> PostgresKitError { PostgresKitError(.usage, message) }

    /// Something of the machine's that cannot be used.
    public static func storage(_ message: String) -> PostgresKitError { PostgresKitError(.storage, message) }

    public var description: String { message }
}
