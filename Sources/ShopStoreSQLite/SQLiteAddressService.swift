// SQLiteAddressService: AddressService on SQLite — a customer's saved addresses in `addresses`
// (Schema v10), each write one transaction with its audit row; partial unique indexes keep one
// default per use.

import GRDB
import ShopCore
import ShopStoreKit

struct SQLiteAddressService: AddressService {
    let database: DatabaseQueue
    let clock: ShopClock

    static let columns = "id, user_id, name, line1, line2, city, state, postal_code, country, phone, default_shipping, default_billing"

    func addresses(_ user: String) async throws -> [CustomerAddress] {
        try database.shopRead { db in
            let customer = try SQLiteUserLookup.find(db, user)
            return try Self.all(db, userID: customer.id)
        }
    }

    func addAddress(_ user: String, _ address: PostalAddress, defaults: Set<AddressUse>) async throws -> CustomerAddress {
        let checked = try AddressRules.checked(address)
        return try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let existing = try Self.all(db, userID: customer.id)
            guard existing.count < AddressRules.maxPerCustomer else {
                throw ShopError.conflict("\(customer.username) has \(existing.count) addresses, the most one customer keeps; remove one first")
            }
            // The first address is the default for both uses.
            let uses = existing.isEmpty ? Set(AddressUse.allCases) : defaults
            for use in uses { try clearDefault(db, userID: customer.id, use: use, action: "add") }
            try db.execute(sql: """
                INSERT INTO addresses (user_id, name, line1, line2, city, state, postal_code, country, phone,
                                       default_shipping, default_billing, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [customer.id, checked.name, checked.line1, checked.line2, checked.city, checked.state,
                                 checked.postalCode, checked.country, checked.phone, uses.contains(.shipping), uses.contains(.billing),
                                 clock.timestamp()])
            let added = try Self.find(db, db.lastInsertedRowID, userID: customer.id, user: user)
            try audit(.address("add", userID: customer.id, before: nil, after: added), db)
            return added
        }
    }

    func updateAddress(_ user: String, _ id: Int64, _ changes: AddressChanges) async throws -> CustomerAddress {
        guard !changes.isEmpty else { throw ShopError.usage("nothing to update: no field is given") }
        return try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let before = try Self.find(db, id, userID: customer.id, user: user)
            let address = try AddressRules.checked(changes.applied(to: before.address))
            try db.execute(sql: """
                UPDATE addresses SET name = ?, line1 = ?, line2 = ?, city = ?, state = ?, postal_code = ?, country = ?, phone = ?
                WHERE id = ?
                """, arguments: [address.name, address.line1, address.line2, address.city, address.state, address.postalCode,
                                 address.country, address.phone, id])
            let after = try Self.find(db, id, userID: customer.id, user: user)
            try audit(.address("update", userID: customer.id, before: before, after: after), db)
            return after
        }
    }

    func removeAddress(_ user: String, _ id: Int64) async throws -> CustomerAddress {
        try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let removed = try Self.find(db, id, userID: customer.id, user: user)
            try db.execute(sql: "DELETE FROM addresses WHERE id = ?", arguments: [id])
            try audit(.address("remove", userID: customer.id, before: removed, after: nil), db)
            return removed
        }
    }

    func setDefaultAddress(_ user: String, _ id: Int64, for use: AddressUse) async throws -> CustomerAddress {
        try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let before = try Self.find(db, id, userID: customer.id, user: user)
            guard !before.defaults.contains(use) else { return before }
            try clearDefault(db, userID: customer.id, use: use, action: "default")
            try db.execute(sql: "UPDATE addresses SET \(Self.defaultColumn(use)) = 1 WHERE id = ?", arguments: [id])
            let after = try Self.find(db, id, userID: customer.id, user: user)
            try audit(.address("default", userID: customer.id, before: before, after: after), db)
            return after
        }
    }

    // MARK: - Helpers

    static func defaultColumn(_ use: AddressUse) -> String { use == .shipping ? "default_shipping" : "default_billing" }

    /// Takes the customer's default for `use` from the address that has it, auditing that
    /// change under the command's `action` (as the server's triggers do on PostgreSQL).
    private func clearDefault(_ db: Database, userID: Int64, use: AddressUse, action: String) throws {
        let column = Self.defaultColumn(use)
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM addresses WHERE user_id = ? AND \(column) = 1", arguments: [userID]) else {
            return
        }
        let before = Self.address(row)
        try db.execute(sql: "UPDATE addresses SET \(column) = 0 WHERE id = ?", arguments: [before.id])
        var after = before
        after.defaults.remove(use)
        try audit(.address(action, userID: userID, before: before, after: after), db)
    }

    static func all(_ db: Database, userID: Int64) throws -> [CustomerAddress] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM addresses WHERE user_id = ? ORDER BY id", arguments: [userID]).map(address)
    }

    /// The customer's address `id` (another customer's is not found, as no address).
    static func find(_ db: Database, _ id: Int64, userID: Int64, user: String) throws -> CustomerAddress {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM addresses WHERE id = ? AND user_id = ?", arguments: [id, userID]) else {
            throw AddressLookup.notFound(id, user: user)
        }
        return address(row)
    }

    static func address(_ row: Row) -> CustomerAddress {
        var defaults: Set<AddressUse> = []
        if row["default_shipping"] as Bool { defaults.insert(.shipping) }
        if row["default_billing"] as Bool { defaults.insert(.billing) }
        return CustomerAddress(id: row["id"], userID: row["user_id"],
                               address: PostalAddress(name: row["name"], line1: row["line1"], line2: row["line2"], city: row["city"],
                                                      state: row["state"], postalCode: row["postal_code"], country: row["country"],
                                                      phone: row["phone"]),
                               defaults: defaults)
    }

    private func audit(_ change: AuditChange, _ db: Database) throws {
        try SQLiteAuditLog.record(change, in: db, at: clock.timestamp())
    }
}
