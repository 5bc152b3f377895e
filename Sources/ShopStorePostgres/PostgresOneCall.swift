// PostgresOneCall: a change to a customer's basket or favourites as one call of a server function
// (PostgresBasketStatements, PostgresRefusingSchema), the customer and the product named as the
// operator typed them. The function says yes with a row, or refuses with its own code and a
// detail that PostgresRefusal words (nothing changed); a customer it did not find gets the
// suggestions of PostgresUserLookup, read then.

import PostgresNIO
import ShopCore

extension PostgresDatabase {
    /// How long a change made in one statement may wait for a lock (`lock_timeout`), outside a
    /// run: a statement that commits by itself would still commit after its shopsh was killed
    /// while it waited (a plugin stopped at its bound, `kill -9`), once the lock came free. One
    /// that meets a lock gives up at once, and the step-by-step path (BEGIN … COMMIT, which
    /// commits only when shopsh says so) waits instead. In a run, nil: the run's own transaction
    /// commits only at its end, and a refused statement would end it.
    var oneCallLockWait: String? { run == nil ? "10ms" : nil }

    /// One call of the query `call` builds from the customer's id (when the reference reads as
    /// one) and name, the product's id and SKU reference, and the command being run; `decode`
    /// reads its one row. Throws the function's refusal in ShopCore's words. nil when the server
    /// raised another error outside a run (see `change`), when the function returned no row, or
    /// when the product is named by a barcode, or when the session may not try: a viewer reads users masked (and may not change anything),
    /// and a read-only session's call would fail. The caller's step-by-step path runs then.
    func changeInOneCall<T: Sendable>(
        _ operation: ShopOperation, user: String, product: String,
        call: (_ customerID: Int64?, _ customerName: String, _ productID: Int64?, _ productReference: String,
               _ lockWait: String?, _ command: String) -> PostgresQuery,
        decode: @escaping (PostgresRow) throws -> T
    ) async throws(ShopError) -> T? {
        // A barcode (which the server functions do not look up) takes the step-by-step path too.
        guard usersSource == "users", !session.isReadOnly, !Barcode.hasShape(product.trimmingASCIISpaces) else { return nil }
        let customer = UserReference(user), item = product.trimmingASCIISpaces
        let query = call(customer.id, customer.name, Int64(item), item, oneCallLockWait, AuditContext.current?.command ?? "")
        do {
            let changed: T?? = try await change(operation) { connection, keepingReceipt -> T? in
                // The receipt is kept for the row the function returns: only when it did its change.
                var kept = query
                kept.sql = "SELECT * FROM (\(query.sql)) AS one_call WHERE \(keepingReceipt)"
                for try await row in try await connection.query(kept, logger: logger) {
                    return try decode(row)
                }
                return nil
            }
            return changed ?? nil
        } catch let error where error == UserReference(customer.name).notFound(suggesting: []) {
            throw customer.notFound(suggesting: try await suggestions(for: customer))
        }
    }

    /// Usernames to suggest for a customer nobody found (PostgresUserLookup.suggestions).
    private func suggestions(for customer: UserReference) async throws(ShopError) -> [String] {
        try await read("looking up users") { connection in
            try await PostgresUserLookup.suggestions(connection, customer, source: usersSource, logger: logger)
        }
    }
}
