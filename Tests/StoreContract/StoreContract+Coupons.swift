// StoreContract+Coupons: promotion codes (issue 36) — a percentage or a fixed amount off the
// eligible lines, split over them by largest remainder and recorded per line; the minimum, the
// dates at their edges, category and product scopes, per-customer and overall limits, disabling,
// one coupon per basket, a coupon in another currency; refusals change nothing; a return refunds
// the line's paid share; every change audited; random baskets held to the Decimal model.

import ShopCore
import Testing

extension StoreContract {
    /// `CouponService` and checkout with a coupon.
    public static func coupons(_ fixture: some StoreFixture) async {
        await run("coupons", fixture, [
            Case("a percentage of the eligible lines, split by largest remainder and recorded per line", percentCouponSplit),
            Case("a fixed amount is capped at the eligible lines' total; product scope", fixedAmountCapped),
            Case("below the minimum checkout is refused, at it the coupon applies; --without-coupon goes without", minimumTotal),
            Case("dates at their edges: the first and the last day count", datesAtTheirEdges),
            Case("per-customer and overall limits hold", usageLimits),
            Case("a disabled coupon gives nothing and cannot be attached", disabledCoupon),
            Case("one coupon per basket", oneCouponPerBasket),
            Case("a coupon in another currency gives nothing", start: .currencyList, otherCurrencyCoupon),
            Case("codes are case-insensitive and unique; bad definitions change nothing", couponCodes),
            Case("a return refunds its line's share of what was paid", returnRefundsPaidShare),
            Case("adding, disabling, attaching and using a coupon are audited", couponsAudited),
            Case("random baskets come to what Decimal arithmetic says", randomBasketsWithCoupons),
        ])
    }

    static func percent(_ hundredths: Int) -> CouponValue { .percent(Percentage(hundredths: hundredths)) }
    static func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    @discardableResult
    static func addCoupon(_ shop: ShopServices, _ code: String, _ value: CouponValue, minTotal: Money? = nil, starts: CalendarDay? = nil,
                          expires: CalendarDay? = nil, maxUses: Int? = nil, perCustomer: Int? = nil,
                          scope: CouponScope = .everything) async throws -> Coupon {
        let added = try await shop.coupons.addCoupons([CouponDefinition(code: code, value: value, minTotal: minTotal, starts: starts,
                                                                        expires: expires, maxUses: maxUses, perCustomer: perCustomer,
                                                                        scope: scope)])
        return try #require(added.first)
    }

