// PostalAddress: where an order goes and who pays for it — a customer's saved addresses (several;
// one default for shipping and one for billing) and the copy an order keeps from checkout, which a
// later change to the customer's addresses never touches. Addresses are personal data (masked for
// a viewer as emails are).

/// The fields of an address, as people expect them on a label.
public struct PostalAddress: Hashable, Sendable {
    /// Who the parcel is for (empty: the customer's own name).
    public var name: String
    public var line1: String
    public var line2: String
    public var city: String
    public var state: String
    public var postalCode: String
    /// ISO 3166-1 alpha-2, upper case (CountryCodes).
    public var country: String
    public var phone: String?

    public init(name: String = "", line1: String, line2: String = "", city: String, state: String = "", postalCode: String = "",
                country: String, phone: String? = nil) {
        self.name = name
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.phone = phone
    }

    /// The address on one line, its parts joined by ", " (empty parts left out).
    public var singleLine: String {
        [name, line1, line2, city, [state, postalCode].filter { !$0.isEmpty }.joined(separator: " "), country, phone ?? ""]
            .filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// What an address is used for by default.
public enum AddressUse: String, CaseIterable, Hashable, Sendable {
    case shipping, billing
}

/// One of a customer's saved addresses.
public struct CustomerAddress: Hashable, Sendable, Identifiable {
    /// The address's number, unique in the store.
    public var id: Int64
    public var userID: Int64
    public var address: PostalAddress
    /// The uses this address is the customer's default for (one address per use at most).
    public var defaults: Set<AddressUse>

    public init(id: Int64, userID: Int64, address: PostalAddress, defaults: Set<AddressUse> = []) {
        self.id = id
        self.userID = userID
        self.address = address
        self.defaults = defaults
    }
}

/// A change to some fields of a saved address (nil: unchanged).
public struct AddressChanges: Hashable, Sendable {
    public var name: String?
    public var line1: String?
    public var line2: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
    public var country: String?
    /// `.some(nil)` removes the phone.
    public var phone: String??

    public init(name: String? = nil, line1: String? = nil, line2: String? = nil, city: String? = nil, state: String? = nil,
                postalCode: String? = nil, country: String? = nil, phone: String?? = nil) {
        self.name = name
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
        self.phone = phone
    }

    public var isEmpty: Bool { self == AddressChanges() }

    /// `address` with these changes made.
    public func applied(to address: PostalAddress) -> PostalAddress {
        var changed = address
        if let name { changed.name = name }
        if let line1 { changed.line1 = line1 }
        if let line2 { changed.line2 = line2 }
        if let city { changed.city = city }
        if let state { changed.state = state }
        if let postalCode { changed.postalCode = postalCode }
        if let country { changed.country = country }
        if let phone { changed.phone = phone }
        return changed
    }
}
