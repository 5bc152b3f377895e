// Carrier: the carriers whose tracking pages shopsh links to, each with its published URL pattern,
// and the rules for a tracking code. A carrier not in the table is kept by name, its code shown
// without a link.

/// A carrier with a public tracking page.
public enum Carrier: String, CaseIterable, Hashable, Sendable {
    case dhl, ups, fedex, usps, royalMail = "royal-mail", dpd, gls

    /// The name people write (`orders ship --carrier "Royal Mail"` finds `royal-mail`).
    public var displayName: String {
        switch self {
        case .dhl: "DHL"
        case .ups: "UPS"
        case .fedex: "FedEx"
        case .usps: "USPS"
        case .royalMail: "Royal Mail"
        case .dpd: "DPD"
        case .gls: "GLS"
        }
    }

    /// The tracking page's URL with `{code}` where the (percent-encoded) tracking code goes.
    public var urlPattern: String {
        switch self {
        case .dhl: "https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id={code}"
        case .ups: "https://www.ups.com/track?tracknum={code}"
        case .fedex: "https://www.fedex.com/fedextrack/?trknbr={code}"
        case .usps: "https://tools.usps.com/go/TrackConfirmAction?tLabels={code}"
        case .royalMail: "https://www.royalmail.com/track-your-item#/tracking-results/{code}"
        case .dpd: "https://tracking.dpd.de/status/en_US/parcel/{code}"
        case .gls: "https://gls-group.eu/EU/en/parcel-tracking?match={code}"
        }
    }

    /// The carrier a name means, in any case, with spaces, dashes or underscores alike
    /// (`Royal Mail`, `royal_mail`, `FEDEX`); nil for one not in the table.
    public init?(name: String) {
        let key = String(name.trimmingASCIISpaces.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
        guard let carrier = Carrier.allCases.first(where: { $0.rawValue == key || $0.displayName.lowercased() == key }) else { return nil }
        self = carrier
    }

    /// The tracking page of `code` (already checked by `ShippingRules.trackingCode`).
    public func trackingURL(_ code: String) -> String {
        // Every pattern holds `{code}` once.
        let parts = urlPattern.split(separator: "{code}", omittingEmptySubsequences: false)
        return parts.joined(separator: Self.percentEncoded(code))
    }

    /// `code` with every byte but unreserved URL characters (RFC 3986: A-Z a-z 0-9 - . _ ~) as %XX.
    static func percentEncoded(_ code: String) -> String {
        var out = ""
        for byte in code.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    /// The string with "0" in front until it is `width` long.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
