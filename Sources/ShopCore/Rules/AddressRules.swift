// AddressRules: what an address may hold, for every store: a first line and a city, a country
// that ISO 3166-1 assigns, short single-line texts without control characters, a phone as
// UserRules takes one. Each rule returns the normalised address or throws one line.

/// The rules an address follows.
public enum AddressRules {
    /// The longest name, line, city or state.
    public static let maxTextLength = 100
    /// The longest postal code.
    public static let maxPostalCodeLength = 16
    /// The most addresses one customer keeps.
    public static let maxPerCustomer = 20

    /// `address` trimmed and checked: line 1, city and country given; the country upper-cased.
    public static func checked(_ address: PostalAddress) throws(ShopError) -> PostalAddress {
        var checked = address
        checked.name = try text(address.name, field: "name")
        checked.line1 = try text(address.line1, field: "line 1", required: true)
        checked.line2 = try text(address.line2, field: "line 2")
        checked.city = try text(address.city, field: "city", required: true)
        checked.state = try text(address.state, field: "state")
        checked.postalCode = try text(address.postalCode, field: "postal code", maxLength: maxPostalCodeLength)
        checked.country = try country(address.country)
        checked.phone = try address.phone.flatMap { text throws(ShopError) in try UserRules.phone(text) }
        return checked
    }

    /// An ISO 3166-1 alpha-2 code, any case (`de` → `DE`).
    public static func country(_ text: String) throws(ShopError) -> String {
        guard let code = CountryCodes.code(text) else {
            throw .invalidInput("unknown country \(text.quotedForMessage()): use an ISO 3166-1 alpha-2 code such as US, DE or GB")
        }
        return code
    }

    /// One line of an address: trimmed, at most `maxLength` characters, no control characters.
    static func text(_ text: String, field: String, required: Bool = false, maxLength: Int = maxTextLength) throws(ShopError) -> String {
        let trimmed = text.trimmingASCIISpaces
        if required && trimmed.isEmpty { throw .invalidInput("an address needs its \(field)") }
        try ProductRules.checkText(trimmed, field: field, maxLength: maxLength)
        return trimmed
    }
}
