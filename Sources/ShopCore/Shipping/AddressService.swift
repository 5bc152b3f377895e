// AddressService: a customer's saved addresses — several, at most one default for shipping and
// one for billing — as every store keeps them. The first address a customer saves becomes the
// default for both uses; removing a default leaves that use without one.

/// The addresses customers keep for checkout.
public protocol AddressService: Sendable {
    /// The customer's addresses, oldest first.
    func addresses(_ user: String) async throws -> [CustomerAddress]
    /// Saves an address (checked by AddressRules), the default for `defaults` (and for both
    /// uses when it is the customer's first).
    func addAddress(_ user: String, _ address: PostalAddress, defaults: Set<AddressUse>) async throws -> CustomerAddress
    /// Changes fields of the customer's address `id`; orders keep the copy they were placed with.
    func updateAddress(_ user: String, _ id: Int64, _ changes: AddressChanges) async throws -> CustomerAddress
    /// Removes the customer's address `id`.
    func removeAddress(_ user: String, _ id: Int64) async throws -> CustomerAddress
    /// Makes address `id` the customer's default for `use`.
    func setDefaultAddress(_ user: String, _ id: Int64, for use: AddressUse) async throws -> CustomerAddress
}

extension AddressService {
    /// The customer's default address for `use`, if they have one.
    public func defaultAddress(_ user: String, for use: AddressUse) async throws -> CustomerAddress? {
        try await addresses(user).first { $0.defaults.contains(use) }
    }
}

/// What every store says of an address it cannot find.
public enum AddressLookup {
    public static func notFound(_ id: Int64, user: String) -> ShopError {
        .notFound("\(user.quotedForMessage()) has no address \(id) (see: users address \(user) list)")
    }
}
