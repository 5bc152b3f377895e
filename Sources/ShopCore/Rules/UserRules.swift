// UserRules: the shape rules for usernames, emails, names, phones and passwords, for every store.
// Each rule either returns the normalised value or throws one line that says what is allowed.

/// The rules a user's fields follow; each returns the normalised value or throws one line.
public enum UserRules {
    public static let minimumPasswordLength = 6
    public static let maximumPasswordLength = 1024

    /// 2 to 32 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit, not only digits
    /// (plain numbers are user ids). Upper-case letters are folded to lower case.
    public static func username(_ text: String) throws(ShopError) -> String {
        let name = text.trimmingASCIISpaces.lowercased()
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-"
        }
        guard (2...32).contains(name.count), allowed,
              let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first) else {
            throw .invalidInput("invalid username \(quoted(text)): use 2 to 32 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit")
        }
        guard Int64(name) == nil, !name.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidInput("invalid username \(quoted(text)): a username must not be a plain number (numbers are user ids)")
        }
        return name
    }

    /// A plausible address: one '@', a local part of printable ASCII without spaces, and a
    /// domain of dot-separated labels of letters, digits and '-' with at least one dot.
    public static func email(_ text: String) throws(ShopError) -> String {
        let email = text.trimmingASCIISpaces
        let problem = "invalid email \(quoted(text)): expected an address like name@example.com"
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2 else { throw .invalidInput(problem) }
        let local = parts[0], domain = parts[1]
        let localAllowed = local.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"()<>[]\\,;:\"".unicodeScalars.contains($0) }
        guard !local.isEmpty, local.utf8.count <= 64, localAllowed, !local.hasPrefix("."), !local.hasSuffix("."),
              !local.contains("..") else { throw .invalidInput(problem) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw .invalidInput(problem) }
        for label in labels {
            let labelAllowed = label.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            }
            guard !label.isEmpty, label.utf8.count <= 63, labelAllowed, !label.hasPrefix("-"), !label.hasSuffix("-") else {
                throw .invalidInput(problem)
            }
        }
        return email
    }

    /// A first or last name: up to 100 characters, no control characters (may be empty).
    public static func name(_ text: String, field: String) throws(ShopError) -> String {
        let name = text.trimmingASCIISpaces
        guard name.count <= 100 else { throw .invalidInput("\(field) is too long (at most 100 characters)") }
        guard !name.unicodeScalars.contains(where: isControl) else {
            throw .invalidInput("\(field) must not contain control characters")
        }
        return name
    }

    /// A phone number of digits, spaces and + - ( ) . (up to 32); empty means none.
    public static func phone(_ text: String) throws(ShopError) -> String? {
        let phone = text.trimmingASCIISpaces
        if phone.isEmpty { return nil }
        let allowed = phone.unicodeScalars.allSatisfy { scalar in
            ("0"..."9").contains(scalar) || " +-().".unicodeScalars.contains(scalar)
        }
        guard phone.count <= 32, allowed, phone.contains(where: { $0.isASCII && $0.isNumber }) else {
            throw .invalidInput("invalid phone \(quoted(text)): use digits, spaces and + - ( ) . (at most 32), e.g. +81 965-431-3024")
        }
        return phone
    }

    /// A new user's fields as a store writes them: each checked and normalized by the rules above.
    public static func checked(_ new: NewUser) throws(ShopError) -> NewUser {
        NewUser(username: try username(new.username), email: try email(new.email),
                firstName: try name(new.firstName, field: "first name"), lastName: try name(new.lastName, field: "last name"),
                phone: try new.phone.flatMap { text throws(ShopError) in try phone(text) }, role: new.role)
    }

    /// At least 6 characters (and at most 1024); the password itself is never part of a message.
    public static func password(_ password: String) throws(ShopError) {
        guard password.count >= minimumPasswordLength else {
            throw .invalidInput("the password must have at least \(minimumPasswordLength) characters; password not changed")
        }
        guard password.count <= maximumPasswordLength else {
            throw .invalidInput("the password must have at most \(maximumPasswordLength) characters; password not changed")
        }
        guard !password.unicodeScalars.contains(where: isControl) else {
            throw .invalidInput("the password must not contain control characters; password not changed")
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
    }

    /// The text in double quotes with control characters shown as `\u{…}` (customer input is untrusted).
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }
}
