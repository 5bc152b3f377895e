// StoreContract+Baskets: the baskets' contract — increments, set and remove, clear, the
// quantity range, disabled users, stock, and totals checked against Foundation's Decimal.

import Foundation
import ShopCore
import Testing

extension StoreContract {
    /// Baskets (`BasketService`, all but checkout).
    public static func baskets(_ fixture: some StoreFixture) async {
        await run("baskets", fixture, [
            Case("add creates a line and adding again increments it", addIncrements),
            Case("set raises and lowers; 0 removes", setQuantities),
            Case("remove and clear", removeAndClear),
            Case("quantities outside 1…10,000 are refused", quantityRange),
            Case("unknown users and products are notFound", basketUnknowns),
            Case("a disabled user's basket cannot grow", disabledUserRefused),
            Case("a product out of stock cannot be added", outOfStockRefused),
            Case("lines show prices now and totals add up", basketTotals),
            Case("every non-empty basket is listed by user, with its totals and last change", listBaskets),
            Case("the listing's figures equal each basket's after random changes; filters, order and page", basketListQueries),
        ])
    }

    static func addIncrements(_ shop: ShopServices) async throws {
        let user = try await ContractData.addUser(shop, "ivy")
        let product = try await ContractData.addProduct(shop, sku: "B-1", title: "Cup", price: 350, discount: 1_000, stock: 50)
        let first = try await shop.baskets.addToBasket("ivy", product: "B-1", quantity: 2)
        #expect(first.userID == user.id && first.productID == product.id && first.sku == "B-1" && first.title == "Cup"
                && first.unitPrice == ContractData.usd(350) && first.discount == ContractData.percent(1_000) && first.quantity == 2)
        #expect(try await shop.baskets.addToBasket(String(user.id), product: String(product.id), quantity: 3).quantity == 5)
        let basket = try await shop.baskets.basket("IVY@example.com")
        #expect(basket.user == user)
        #expect(basket.lines.count == 1)
        #expect(basket.lines.first?.quantity == 5 && basket.lines.first?.productID == product.id)
        #expect(try await shop.products.product("B-1").stock == 50)   // a basket reserves nothing
        #expect(try await shop.baskets.basket("ivy").lines.map(\.quantity) == [5])
    }

    static func setQuantities(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "jack")
        try await ContractData.addProduct(shop, sku: "S-1")
        try await ContractData.addProduct(shop, sku: "S-2")
        #expect(try await shop.baskets.setBasketQuantity("jack", product: "S-1", quantity: 4)?.quantity == 4)   // creates the line
        #expect(try await shop.baskets.setBasketQuantity("jack", product: "S-1", quantity: 9)?.quantity == 9)
        #expect(try await shop.baskets.setBasketQuantity("jack", product: "S-1", quantity: 1)?.quantity == 1)
        _ = try await shop.baskets.addToBasket("jack", product: "S-2", quantity: 2)
        #expect(try await shop.baskets.setBasketQuantity("jack", product: "S-1", quantity: 0) == nil)
        #expect(try await shop.baskets.basket("jack").lines.map(\.sku) == ["S-2"])
        #expect(try await shop.baskets.setBasketQuantity("jack", product: "S-2", quantity: BasketLimits.maxQuantity)?.quantity
                == BasketLimits.maxQuantity)
    }

    static func removeAndClear(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "kim")
        try await ContractData.addUser(shop, "lee")
        for sku in ["R-1", "R-2", "R-3"] { try await ContractData.addProduct(shop, sku: sku) }
        for sku in ["R-1", "R-2", "R-3"] { _ = try await shop.baskets.addToBasket("kim", product: sku, quantity: 2) }
        _ = try await shop.baskets.addToBasket("lee", product: "R-1", quantity: 1)
        try await shop.baskets.removeFromBasket("kim", product: "R-2")
        #expect(Set(try await shop.baskets.basket("kim").lines.map(\.sku)) == ["R-1", "R-3"])
        try await expectRefused(.notFound, shop) { try await shop.baskets.removeFromBasket("kim", product: "R-2") }
        #expect(try await shop.baskets.clearBasket("kim") == 2)
        #expect(try await shop.baskets.basket("kim").lines.isEmpty)
        #expect(try await shop.baskets.clearBasket("kim") == 0)
        #expect(try await shop.baskets.basket("lee").lines.map(\.quantity) == [1])   // others' baskets untouched
    }

    static func quantityRange(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "mia")
        try await ContractData.addProduct(shop, sku: "Q-1", stock: 1_000_000)
        _ = try await shop.baskets.addToBasket("mia", product: "Q-1", quantity: 5)
        for quantity in [0, -1, BasketLimits.maxQuantity + 1, Int.max, Int.min] {
            try await expectRefused(.invalidInput, shop) { try await shop.baskets.addToBasket("mia", product: "Q-1", quantity: quantity) }
        }
        for quantity in [-1, BasketLimits.maxQuantity + 1, Int.max] {
            try await expectRefused(.invalidInput, shop) {
                try await shop.baskets.setBasketQuantity("mia", product: "Q-1", quantity: quantity)
            }
        }
        // An increment past the most a line may hold is refused whole; up to it is fine.
        try await expectRefused(.conflict, shop) {
            try await shop.baskets.addToBasket("mia", product: "Q-1", quantity: BasketLimits.maxQuantity - 4)
        }
        #expect(try await shop.baskets.addToBasket("mia", product: "Q-1", quantity: BasketLimits.maxQuantity - 5).quantity
                == BasketLimits.maxQuantity)
    }

    static func basketUnknowns(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "ned")
        try await ContractData.addProduct(shop, sku: "N-1")
        _ = try await shop.baskets.addToBasket("ned", product: "N-1", quantity: 1)
        try await expectRefused(.notFound, shop) { try await shop.baskets.basket("nobody") }
        try await expectRefused(.notFound, shop) { try await shop.baskets.addToBasket("nobody", product: "N-1", quantity: 1) }
        try await expectRefused(.notFound, shop) { try await shop.baskets.addToBasket("ned", product: "N-9", quantity: 1) }
        try await expectRefused(.notFound, shop) { try await shop.baskets.setBasketQuantity("ned", product: "N-9", quantity: 1) }
        try await expectRefused(.notFound, shop) { try await shop.baskets.removeFromBasket("ned", product: "N-9") }
        try await expectRefused(.notFound, shop) { try await shop.baskets.clearBasket("nobody") }
        try await expectRefused(.notFound, shop) { try await shop.baskets.checkout("nobody") }
    }

    static func disabledUserRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "olga")
        try await ContractData.addProduct(shop, sku: "D-1")
        _ = try await shop.baskets.addToBasket("olga", product: "D-1", quantity: 2)
        _ = try await shop.users.setUserStatus("olga", .disabled)
        try await expectRefused(.conflict, shop) { try await shop.baskets.addToBasket("olga", product: "D-1", quantity: 1) }
        try await expectRefused(.conflict, shop) { try await shop.baskets.setBasketQuantity("olga", product: "D-1", quantity: 3) }
        _ = try await shop.users.setUserStatus("olga", .active)
        #expect(try await shop.baskets.addToBasket("olga", product: "D-1", quantity: 1).quantity == 3)
    }

    static func outOfStockRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "pat")
        try await ContractData.addProduct(shop, sku: "O-1", stock: 0)
        try await expectRefused(.conflict, shop) { try await shop.baskets.addToBasket("pat", product: "O-1", quantity: 1) }
        try await expectRefused(.conflict, shop) { try await shop.baskets.setBasketQuantity("pat", product: "O-1", quantity: 1) }
        _ = try await shop.products.adjustStock("O-1", .set(1))
        #expect(try await shop.baskets.addToBasket("pat", product: "O-1", quantity: 1).quantity == 1)
    }

    static func basketTotals(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "quinn")
        let lines: [(sku: String, cents: Int64, discount: Int, quantity: Int)] = [
            ("T-1", 1_999, 1_050, 3), ("T-2", 5, 5_000, 1), ("T-3", 123_456, 333, 7), ("T-4", 1, 0, 10_000),
        ]
        for line in lines {
            try await ContractData.addProduct(shop, sku: line.sku, price: line.cents, discount: line.discount, stock: 20_000)
            _ = try await shop.baskets.addToBasket("quinn", product: line.sku, quantity: line.quantity)
        }
        let basket = try await shop.baskets.basket("quinn")
        #expect(Set(basket.lines.map(\.sku)) == Set(lines.map(\.sku)))
        let total = lines.reduce(Decimal(0)) { $0 + Decimal($1.cents) * Decimal($1.quantity) }
        let discounted = lines.reduce(Int64(0)) { $0 + ContractData.discounted($1.cents, times: $1.quantity, by: $1.discount) }
        #expect(try basket.total == ContractData.usd(ContractData.roundedUnits(total, scale: 0)))
        #expect(try basket.discountedTotal == ContractData.usd(discounted))
        #expect(basket.totalQuantity == 10_011)
        // Lines show the price now, not the price when added.
        _ = try await shop.products.updateProduct("T-1", ProductChanges(title: "Renamed", price: ContractData.usd(2_500),
                                                                        discount: ContractData.percent(0)))
        let line = try #require(try await shop.baskets.basket("quinn").lines.first { $0.sku == "T-1" })
        #expect(line.unitPrice == ContractData.usd(2_500) && line.discount == .zero && line.title == "Renamed" && line.quantity == 3)
    }

    static func listBaskets(_ shop: ShopServices) async throws {
        func listed() async throws -> [BasketSummary] {
            var all: [BasketSummary] = []
            try await shop.baskets.listBaskets(BasketListQuery()) { all.append($0) }
            return all
        }
        #expect(try await listed().isEmpty)
        let ann = try await ContractData.addUser(shop, "ann"), bob = try await ContractData.addUser(shop, "bob")
        _ = try await ContractData.addUser(shop, "cat")
        _ = try await ContractData.addProduct(shop, sku: "L-1", price: 1_999, discount: 1_250)
        _ = try await ContractData.addProduct(shop, sku: "L-2", price: 333, discount: 0)
        _ = try await shop.baskets.addToBasket("bob", product: "L-2", quantity: 3)
        _ = try await shop.baskets.addToBasket("ann", product: "L-1", quantity: 7)
        _ = try await shop.baskets.addToBasket("ann", product: "L-2", quantity: 1)
        let first = try await listed()
        #expect(first.map(\.userID) == [ann.id, bob.id])   // cat's empty basket is not listed
        for summary in first {
            let basket = try await shop.baskets.basket(summary.username)
            #expect(summary.username == basket.user.username && summary.lines == basket.lines.count
                    && summary.items == basket.totalQuantity)
            #expect(try summary.total == basket.total && summary.discountedTotal == basket.discountedTotal)
            #expect(ShopClock.parse(summary.lastChange) != nil, "\(summary.lastChange)")
        }
        #expect(first.first?.total == ContractData.usd(7 * 1_999 + 333))
        // A changed quantity moves the last change on (never back); an emptied basket leaves the list.
        _ = try await shop.baskets.setBasketQuantity("ann", product: "L-1", quantity: 2)
        let second = try await listed()
        #expect(second.first.map { $0.lastChange >= first[0].lastChange } == true && second.first?.items == 3)
        _ = try await shop.baskets.clearBasket("ann")
        #expect(try await listed().map(\.userID) == [bob.id])
    }

    /// What a store keeps per basket (`listBaskets`) equals each basket read line by line, after
    /// random adds, sets, removes, clears and checkouts, price and discount changes (one bulk), a
    /// product and a user deleted; `--idle`, `--min-total`, every sort field and pages pick and
    /// order the same baskets as the whole list filtered and sorted here.
    static func basketListQueries(_ shop: ShopServices) async throws {
        var random = SplitMix64(seed: 41)
        let names = (0..<8).map { "u\($0)" }
        for name in names { _ = try await ContractData.addUser(shop, name) }
        for index in 0..<6 {
            _ = try await ContractData.addProduct(shop, sku: "Q-\(index)", price: Int64(199 + 101 * index), discount: 333 * index, stock: 10_000)
        }
        var deletedUser = false, deletedProduct = false
        for step in 0..<80 {
            let user = names.filter { !deletedUser || $0 != "u3" }.randomElement(using: &random) ?? "u0"
            let product = (0..<6).map { "Q-\($0)" }.filter { !deletedProduct || $0 != "Q-4" }.randomElement(using: &random) ?? "Q-0"
            switch Int.random(in: 0...11, using: &random) {
            case 0...4: _ = try await shop.baskets.addToBasket(user, product: product, quantity: Int.random(in: 1...9, using: &random))
            case 5: _ = try await shop.baskets.setBasketQuantity(user, product: product, quantity: Int.random(in: 0...4, using: &random))
            case 6: _ = try? await shop.baskets.removeFromBasket(user, product: product)
            case 7: _ = try await shop.baskets.clearBasket(user)
            case 8: _ = try? await shop.baskets.checkout(user)
            case 9:
                _ = try await shop.products.updateProduct(product, ProductChanges(price: ContractData.usd(Int64.random(in: 1...9_999, using: &random)),
                                                                                  discount: ContractData.percent(Int.random(in: 0...5_000, using: &random))))
            case 10:
                let all = try await ContractData.list(shop)
                let plans = try ProductChangePlan.plan(ProductEdit(price: .percent(hundredths: 1_000)), over: all)
                _ = try await shop.products.applyProductChanges(plans)
            case 11 where step > 40 && !deletedUser:
                _ = try await shop.users.deleteUser("u3"); deletedUser = true
            default:
                if step > 50 && !deletedProduct { _ = try await shop.products.deleteProduct("Q-4"); deletedProduct = true }
            }
        }
        var all: [BasketSummary] = []
        try await shop.baskets.listBaskets(BasketListQuery()) { all.append($0) }
        #expect(all.map(\.userID) == all.map(\.userID).sorted() && all.count > 2)
        for name in names where !(deletedUser && name == "u3") {
            let basket = try await shop.baskets.basket(name)
            let summary = all.first { $0.username == name }
            #expect((summary == nil) == basket.lines.isEmpty, "\(name)")
            guard let summary else { continue }
            #expect(summary.lines == basket.lines.count && summary.items == basket.totalQuantity, "\(name)")
            #expect(try summary.total == basket.total && summary.discountedTotal == basket.discountedTotal, "\(name)")
        }
        // Filters, every order and a page, against the whole list filtered and sorted here.
        let times = all.map(\.lastChange).sorted(), totals = all.map(\.total.minorUnits).sorted()
        let cutoff = times[times.count / 2], minimum = totals[totals.count / 2]
        func compare(_ a: BasketSummary, _ b: BasketSummary, _ field: String) -> Bool? {
            func order<T: Comparable>(_ x: T, _ y: T) -> Bool? { x == y ? nil : x < y }
            switch field {
            case "customer": return order(a.username.lowercased(), b.username.lowercased())
            case "lines": return order(a.lines, b.lines)
            case "total_quantity": return order(a.items, b.items)
            case "total": return order(a.total.minorUnits, b.total.minorUnits)
            case "discounted_total": return order(a.discountedTotal.minorUnits, b.discountedTotal.minorUnits)
            case "last_change": return order(a.lastChange, b.lastChange)
            default: return order(a.userID, b.userID)
            }
        }
        for field in BasketListQuery.sortColumns.map(\.key) {
            for descending in [false, true] {
                let sort = [SortKey(field: field, descending: descending)]
                let expected = all.filter { $0.lastChange <= cutoff && $0.total.minorUnits >= minimum }.sorted { a, b in
                    if let less = compare(a, b, field) { return descending ? !less : less }
                    return a.userID < b.userID
                }
                var listed: [BasketSummary] = []
                try await shop.baskets.listBaskets(BasketListQuery(changedBefore: cutoff, minTotal: minimum, page: Page(sort: sort))) { listed.append($0) }
                #expect(listed == expected, "\(field) \(descending)")
                var page: [BasketSummary] = []
                try await shop.baskets.listBaskets(BasketListQuery(page: Page(sort: sort, limit: 2, offset: 1))) { page.append($0) }
                let whole = all.sorted { a, b in
                    if let less = compare(a, b, field) { return descending ? !less : less }
                    return a.userID < b.userID
                }
                #expect(page == Array(whole.dropFirst(1).prefix(2)), "\(field) \(descending) page")
            }
        }
        #expect(deletedUser && deletedProduct)
    }
}
