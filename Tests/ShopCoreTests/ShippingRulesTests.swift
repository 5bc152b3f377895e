// ShippingRulesTests: the shop's rules for where an order goes — carriers' tracking pages as the
// carriers publish them, tracking codes, addresses (ISO 3166-1 countries, required lines, no
// control characters) and notes.

import Testing
@testable import ShopCore

@Suite struct ShippingRulesTests {
    /// Each carrier's tracking page for a code, as its own site links to it (written from the
    /// carriers' pages, not from shopsh).
    static let published: [(name: String, code: String, url: String)] = [
        ("DHL", "1234567890", "https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=1234567890"),
        ("UPS", "1Z999AA10123456784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"),
        ("FedEx", "123456789012", "https://www.fedex.com/fedextrack/?trknbr=123456789012"),
        ("USPS", "9400111899223397694790", "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223397694790"),
        ("Royal Mail", "AB123456789GB", "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"),
        ("DPD", "01234567890123", "https://tracking.dpd.de/status/en_US/parcel/01234567890123"),
        ("GLS", "12345678901", "https://gls-group.eu/EU/en/parcel-tracking?match=12345678901"),
    ]

    @Test func eachCarriersTrackingPageIsTheOneItPublishes() throws {
        #expect(Self.published.count == Carrier.allCases.count)
        for entry in Self.published {
            let carrier = try #require(Carrier(name: entry.name), "\(entry.name)")
            #expect(carrier.trackingURL(try ShippingRules.trackingCode(entry.code)) == entry.url)
            #expect(Shipment(id: 1, orderID: 1, carrier: try ShippingRules.carrier(entry.name), trackingCode: entry.code,
                             shippedAt: "2026-11-27T10:00:00Z", lines: []).trackingURL == entry.url)
        }
    }

    @Test func carriersAreFoundByNameInAnyCaseAndOthersKeptWithoutALink() throws {
        #expect(Carrier(name: "royal mail") == .royalMail && Carrier(name: "ROYAL_MAIL") == .royalMail && Carrier(name: " fedex ") == .fedex)
        #expect(try ShippingRules.carrier("Royal Mail") == "royal-mail")
        #expect(try ShippingRules.carrier("  Hermes Germany ") == "Hermes Germany")
        #expect(Shipment(id: 1, orderID: 1, carrier: "Hermes Germany", trackingCode: "H1234", shippedAt: "", lines: []).trackingURL == nil)
        for bad in ["", "   ", "dhl\u{1B}[2J", String(repeating: "x", count: ShippingRules.maxCarrierLength + 1)] where Carrier(name: bad) == nil {
            #expect(throws: ShopError.self, "\(bad.debugDescription)") { try ShippingRules.carrier(bad) }
        }
    }

    @Test func trackingCodesAreLettersDigitsAndDashesAndEveryOtherByteIsEncoded() throws {
        #expect(try ShippingRules.trackingCode("1z 999 aa1 0123456784") == "1Z999AA10123456784")
        for bad in ["", "ab", "12 34 5/6", "A&B=1234", "1234\n5678", "ÄÖÜ12345", String(repeating: "9", count: 41)] {
            #expect(throws: ShopError.self, "\(bad.debugDescription)") { try ShippingRules.trackingCode(bad) }
        }
        // A code stored by another program never breaks out of the URL.
        #expect(Carrier.ups.trackingURL("A B/&#é") == "https://www.ups.com/track?tracknum=A%20B%2F%26%23%C3%A9")
    }

    @Test func anAddressNeedsALineACityAndAnISOCountry() throws {
        let address = try AddressRules.checked(PostalAddress(name: " Emily Johnson ", line1: "626 Main Street", city: "Phoenix",
                                                              state: "Mississippi", postalCode: "29112", country: "us", phone: "+81 965-431-3024"))
        #expect(address.name == "Emily Johnson" && address.country == "US" && address.phone == "+81 965-431-3024")
        #expect(address.singleLine == "Emily Johnson, 626 Main Street, Phoenix, Mississippi 29112, US, +81 965-431-3024")
        #expect(CountryCodes.alpha2.count == 249 && CountryCodes.code("gb") == "GB" && CountryCodes.code("UK") == nil)
        let good = PostalAddress(line1: "1 High Street", city: "York", country: "GB")
        var bad: [PostalAddress] = []
        for change in [AddressChanges(line1: " "), AddressChanges(city: ""), AddressChanges(country: "UK"), AddressChanges(country: "USA"),
                       AddressChanges(line2: "flat 2\u{1B}[31m"), AddressChanges(name: String(repeating: "n", count: 101)),
                       AddressChanges(postalCode: String(repeating: "9", count: 17)), AddressChanges(phone: .some("call me"))] {
            bad.append(change.applied(to: good))
        }
        for address in bad {
            #expect(throws: ShopError.self, "\(address)") { try AddressRules.checked(address) }
        }
        #expect(try AddressRules.checked(AddressChanges(phone: .some(nil)).applied(to: good)).phone == nil)
    }

    @Test func aViewerSeesTheCityStateAndCountryOfAnAddressAndNoStreet() {
        let address = PostalAddress(name: "Emily Johnson", line1: "626 Main Street", line2: "Apt 4", city: "Phoenix", state: "Mississippi",
                                    postalCode: "29112", country: "US", phone: "+81 965-431-3024")
        let masked = PersonalDataMask.address(address)
        #expect(masked == PostalAddress(name: "E***", line1: "***", line2: "***", city: "Phoenix", state: "Mississippi",
                                        postalCode: "2***", country: "US", phone: "+** ***-***-3024"))
        #expect(PersonalDataMask.address(PostalAddress(line1: "1 High St", city: "York", country: "GB")).name == "")
    }

    @Test func aNoteKeepsItsLinesButNoOtherControlCharacter() throws {
        #expect(try NoteRules.text("\n  customer is hard of hearing:\n\tcall, don't email \n") == "customer is hard of hearing:\n\tcall, don't email")
        for bad in ["", " \n\t ", "beep\u{7}", "\u{1B}[2J", String(repeating: "x", count: NoteRules.maxLength + 1)] {
            #expect(throws: ShopError.self, "\(bad.debugDescription)") { try NoteRules.text(bad) }
        }
    }

    /// A paid order of two lines: 5 mugs and 2 plates.
    static func order(_ status: OrderStatus = .paid, returned: Int = 0) -> Order {
        let usd = Currency.usd
        let mugs = OrderLine(productID: 7, sku: "MUG-1", title: "Mug", unitPrice: Money(minorUnits: 1_000, currency: usd),
                             discount: Percentage(hundredths: 0), quantity: 5, returned: returned)
        let plates = OrderLine(productID: 8, sku: "PLT-1", title: "Plate", unitPrice: Money(minorUnits: 500, currency: usd),
                               discount: Percentage(hundredths: 0), quantity: 2)
        return Order(id: 12, userID: 1, customer: "emilys", status: status, total: Money(minorUnits: 6_000, currency: usd),
                     discountedTotal: Money(minorUnits: 6_000, currency: usd), createdAt: "2026-11-01T10:00:00Z",
                     updatedAt: "2026-11-01T10:00:00Z", lines: [mugs, plates])
    }

    static func shipment(_ id: Int64, _ lines: [ShipmentLine], delivered: Bool = false) -> Shipment {
        Shipment(id: id, orderID: 12, carrier: "ups", trackingCode: "1Z\(id)", shippedAt: "2026-11-02T10:00:00Z",
                 deliveredAt: delivered ? "2026-11-04T10:00:00Z" : nil, lines: lines)
    }

    @Test func twoOfFiveUnitsThenTheRestShipTheOrderAndDeliveriesDeliverIt() throws {
        var order = Self.order()
        let first = try ShipmentRules.plan(order, shipments: [], requested: [ShipmentLine(lineNumber: 1, quantity: 2)])
        #expect(first == [ShipmentLine(lineNumber: 1, quantity: 2)])
        var shipments = [Self.shipment(1, first)]
        #expect(ShipmentRules.unshipped(order, shipments: shipments) == [1: 3, 2: 2])
        #expect(ShipmentRules.status(of: order, shipments: shipments) == .paid)   // partly shipped: still paid
        #expect(throws: ShopError.conflict("line 1 of order 12 has 3 units left to ship, not 4")) {
            try ShipmentRules.plan(order, shipments: shipments, requested: [ShipmentLine(lineNumber: 1, quantity: 4)])
        }
        let rest = try ShipmentRules.plan(order, shipments: shipments, requested: nil)
        #expect(rest == [ShipmentLine(lineNumber: 1, quantity: 3), ShipmentLine(lineNumber: 2, quantity: 2)])
        shipments.append(Self.shipment(2, rest))
        #expect(ShipmentRules.status(of: order, shipments: shipments) == .shipped)
        order.status = .shipped
        #expect(throws: ShopError.self) { try ShipmentRules.plan(order, shipments: shipments, requested: nil) }
        shipments[0].deliveredAt = "2026-11-03T09:00:00Z"
        #expect(ShipmentRules.status(of: order, shipments: shipments) == .shipped)
        shipments[1].deliveredAt = "2026-11-05T09:00:00Z"
        #expect(ShipmentRules.status(of: order, shipments: shipments) == .delivered)
        #expect(throws: ShopError.self) { try ShipmentRules.checkCancel(order, shipments: shipments) }
    }

    @Test func onlyAPaidOrderShipsAndUnitsReturnedBeforeShippingNeverDo() throws {
        for status in [OrderStatus.placed, .cancelled, .refunded, .delivered] {
            #expect(throws: ShopError.self, "\(status)") { try ShipmentRules.plan(Self.order(status), shipments: [], requested: nil) }
        }
        #expect(try ShipmentRules.plan(Self.order(returned: 5), shipments: [], requested: nil) == [ShipmentLine(lineNumber: 2, quantity: 2)])
        for bad in [[ShipmentLine(lineNumber: 3, quantity: 1)], [ShipmentLine(lineNumber: 1, quantity: 0)],
                    [ShipmentLine(lineNumber: 1, quantity: 1), ShipmentLine(lineNumber: 1, quantity: 1)], []] {
            #expect(throws: ShopError.self, "\(bad)") { try ShipmentRules.plan(Self.order(), shipments: [], requested: bad) }
        }
        try ShipmentRules.checkCancel(Self.order(), shipments: [])
    }
}
