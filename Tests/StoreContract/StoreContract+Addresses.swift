// StoreContract+Addresses: customers' saved addresses (issue 35) — the first is the default for
// both uses, one default per use whatever the order of calls (and under concurrent calls), another
// customer's address is not found, bad input changes nothing, and every changed address is one
// audit row under its customer.

import ShopCore
import Testing

extension StoreContract {
    /// `AddressService`.
    public static func addresses(_ fixture: some StoreFixture) async {
        await run("addresses", fixture, [
            Case("the first address is both defaults; one default per use", defaultsMove),
            Case("bad addresses and other customers' ids change nothing", badAddressesRefused),
            Case("every changed address is an audit row under its customer", addressesAudited),
            Case("eight shells making different addresses the default at once leave one", concurrentDefaults),
            Case("checkout copies where the order goes; the order keeps it", checkoutCopiesTheAddress),
            Case("orders are found by the country and city they go to", ordersByPlace),
        ])
    }

    static let york = PostalAddress(name: "Ada L", line1: "1 High Street", city: "York", postalCode: "YO1 7HH", country: "gb")
    static let berlin = PostalAddress(line1: "Unter den Linden 5", city: "Berlin", postalCode: "10117", country: "DE", phone: "+49 30 1234")

    static func defaultsMove(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ada")
        #expect(try await shop.addresses.addresses("ada").isEmpty)
        let home = try await shop.addresses.addAddress("ada", york, defaults: [])
        #expect(home.defaults == [.shipping, .billing] && home.address.country == "GB" && home.address.name == "Ada L")
        let work = try await shop.addresses.addAddress("ada", berlin, defaults: [.shipping])
        #expect(try await shop.addresses.addresses("ada").map(\.defaults) == [[.billing], [.shipping]])
        let third = try await shop.addresses.addAddress("ada", PostalAddress(line1: "Rue de Rivoli 1", city: "Paris", country: "FR"), defaults: [])
        #expect(third.defaults.isEmpty)
        _ = try await shop.addresses.setDefaultAddress("ada", third.id, for: .billing)
        _ = try await shop.addresses.setDefaultAddress("ada", third.id, for: .billing)   // again: nothing to do
        #expect(try await shop.addresses.addresses("ada").map(\.defaults) == [[], [.shipping], [.billing]])
        #expect(try await shop.addresses.defaultAddress("ada", for: .shipping)?.id == work.id)
        let moved = try await shop.addresses.updateAddress("ada", home.id, AddressChanges(line2: "Flat 2", phone: .some("+44 1904 000000")))
        #expect(moved.address.line2 == "Flat 2" && moved.address.phone == "+44 1904 000000" && moved.address.city == "York")
        let cleared = try await shop.addresses.updateAddress("ada", home.id, AddressChanges(phone: .some(nil)))
        #expect(cleared.address.phone == nil)
        let removed = try await shop.addresses.removeAddress("ada", work.id)
        #expect(removed.id == work.id)
        #expect(try await shop.addresses.addresses("ada").map(\.id) == [home.id, third.id])
        #expect(try await shop.addresses.defaultAddress("ada", for: .shipping) == nil)
    }

