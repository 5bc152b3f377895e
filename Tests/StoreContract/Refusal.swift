// Refusal: the kinds of `ShopError` a store answers a refused call with, and the one check
// every error case uses: the call throws that kind, and the store is exactly as before.

import ShopCore
import Testing

/// The kind of `ShopError` a case expects.
enum Refusal: Sendable, CustomStringConvertible {
    case invalidInput, notFound, conflict
    /// Nothing to do (an empty update): `usage` or `invalidInput`.
    case nothingToDo

    func matches(_ error: ShopError) -> Bool {
        switch (self, error) {
        case (.invalidInput, .invalidInput), (.notFound, .notFound), (.conflict, .conflict),
             (.nothingToDo, .usage), (.nothingToDo, .invalidInput):
            return true
        default:
            return false
        }
    }

    var description: String {
        switch self {
        case .invalidInput: "invalidInput"
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .nothingToDo: "usage or invalidInput"
        }
    }
}

extension StoreContract {
    /// Checks that `body` throws a `ShopError` of `kind` and leaves every visible thing in the
    /// store unchanged. Returns the error (for checks of its message).
    @discardableResult
    static func expectRefused<T>(_ kind: Refusal, _ services: ShopServices,
                                 sourceLocation: SourceLocation = #_sourceLocation,
                                 _ body: () async throws -> T) async throws -> ShopError? {
        let before = try await StoreSnapshot.take(services)
        var caught: ShopError?
        do {
            let result = try await body()
            Issue.record("expected a \(kind) error, but the call succeeded and returned \(result)", sourceLocation: sourceLocation)
        } catch let error as ShopError {
            caught = error
            #expect(kind.matches(error), "expected a \(kind) error, got \(String(reflecting: error))",
                    sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, "expected a \(kind) ShopError", sourceLocation: sourceLocation)
        }
        let after = try await StoreSnapshot.take(services)
        #expect(after == before, "the refused call changed the store: \(after.differences(from: before))",
                sourceLocation: sourceLocation)
        return caught
    }
}
