// PostgresAddressService: AddressService on PostgreSQL — `addresses` (migration 14), written in
// one transaction per call with the customer's row locked (two operators changing one customer's
// defaults at once take turns); the server's triggers write the audit rows; a viewer reads
// `addresses_masked`.

import Logging
import PostgresNIO
import ShopCore

struct PostgresAddressService: AddressService {
    let database: PostgresDatabase

    static let columns = "id, user_id, name, line1, line2, city, state, postal_code, country, phone, default_shipping, default_billing"

    /// Where addresses are read: masked for a viewer (constant SQL).
    var source: String { database.session.addressesSource }

    func addresses(_ user: String) async throws -> [CustomerAddress] {
        try await database.read("reading addresses") { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            return try await Self.all(connection, userID: customer.id, source: source, logger: database.logger)
        }
    }

    func addAddress(_ user: String, _ address: PostalAddress, defaults: Set<AddressUse>) async throws -> CustomerAddress {
        let checked = try AddressRules.checked(address)
        return try await database.write(.editAddress, action: "add") { connection in
            let customer = try await Self.lockCustomer(connection, user, logger: database.logger)
            let existing = try await Self.all(connection, userID: customer.id, source: "addresses", logger: database.logger)
            guard existing.count < AddressRules.maxPerCustomer else {
                throw ShopError.conflict("\(customer.username) has \(existing.count) addresses, the most one customer keeps; remove one first")
            }
            let uses = existing.isEmpty ? Set(AddressUse.allCases) : defaults
            for use in uses { try await Self.clearDefault(connection, userID: customer.id, use: use, logger: database.logger) }
            var added: Int64?
            for try await id in try await connection.query("""
                INSERT INTO addresses (user_id, name, line1, line2, city, state, postal_code, country, phone,
                                       default_shipping, default_billing, created_at)
                VALUES (\(customer.id), \(checked.name), \(checked.line1), \(checked.line2), \(checked.city), \(checked.state),
                        \(checked.postalCode), \(checked.country), \(checked.phone), \(uses.contains(.shipping)), \(uses.contains(.billing)),
                        \(database.clock.timestamp())::timestamptz)
                RETURNING id
                """, logger: database.logger).decode(Int64.self) {
                added = id
            }
            return try await Self.find(connection, added ?? 0, userID: customer.id, user: user, logger: database.logger)
        }
    }

    func updateAddress(_ user: String, _ id: Int64, _ changes: AddressChanges) async throws -> CustomerAddress {
        guard !changes.isEmpty else { throw ShopError.usage("nothing to update: no field is given") }
        return try await database.write(.editAddress, action: "update") { connection in
            let customer = try await Self.lockCustomer(connection, user, logger: database.logger)
            let before = try await Self.find(connection, id, userID: customer.id, user: user, logger: database.logger)
            let address = try AddressRules.checked(changes.applied(to: before.address))
            try await connection.query("""
                UPDATE addresses SET name = \(address.name), line1 = \(address.line1), line2 = \(address.line2), city = \(address.city),
                                     state = \(address.state), postal_code = \(address.postalCode), country = \(address.country),
                                     phone = \(address.phone)
                WHERE id = \(id)
                """, logger: database.logger)
            return try await Self.find(connection, id, userID: customer.id, user: user, logger: database.logger)
        }
    }

    func removeAddress(_ user: String, _ id: Int64) async throws -> CustomerAddress {
        try await database.write(.editAddress, action: "remove") { connection in
            let customer = try await Self.lockCustomer(connection, user, logger: database.logger)
            let removed = try await Self.find(connection, id, userID: customer.id, user: user, logger: database.logger)
            try await connection.query("DELETE FROM addresses WHERE id = \(id)", logger: database.logger)
            return removed
        }
    }

    func setDefaultAddress(_ user: String, _ id: Int64, for use: AddressUse) async throws -> CustomerAddress {
        try await database.write(.editAddress, action: "default") { connection in
            let customer = try await Self.lockCustomer(connection, user, logger: database.logger)
            let before = try await Self.find(connection, id, userID: customer.id, user: user, logger: database.logger)
            guard !before.defaults.contains(use) else { return before }
            try await Self.clearDefault(connection, userID: customer.id, use: use, logger: database.logger)
            try await connection.query(PostgresQuery(unsafeSQL: "UPDATE addresses SET \(Self.defaultColumn(use)) = true WHERE id = \(id)"),
                                       logger: database.logger)
            return try await Self.find(connection, id, userID: customer.id, user: user, logger: database.logger)
        }
    }

    // MARK: - Helpers

    static func defaultColumn(_ use: AddressUse) -> String { use == .shipping ? "default_shipping" : "default_billing" }

    /// The customer, their row locked (support may lock it through shopsh_lock_basket only).
    static func lockCustomer(_ connection: PostgresConnection, _ user: String, logger: Logger) async throws -> User {
        let customer = try await PostgresUserLookup.find(connection, user, logger: logger)
        _ = try await connection.query("SELECT shopsh_lock_basket(\(customer.id))", logger: logger).collect()
        return customer
    }

    static func clearDefault(_ connection: PostgresConnection, userID: Int64, use: AddressUse, logger: Logger) async throws {
        let column = defaultColumn(use)
        try await connection.query(PostgresQuery(unsafeSQL: "UPDATE addresses SET \(column) = false WHERE user_id = \(userID) AND \(column)"),
                                   logger: logger)
    }

    static func all(_ connection: PostgresConnection, userID: Int64, source: String, logger: Logger) async throws -> [CustomerAddress] {
        var found: [CustomerAddress] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(source) WHERE user_id = \(userID) ORDER BY id"),
                                                        logger: logger).decode(AddressRow.self) {
            found.append(address(row))
        }
        return found
    }

    /// The customer's address `id` (another customer's is not found, as no address).
    static func find(_ connection: PostgresConnection, _ id: Int64, userID: Int64, user: String, logger: Logger) async throws -> CustomerAddress {
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM addresses WHERE id = \(id) AND user_id = \(userID)"),
                                                        logger: logger).decode(AddressRow.self) {
            return address(row)
        }
        throw AddressLookup.notFound(id, user: user)
    }

    typealias AddressRow = (Int64, Int64, String, String, String, String, String, String, String, String?, Bool, Bool)

    static func address(_ row: AddressRow) -> CustomerAddress {
        var defaults: Set<AddressUse> = []
        if row.10 { defaults.insert(.shipping) }
        if row.11 { defaults.insert(.billing) }
        return CustomerAddress(id: row.0, userID: row.1,
                               address: PostalAddress(name: row.2, line1: row.3, line2: row.4, city: row.5, state: row.6, postalCode: row.7,
                                                      country: row.8, phone: row.9),
                               defaults: defaults)
    }
}