    static func badAddressesRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ada")
        try await ContractData.addUser(shop, "bob")
        let home = try await shop.addresses.addAddress("ada", york, defaults: [])
        for bad in [PostalAddress(line1: " ", city: "York", country: "GB"), PostalAddress(line1: "1 High St", city: "", country: "GB"),
                    PostalAddress(line1: "1 High St", city: "York", country: "UK"),
                    PostalAddress(line1: "1 High St\u{1B}[2J", city: "York", country: "GB"),
                    PostalAddress(line1: String(repeating: "x", count: AddressRules.maxTextLength + 1), city: "York", country: "GB"),
                    PostalAddress(line1: "1 High St", city: "York", country: "GB", phone: "call me")] {
            try await expectRefused(.invalidInput, shop) { try await shop.addresses.addAddress("ada", bad, defaults: [.shipping]) }
        }
        try await expectRefused(.invalidInput, shop) { try await shop.addresses.updateAddress("ada", home.id, AddressChanges(country: "XX")) }
        try await expectRefused(.nothingToDo, shop) { try await shop.addresses.updateAddress("ada", home.id, AddressChanges()) }
        try await expectRefused(.notFound, shop) { try await shop.addresses.removeAddress("bob", home.id) }
        try await expectRefused(.notFound, shop) { try await shop.addresses.setDefaultAddress("bob", home.id, for: .shipping) }
        try await expectRefused(.notFound, shop) { try await shop.addresses.updateAddress("ada", home.id + 1_000, AddressChanges(city: "Leeds")) }
        try await expectRefused(.notFound, shop) { try await shop.addresses.addAddress("nobody", york, defaults: []) }
        try await expectRefused(.notFound, shop) { try await shop.addresses.addresses("nobody") }
    }

    static func addressesAudited(_ shop: ShopServices) async throws {
        let ada = try await ContractData.addUser(shop, "ada")
        let home = try await shop.addresses.addAddress("ada", york, defaults: [])
        let work = try await shop.addresses.addAddress("ada", berlin, defaults: [.shipping])
        _ = try await shop.addresses.updateAddress("ada", work.id, AddressChanges(city: "Potsdam"))
        _ = try await shop.addresses.setDefaultAddress("ada", work.id, for: .billing)
        _ = try await shop.addresses.removeAddress("ada", home.id)
        let rows = try await auditEntries(shop, AuditFilter(entity: .user, entityID: String(ada.id)))
            .filter { $0.action.hasPrefix("address ") }.sorted { $0.id < $1.id }
        // add home; add work (home gives up shipping, then work); update; default (home gives up billing, then work); remove.
        #expect(rows.map(\.action) == ["address add", "address add", "address add", "address update", "address default", "address default",
                                       "address remove"], "\(rows.map(\.action))")
        #expect(rows[0].before == nil && rows[0].after?["line1"] == .text("1 High Street") && rows[0].after?["country"] == .text("GB"))
        #expect(rows[0].after?["defaults"] == .list(["shipping", "billing"]))
        #expect(rows[1].before?["defaults"] == .list(["shipping", "billing"]) && rows[1].after?["defaults"] == .list(["billing"]))
        #expect(rows[3].before?["city"] == .text("Berlin") && rows[3].after?["city"] == .text("Potsdam") && rows[3].after?["line1"] == nil)
        #expect(rows[6].after == nil && rows[6].before?["address"] == .integer(home.id))
        #expect(rows.allSatisfy { $0.entityID == String(ada.id) })
    }

    static func concurrentDefaults(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ada")
        var ids: [Int64] = []
        for index in 0..<8 {
            ids.append(try await shop.addresses.addAddress("ada", PostalAddress(line1: "\(index + 1) High Street", city: "York", country: "GB"),
                                                           defaults: []).id)
        }
        await withTaskGroup(of: Void.self) { group in
            for id in ids { group.addTask { _ = try? await shop.addresses.setDefaultAddress("ada", id, for: .shipping) } }
        }
        let saved = try await shop.addresses.addresses("ada")
        #expect(saved.filter { $0.defaults.contains(.shipping) }.count == 1 && saved.filter { $0.defaults.contains(.billing) }.count == 1)
    }

    static func checkoutCopiesTheAddress(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", stock: 10)
        try await ContractData.addUser(shop, "ada")
        try await ContractData.addUser(shop, "bob")
        // No address yet: the order goes nowhere yet.
        let nowhere = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        #expect(nowhere.shipTo == nil)
        let home = try await shop.addresses.addAddress("ada", york, defaults: [])
        let work = try await shop.addresses.addAddress("ada", berlin, defaults: [])
        let toHome = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        #expect(toHome.shipTo == york.withCountry("GB"), "\(String(describing: toHome.shipTo))")
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 2)
        let toWork = try await shop.baskets.checkout("ada", shipTo: work.id)
        #expect(toWork.shipTo == berlin)
        // Later changes to the customer's addresses leave the orders' copies as they were.
        _ = try await shop.addresses.updateAddress("ada", home.id, AddressChanges(line1: "2 Low Street", city: "Leeds"))
        _ = try await shop.addresses.removeAddress("ada", work.id)
        #expect(try await shop.orders.order(toHome.id).shipTo == york.withCountry("GB"))
        #expect(try await shop.orders.order(toWork.id).shipTo == berlin)
        #expect(try await shop.orders.order(nowhere.id).shipTo == nil)
        // Another customer's address, or one that is gone: refused, the basket and stock untouched.
        _ = try await shop.baskets.addToBasket("bob", product: "MUG", quantity: 1)
        let error = try await expectRefused(.notFound, shop) { try await shop.baskets.checkout("bob", shipTo: home.id) }
        #expect(error?.message.contains("no address \(home.id)") == true, "\(String(describing: error))")
        try await expectRefused(.notFound, shop) { try await shop.baskets.checkout("ada", shipTo: work.id) }
    }

    static func ordersByPlace(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", stock: 10)
        try await ContractData.addUser(shop, "ada")
        let home = try await shop.addresses.addAddress("ada", york, defaults: [])
        let work = try await shop.addresses.addAddress("ada", berlin, defaults: [])
        let york1 = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        let berlin1 = try await shop.baskets.checkout("ada", shipTo: work.id)
        let york2 = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        #expect(home.id != work.id)
        #expect(try await ContractData.listOrders(shop, OrderFilter(country: "GB")).map(\.id) == [york2.id, york1.id])
        #expect(try await ContractData.listOrders(shop, OrderFilter(country: "DE")).map(\.id) == [berlin1.id])
        #expect(try await ContractData.listOrders(shop, OrderFilter(city: "yORK")).map(\.id) == [york2.id, york1.id])
        #expect(try await ContractData.listOrders(shop, OrderFilter(country: "DE", city: "York")).isEmpty)
        #expect(try await ContractData.listOrders(shop, OrderFilter(country: "FR")).isEmpty)
        // The same orders in the figures: two to York, one to Berlin.
        let byStatus = try await shop.orders.orderStats(OrderStatsQuery(grouping: .status, filter: OrderFilter(country: "GB")))
        #expect(byStatus.map(\.orders) == [2], "\(byStatus)")
        try await expectRefused(.invalidInput, shop) { try await ContractData.listOrders(shop, OrderFilter(country: "XX")) }
    }
}

extension PostalAddress {
    /// This address with `code` as its country (as a store keeps a code given in any case).
    func withCountry(_ code: String) -> PostalAddress {
        var copy = self
        copy.country = code
        return copy
    }
}