    static func percentCouponSplit(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "A", category: "beauty", price: 333)
        try await ContractData.addProduct(shop, sku: "B", category: "kitchen", price: 1_000)
        try await ContractData.addProduct(shop, sku: "C", category: "beauty", price: 667, discount: 1_000)
        try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "Beauty15", percent(1_500), scope: .category("Beauty"))
        for (sku, quantity) in [("A", 1), ("B", 1), ("C", 2)] { _ = try await shop.baskets.addToBasket("ada", product: sku, quantity: quantity) }
        _ = try await shop.coupons.setBasketCoupon("ada", code: "beauty15")
        let basket = try await shop.baskets.basket("ada")
        #expect(basket.coupon?.coupon.code == "BEAUTY15" && basket.coupon?.customerUses == 0)
        let expected = CouponArithmetic.outcome([
            .init(priceCents: 333, quantity: 1, discountHundredths: 0, eligible: true),
            .init(priceCents: 1_000, quantity: 1, discountHundredths: 0, eligible: false),
            .init(priceCents: 667, quantity: 2, discountHundredths: 1_000, eligible: true),
        ], percentHundredths: 1_500, amountCents: nil)
        let order = try await shop.baskets.checkout("ada")
        #expect(order.coupon == OrderCoupon(code: "BEAUTY15", discount: usd(expected.discount)))
        #expect(order.discountedTotal == usd(expected.total))
        #expect(order.lines.map(\.couponShare) == expected.shares)
        #expect(try await shop.orders.order(order.id) == order)
        #expect(try await shop.baskets.basket("ada").coupon == nil)
        let coupon = try await shop.coupons.coupon("BEAUTY15")
        #expect(coupon.uses == 1)
        let uses = try await shop.coupons.couponUses("beauty15")
        #expect(uses.map(\.orderID) == [order.id] && uses.first?.discount == usd(expected.discount) && uses.first?.customer == "ada")
    }

    static func fixedAmountCapped(_ shop: ShopServices) async throws {
        let mug = try await ContractData.addProduct(shop, sku: "MUG", price: 333)
        try await ContractData.addProduct(shop, sku: "PEN", price: 10_000)
        try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "MUGS50", .amount(usd(5_000)), scope: .products([mug.id]))
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 2)
        _ = try await shop.baskets.addToBasket("ada", product: "PEN", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "mugs50")
        let quote = try #require(try await shop.baskets.basket("ada").couponQuote(on: shop.clock.day))
        #expect(quote.discount == usd(666) && quote.refusal == nil)
        let order = try await shop.baskets.checkout("ada")
        #expect(order.coupon?.discount == usd(666) && order.discountedTotal == usd(10_000))
        #expect(order.lines.map(\.couponShare) == [666, 0])
    }

    static func minimumTotal(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "MIN30", percent(1_000), minTotal: usd(3_000))
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 2)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "MIN30")
        let quote = try await shop.baskets.basket("ada").couponQuote(on: shop.clock.day)
        #expect(quote?.refusal == .belowMinimum(minimum: usd(3_000), total: usd(2_000)))
        let refused = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("ada") }
        #expect(refused?.message.contains("MIN30") == true && refused?.message.contains("30.00 USD") == true, "\(String(describing: refused))")
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        let order = try await shop.baskets.checkout("ada")
        #expect(order.coupon?.discount == usd(300) && order.discountedTotal == usd(2_700))
        // Below the minimum again, the customer checks out without it; the coupon leaves the basket.
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "MIN30")
        let plain = try await shop.baskets.checkout("ada", shipTo: nil, withoutCoupon: true)
        #expect(plain.coupon == nil && plain.discountedTotal == usd(1_000))
        #expect(try await shop.baskets.basket("ada").coupon == nil)
        #expect(try await shop.coupons.coupon("min30").uses == 1)
    }

    static func datesAtTheirEdges(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        for name in ["ada", "bob", "cy", "di"] { try await ContractData.addUser(shop, name) }
        let today = shop.clock.day
        let tomorrow = try #require(CalendarDay(dayNumber: today.dayNumber + 1))
        let yesterday = try #require(CalendarDay(dayNumber: today.dayNumber - 1))
        try await addCoupon(shop, "FROMTODAY", percent(1_000), starts: today)
        try await addCoupon(shop, "UNTILTODAY", percent(1_000), expires: today)
        try await addCoupon(shop, "TOMORROW", percent(1_000), starts: tomorrow)
        try await addCoupon(shop, "YESTERDAY", percent(1_000), expires: yesterday)
        for (name, code) in [("ada", "FROMTODAY"), ("bob", "UNTILTODAY")] {
            _ = try await shop.baskets.addToBasket(name, product: "MUG", quantity: 1)
            _ = try await shop.coupons.setBasketCoupon(name, code: code)
            #expect(try await shop.baskets.checkout(name).coupon?.discount == usd(100), "\(code)")
        }
        // Not started yet: it may wait in the basket, but checkout refuses it.
        _ = try await shop.baskets.addToBasket("cy", product: "MUG", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("cy", code: "tomorrow")
        #expect(try await shop.baskets.basket("cy").couponQuote(on: today)?.refusal == .scheduled(starts: tomorrow))
        let notYet = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("cy") }
        #expect(notYet?.message.contains("starts on \(tomorrow)") == true, "\(String(describing: notYet))")
        // Expired: not even attached.
        _ = try await shop.baskets.addToBasket("di", product: "MUG", quantity: 1)
        let expired = try await expectRefused(.conflict, shop) { try await shop.coupons.setBasketCoupon("di", code: "yesterday") }
        #expect(expired?.message.contains("expired on \(yesterday)") == true, "\(String(describing: expired))")
        #expect(try await shop.coupons.coupon("yesterday").state(on: today) == .expired)
        #expect(try await shop.coupons.coupon("tomorrow").state(on: today) == .scheduled)
    }

    static func usageLimits(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        for name in ["ada", "bob", "cy"] { try await ContractData.addUser(shop, name) }
        try await addCoupon(shop, "ONCE", percent(1_000), perCustomer: 1)
        try await addCoupon(shop, "TWICE", percent(1_000), maxUses: 2)
        _ = try await ContractData.placeOrderWithCoupon(shop, "ada", "ONCE")
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        let again = try await expectRefused(.conflict, shop) { try await shop.coupons.setBasketCoupon("ada", code: "ONCE") }
        #expect(again?.message.contains("ONCE") == true)
        // Two customers hold TWICE; a third attached it before it ran out: their checkout is refused.
        for name in ["ada", "bob", "cy"] {
            _ = try await shop.baskets.addToBasket(name, product: "MUG", quantity: 1)
            _ = try await shop.coupons.setBasketCoupon(name, code: "twice")
        }
        #expect(try await shop.baskets.checkout("ada").coupon?.code == "TWICE")
        #expect(try await shop.baskets.checkout("bob").coupon?.code == "TWICE")
        let usedUp = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("cy") }
        #expect(usedUp?.message.contains("used up") == true, "\(String(describing: usedUp))")
        let twice = try await shop.coupons.coupon("TWICE")
        #expect(twice.uses == 2 && twice.usesLeft == 0 && twice.state(on: shop.clock.day) == .usedUp)
        #expect(try await shop.baskets.checkout("cy", shipTo: nil, withoutCoupon: true).coupon == nil)
    }

    static func disabledCoupon(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        for name in ["ada", "bob"] { try await ContractData.addUser(shop, name) }
        try await addCoupon(shop, "GONE", percent(1_000))
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "gone")
        let disabled = try await shop.coupons.disableCoupon("Gone")
        #expect(disabled.disabled && disabled.state(on: shop.clock.day) == .disabled)
        #expect(try await shop.coupons.disableCoupon("GONE") == disabled)   // again: nothing changes
        let refused = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("ada") }
        #expect(refused?.message.contains("disabled") == true)
        _ = try await shop.baskets.addToBasket("bob", product: "MUG", quantity: 1)
        try await expectRefused(.conflict, shop) { try await shop.coupons.setBasketCoupon("bob", code: "GONE") }
        try await expectRefused(.notFound, shop) { try await shop.coupons.disableCoupon("NOPE") }
    }

    static func oneCouponPerBasket(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "FIRST", percent(1_000))
        try await addCoupon(shop, "SECOND", percent(2_000))
        // A coupon may wait in an empty basket.
        #expect(try await shop.coupons.setBasketCoupon("ada", code: "first")?.coupon.code == "FIRST")
        #expect(try await shop.coupons.setBasketCoupon("ada", code: "FIRST")?.coupon.code == "FIRST")
        let second = try await expectRefused(.conflict, shop) { try await shop.coupons.setBasketCoupon("ada", code: "SECOND") }
        #expect(second?.message.contains("one coupon per basket") == true)
        try await expectRefused(.notFound, shop) { try await shop.coupons.setBasketCoupon("ada", code: "THIRD") }
        try await expectRefused(.notFound, shop) { try await shop.coupons.setBasketCoupon("nobody", code: "FIRST") }
        #expect(try await shop.coupons.setBasketCoupon("ada", code: nil) == nil)
        #expect(try await shop.baskets.basket("ada").coupon == nil)
        try await expectRefused(.notFound, shop) { try await shop.coupons.setBasketCoupon("ada", code: nil) }
        #expect(try await shop.coupons.setBasketCoupon("ada", code: "second")?.coupon.code == "SECOND")
    }

    static func otherCurrencyCoupon(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        try await ContractData.addUser(shop, "ada")
        let euro = Currency(code: "EUR", minorUnitDigits: 2)
        try await addCoupon(shop, "EURO5", .amount(Money(minorUnits: 500, currency: euro)))
        #expect(try await shop.coupons.coupon("euro5").currency == euro)
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "EURO5")
        #expect(try await shop.baskets.basket("ada").couponQuote(on: shop.clock.day)?.refusal == .otherCurrency(coupon: euro, basket: .usd))
        let refused = try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("ada") }
        #expect(refused?.message.contains("EUR") == true)
    }

    static func couponCodes(_ shop: ShopServices) async throws {
        try await addCoupon(shop, "Summer-10", percent(1_000))
        #expect(try await shop.coupons.coupon("SUMMER-10").code == "SUMMER-10")
        #expect(try await shop.coupons.coupon("summer-10").code == "SUMMER-10")
        try await expectRefused(.conflict, shop) { try await addCoupon(shop, "summer-10", percent(500)) }
        // A batch with one taken code adds none.
        let batch = ["NEW-1", "NEW-2", "SUMMER-10"].map { CouponDefinition(code: $0, value: percent(500)) }
        try await expectRefused(.conflict, shop) { try await shop.coupons.addCoupons(batch) }
        try await expectRefused(.notFound, shop) { try await shop.coupons.coupon("NEW-1") }
        for bad in [CouponDefinition(code: "no spaces", value: percent(500)), CouponDefinition(code: "ZERO", value: percent(0)),
                    CouponDefinition(code: "FREE", value: .amount(usd(0))),
                    CouponDefinition(code: "BACKWARDS", value: percent(500), starts: CalendarDay(iso: "2026-12-02"),
                                     expires: CalendarDay(iso: "2026-12-01")),
                    CouponDefinition(code: "NOUSE", value: percent(500), maxUses: 0),
                    CouponDefinition(code: "NOSCOPE", value: percent(500), scope: .products([])),
                    CouponDefinition(code: "ESCAPE", value: percent(500), description: "ring \u{1B}[2J")] {
            try await expectRefused(.invalidInput, shop) { try await shop.coupons.addCoupons([bad]) }
        }
        var listed: [String] = []
        try await shop.coupons.listCoupons(CouponFilter(), page: .all) { listed.append($0.code) }
        #expect(listed == ["SUMMER-10"])
        let many = (1...300).map { CouponDefinition(code: "BULK-\($0)", value: percent(500), maxUses: 1) }
        #expect(try await shop.coupons.addCoupons(many).count == 300)
        var bulk: [String] = []
        try await shop.coupons.listCoupons(CouponFilter(prefix: "bulk-"), page: Page(limit: 5)) { bulk.append($0.code) }
        #expect(bulk == ["BULK-1", "BULK-10", "BULK-100", "BULK-101", "BULK-102"])
    }

    static func returnRefundsPaidShare(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        try await ContractData.addProduct(shop, sku: "PEN", price: 500)
        try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "TEN", .amount(usd(1_000)))
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 3)
        _ = try await shop.baskets.addToBasket("ada", product: "PEN", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "TEN")
        let order = try await shop.baskets.checkout("ada")
        // 10.00 over 30.00 and 5.00: 8.57 and 1.43 (remainders .142… and .857…: the pen gets the cent).
        #expect(order.lines.map(\.couponShare) == [857, 143], "\(order.lines)")
        _ = try await shop.orders.setOrderStatus(order.id, .paid)
        // The mug line paid 30.00 − 8.57 = 21.43 for 3 units: 7.15, 7.14, 7.14.
        let first = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "MUG", quantity: 1, restock: false, reason: "broken"))
        #expect(first.amount == usd(715))
        let rest = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "MUG", quantity: 2, restock: false, reason: "broken"))
        #expect(rest.amount == usd(1_428))
        let pen = try await shop.orders.returnUnits(ReturnRequest(orderID: order.id, product: "PEN", quantity: 1, restock: false, reason: "late"))
        #expect(pen.amount == usd(357))
        let after = try await shop.orders.order(order.id)
        #expect(after.refunded == after.discountedTotal && after.status == .refunded)
    }

    static func couponsAudited(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG", price: 1_000)
        let ada = try await ContractData.addUser(shop, "ada")
        try await addCoupon(shop, "AUDIT", percent(1_050), minTotal: usd(500), expires: CalendarDay(iso: "2099-12-31"), maxUses: 9,
                            scope: .category("kitchen"))
        _ = try await shop.baskets.addToBasket("ada", product: "MUG", quantity: 1)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "audit")
        _ = try await shop.coupons.setBasketCoupon("ada", code: nil)
        _ = try await shop.coupons.setBasketCoupon("ada", code: "audit")
        let order = try await shop.baskets.checkout("ada")
        _ = try await shop.coupons.disableCoupon("audit")
        let onCoupon = try await auditEntries(shop, AuditFilter(entity: .coupon, entityID: "AUDIT")).sorted { $0.id < $1.id }
        #expect(onCoupon.map(\.action) == ["add", "disable"], "\(onCoupon)")
        let added = onCoupon.first?.after
        #expect(added?["value"] == .text("10.50%") && added?["min_total"] == .text("5.00 USD") && added?["expires"] == .text("2099-12-31")
                && added?["max_uses"] == .integer(9) && added?["per_customer"] == AuditValue.null && added?["scope"] == .text("category kitchen"),
                "\(String(describing: added))")
        #expect(onCoupon.last?.before?["disabled"] == .bool(false) && onCoupon.last?.after?["disabled"] == .bool(true))
        let onBasket = try await auditEntries(shop, AuditFilter(entity: .basket, entityID: String(ada.id)))
            .filter { $0.action.hasPrefix("coupon ") }.sorted { $0.id < $1.id }
        #expect(onBasket.map(\.action) == ["coupon add", "coupon remove", "coupon add"], "\(onBasket)")
        #expect(onBasket.first?.after?["coupon"] == .text("AUDIT") && onBasket[1].before?["coupon"] == .text("AUDIT"))
        let checkout = try await auditEntries(shop, AuditFilter(entity: .order, entityID: String(order.id)))
        #expect(checkout.count == 1 && checkout.first?.after?["coupon"] == .text("AUDIT")
                && checkout.first?.after?["total"] == .text(order.discountedTotal.description), "\(checkout)")
    }

    /// Random baskets through the store's checkout, each with a random coupon: the order equals the
    /// Decimal model (as CouponRulesTests holds CouponRules to it on 5,000 baskets).
    static func randomBasketsWithCoupons(_ shop: ShopServices) async throws {
        var random = SystemRandomNumberGenerator()
        var products: [(sku: String, cents: Int64, discount: Int, category: String)] = []
        for index in 1...12 {
            let cents = Int64.random(in: 1...999_999, using: &random)
            let discount = index % 3 == 0 ? 0 : Int.random(in: 0...9_999, using: &random)
            let category = index % 4 == 0 ? "garden" : "kitchen"
            try await ContractData.addProduct(shop, sku: "P\(index)", category: category, price: cents, discount: discount, stock: 100_000)
            products.append(("P\(index)", cents, discount, category))
        }
        for round in 1...25 {
            let name = "buyer\(round)"
            try await ContractData.addUser(shop, name)
            let percent = Bool.random(using: &random) ? Int.random(in: 1...10_000, using: &random) : nil
            let amount = percent == nil ? Int64.random(in: 1...3_000_000, using: &random) : nil
            try await addCoupon(shop, "RAND-\(round)", percent.map(self.percent) ?? .amount(usd(amount ?? 1)), scope: .category("kitchen"))
            var chosen = products.shuffled(using: &random).prefix(Int.random(in: 1...6, using: &random))
            if !chosen.contains(where: { $0.category == "kitchen" }), let kitchen = products.first(where: { $0.category == "kitchen" }) {
                chosen.append(kitchen)
            }
            var quantities: [String: Int] = [:]
            for product in chosen {
                let quantity = Int.random(in: 1...40, using: &random)
                _ = try await shop.baskets.addToBasket(name, product: product.sku, quantity: quantity)
                quantities[product.sku] = quantity
            }
            _ = try await shop.coupons.setBasketCoupon(name, code: "rand-\(round)")
            // The model takes the lines in the basket's order (ties of the split go to the earlier line).
            let model = try await shop.baskets.basket(name).lines.compactMap { line -> CouponArithmetic.Line? in
                guard let product = products.first(where: { $0.sku == line.sku }) else { return nil }
                return .init(priceCents: product.cents, quantity: quantities[line.sku] ?? 0, discountHundredths: product.discount,
                             eligible: product.category == "kitchen")
            }
            let expected = CouponArithmetic.outcome(model, percentHundredths: percent, amountCents: amount)
            if expected.discount == 0 { continue }
            let order = try await shop.baskets.checkout(name)
            #expect(order.coupon?.discount == usd(expected.discount), "round \(round)")
            #expect(order.lines.map(\.couponShare) == expected.shares, "round \(round)")
            #expect(order.lines.map(\.couponShare).reduce(0, +) == expected.discount, "round \(round)")
            #expect(order.discountedTotal == usd(expected.total), "round \(round)")
        }
    }
}

extension ContractData {
    /// Checks out one MUG for `user` with coupon `code`.
    static func placeOrderWithCoupon(_ services: ShopServices, _ user: String, _ code: String) async throws -> Order {
        _ = try await services.baskets.addToBasket(user, product: "MUG", quantity: 1)
        _ = try await services.coupons.setBasketCoupon(user, code: code)
        return try await services.baskets.checkout(user)
    }
}
