// SeedOrderAddressSQL: where the demo's orders go — each seeded order gets a copy of its
// customer's default shipping address, as checkout would have made it. One statement, the same
// text on SQLite and PostgreSQL, run once after a seed's orders and addresses are in.

/// The SQL that gives seeded orders their address.
package enum SeedOrderAddressSQL {
    /// Copies each customer's default shipping address into their orders that have none.
    package static let copyDefaults = """
        INSERT INTO order_addresses (order_id, name, line1, line2, city, state, postal_code, country, phone)
        SELECT o.id, a.name, a.line1, a.line2, a.city, a.state, a.postal_code, a.country, a.phone
        FROM orders o JOIN addresses a ON a.user_id = o.user_id AND a.default_shipping
        WHERE NOT EXISTS (SELECT 1 FROM order_addresses x WHERE x.order_id = o.id)
        """
}
