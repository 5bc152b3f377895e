// PersonalDataMask: how customers' emails and phones are shown to a viewer. The one rule: the
// PostgreSQL store's masking views compute the same text in SQL (tests compare the two).

/// Masks personal data for operators who may not see it (the viewer role).
public enum PersonalDataMask {
    /// `emily.johnson@x.dummyjson.com` → `e***@x.dummyjson.com`; text without an `@` → `***`.
    /// The first character is the first Unicode scalar, as PostgreSQL's `left(email, 1)` counts.
    public static func email(_ email: String) -> String {
        guard let at = email.unicodeScalars.firstIndex(of: "@"), at != email.unicodeScalars.startIndex,
              let first = email.unicodeScalars.first else { return "***" }
        return String(first) + "***" + String(email.unicodeScalars[at...])
    }

    /// `+81 965-431-3024` → `+** ***-***-3024`: every ASCII digit but the last four becomes `*`.
    public static func phone(_ phone: String) -> String {
        let scalars = Array(phone.unicodeScalars)
        let kept = max(0, scalars.count - 4)
        var masked = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            masked.append(index < kept && ("0"..."9").contains(scalar) ? "*" : scalar)
        }
        return String(masked)
    }

    /// A command of the audit log as a viewer sees it: `***` for a change of a user (its words are
    /// names, emails and phones); otherwise every email's local part masked, `basket add
    /// emily.johnson@x.dummyjson.com 1` → `basket add e***@x.dummyjson.com 1` (a run of characters
    /// other than ASCII white space and `@`, before an `@`: the masking view's regular expression).
    public static func command(_ command: String, entity: String) -> String {
        if entity == AuditEntity.user.rawValue { return "***" }
        let spaces: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]
        var masked = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        for scalar in command.unicodeScalars {
            if scalar == "@" {
                if let first = run.first { masked.append(first); masked.append(contentsOf: "***".unicodeScalars) }
                masked.append(scalar)
                run = String.UnicodeScalarView()
            } else if spaces.contains(scalar) {
                masked.append(contentsOf: run)
                masked.append(scalar)
                run = String.UnicodeScalarView()
            } else {
                run.append(scalar)
            }
        }
        masked.append(contentsOf: run)
        return String(masked)
    }

    /// `user` as a viewer sees it.
    public static func user(_ user: User) -> User {
        var masked = user
        masked.email = email(user.email)
        masked.phone = user.phone.map(phone)
        return masked
    }

    /// An address as a viewer sees it: the name's first character then `***`, the street lines
    /// `***`, the postal code's first character then `***`, the phone as `phone(_:)`; city, state
    /// and country kept (what reports group by). Empty parts stay empty.
    public static func address(_ address: PostalAddress) -> PostalAddress {
        var masked = address
        masked.name = initial(address.name)
        masked.line1 = hidden(address.line1)
        masked.line2 = hidden(address.line2)
        masked.postalCode = initial(address.postalCode)
        masked.phone = address.phone.map(phone)
        return masked
    }

    /// An order as a viewer sees it: where it goes masked as `address(_:)`.
    public static func order(_ order: Order) -> Order {
        var masked = order
        masked.shipTo = order.shipTo.map(address)
        return masked
    }

    /// `Emily` → `E***` (the first Unicode scalar kept); empty stays empty.
    public static func initial(_ text: String) -> String { text.unicodeScalars.first.map { String($0) + "***" } ?? "" }

    /// `626 Main Street` → `***`; empty stays empty.
    public static func hidden(_ text: String) -> String { text.isEmpty ? "" : "***" }
}
