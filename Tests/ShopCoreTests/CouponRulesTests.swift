// CouponRulesTests: coupon codes, generated codes, where a coupon stands at its dates' edges, why
// it gives nothing, and the discount and its split held to an independent Decimal model on
// 5,000 random baskets × coupons.

import ShopCore
import StoreContract
import Testing


@Suite struct CouponRulesTests {
    static let day = CalendarDay(iso: "2026-11-27") ?? .epoch

    static func line(_ id: Int64, cents: Int64, quantity: Int = 1, discount: Int = 0, category: String = "beauty") -> BasketLine {
        BasketLine(userID: 1, productID: id, sku: "SKU-\(id)", title: "Item \(id)", unitPrice: Money(minorUnits: cents, currency: .usd),
                   discount: Percentage(hundredths: discount), quantity: quantity, category: category)
    }

    static func coupon(_ value: CouponValue, scope: CouponScope = .everything, minTotal: Int64? = nil, starts: String? = nil,
                       expires: String? = nil, maxUses: Int? = nil, uses: Int = 0, perCustomer: Int? = nil, customerUses: Int = 0,
                       disabled: Bool = false) -> BasketCoupon {
        let terms = CouponDefinition(code: "TEST", value: value, minTotal: minTotal.map { Money(minorUnits: $0, currency: .usd) },
                                     starts: starts.flatMap(CalendarDay.init(iso:)), expires: expires.flatMap(CalendarDay.init(iso:)),
                                     maxUses: maxUses, perCustomer: perCustomer, scope: scope)
        return BasketCoupon(coupon: Coupon(id: 1, terms: terms, disabled: disabled, uses: uses), customerUses: customerUses)
    }

    @Test func codesAreCaseInsensitiveAndKeptUpperCase() throws {
        #expect(try CouponRules.code("  bf-7kq2_x ") == "BF-7KQ2_X")
        for bad in ["ab", "", "with space", "émile", String(repeating: "A", count: 41), "semi;colon", "new\nline"] {
            #expect(throws: ShopError.self, "\(bad)") { try CouponRules.code(bad) }
        }
    }

    @Test func generatedCodesAreDistinctAndAvoidLookAlikes() throws {
        var generator = SystemRandomNumberGenerator()
        let codes = try CouponRules.generate(10_000, prefix: "bf-", using: &generator)
        #expect(Set(codes).count == 10_000)
        for code in codes {
            #expect(code.hasPrefix("BF-") && code.count == 3 + CouponRules.generatedLength)
            #expect(!code.dropFirst(3).contains { "01ILO".contains($0) }, "\(code)")
        }
        #expect(throws: ShopError.self) { try CouponRules.generate(0, prefix: "X", using: &generator) }
        #expect(throws: ShopError.self) { try CouponRules.generate(3, prefix: "bad prefix", using: &generator) }
    }

    @Test func aCouponIsUsableFromItsFirstDayThroughItsLastDay() {
        let coupon = Self.coupon(.percent(Percentage(hundredths: 1000)), starts: "2026-11-27", expires: "2026-11-30").coupon
        #expect(coupon.state(on: CalendarDay(iso: "2026-11-26") ?? .epoch) == .scheduled)
        #expect(coupon.state(on: CalendarDay(iso: "2026-11-27") ?? .epoch) == .active)
        #expect(coupon.state(on: CalendarDay(iso: "2026-11-30") ?? .epoch) == .active)
        #expect(coupon.state(on: CalendarDay(iso: "2026-12-01") ?? .epoch) == .expired)
    }

    @Test func eachReasonForNoDiscountIsNamed() throws {
        let lines = [Self.line(1, cents: 1_000), Self.line(2, cents: 500, category: "groceries")]
        let tenPercent = CouponValue.percent(Percentage(hundredths: 1000))
        let cases: [(BasketCoupon, String)] = [
            (Self.coupon(tenPercent, disabled: true), "disabled"),
            (Self.coupon(tenPercent, maxUses: 5, uses: 5), "used up"),
            (Self.coupon(tenPercent, perCustomer: 1, customerUses: 1), "customer limit"),
            (Self.coupon(tenPercent, starts: "2026-11-28"), "not started"),
            (Self.coupon(tenPercent, expires: "2026-11-26"), "expired"),
            (Self.coupon(tenPercent, minTotal: 1_501), "below minimum"),
            (Self.coupon(tenPercent, scope: .category("furniture")), "no eligible line"),
            (Self.coupon(.amount(Money(minorUnits: 500, currency: .eur))), "other currency"),
        ]
        for (coupon, reason) in cases {
            let quote = try CouponRules.quote(coupon, lines: lines, on: Self.day)
            #expect(quote.refusal?.name == reason)
            #expect(quote.discount.minorUnits == 0 && quote.shares == [0, 0])
        }
        // At the minimum exactly, it applies: 10 % of 15.00.
        let atMinimum = try CouponRules.quote(Self.coupon(tenPercent, minTotal: 1_500), lines: lines, on: Self.day)
        #expect(atMinimum.refusal == nil && atMinimum.discount.minorUnits == 150)
    }

    @Test func scopesPickTheirLinesAndAFixedAmountIsCapped() throws {
        let lines = [Self.line(1, cents: 1_000), Self.line(2, cents: 500, category: "groceries"), Self.line(3, cents: 300)]
        let byCategory = try CouponRules.quote(Self.coupon(.amount(Money(minorUnits: 5_000, currency: .usd)), scope: .category("beauty")),
                                               lines: lines, on: Self.day)
        #expect(byCategory.discount.minorUnits == 1_300)   // capped at the beauty lines' 13.00
        #expect(byCategory.shares == [1_000, 0, 300])
        let byProducts = try CouponRules.quote(Self.coupon(.percent(Percentage(hundredths: 5000)), scope: .products([2])),
                                               lines: lines, on: Self.day)
        #expect(byProducts.shares == [0, 250, 0])
    }

    @Test func theSplitGivesLeftoverUnitsToTheLargestRemaindersThenTheEarlierLine() {
        #expect(CouponRules.split(10, over: [1, 1, 1]) == [4, 3, 3])
        #expect(CouponRules.split(5, over: [3, 0, 7]) == [2, 0, 3])       // 1.5 and 3.5: a tie, the first line wins
        #expect(CouponRules.split(7, over: [1, 2, 4]) == [1, 2, 4])
        #expect(CouponRules.split(0, over: [5, 5]) == [0, 0])
        #expect(CouponRules.split(1, over: [0, 0]) == [0, 0])
        // No overflow near the limits: 10^15 × 10^15 does not fit 64 bits.
        let big: Int64 = 1_000_000_000_000_000
        #expect(CouponRules.split(big, over: [big, big]) == [big / 2, big / 2])
    }

    /// 5,000 random baskets × coupons: the discount, each line's part and the order's total equal
    /// the Decimal model's to the cent, and the parts add up to the discount exactly.
    @Test func randomBasketsMatchDecimalArithmetic() throws {
        var random = SplitMix64(seed: 36)
        for round in 0..<5_000 {
            let count = Int.random(in: 1...12, using: &random)
            var lines: [BasketLine] = []
            var model: [CouponArithmetic.Line] = []
            let bigPrices = round % 10 == 0
            for index in 0..<count {
                let cents = Int64.random(in: bigPrices ? 0...ProductLimits.maxPriceMinorUnits : 0...50_000, using: &random)
                let quantity = Int.random(in: 1...(bigPrices ? BasketLimits.maxQuantity : 20), using: &random)
                let discount = Int.random(in: 0...3, using: &random) == 0 ? 0 : Int.random(in: 0...10_000, using: &random)
                let category = Int.random(in: 0...3, using: &random) == 0 ? "furniture" : "beauty"
                lines.append(Self.line(Int64(index + 1), cents: cents, quantity: quantity, discount: discount, category: category))
                model.append(CouponArithmetic.Line(priceCents: cents, quantity: quantity, discountHundredths: discount,
                                                   eligible: category != "furniture"))
            }
            let percent = Bool.random(using: &random) ? Int.random(in: 1...10_000, using: &random) : nil
            let amount = percent == nil ? Int64.random(in: 1...2_000_000, using: &random) : nil
            let value: CouponValue = percent.map { .percent(Percentage(hundredths: $0)) }
                ?? .amount(Money(minorUnits: amount ?? 0, currency: .usd))
            // Only the beauty lines are in scope (the model's `eligible`).
            let quote = try CouponRules.quote(Self.coupon(value, scope: .category("beauty")), lines: lines, on: Self.day)
            let expected = CouponArithmetic.outcome(model, percentHundredths: percent, amountCents: amount)
            let basketTotal = try Basket(user: User(id: 1, username: "u", email: "u@x", firstName: "", lastName: "", createdAt: ""), lines: lines)
                .discountedTotal.minorUnits
            if expected.discount == 0 {
                #expect(quote.discount.minorUnits == 0, "round \(round)")
                continue
            }
            #expect(quote.refusal == nil, "round \(round)")
            #expect(quote.discount.minorUnits == expected.discount, "round \(round)")
            #expect(quote.shares == expected.shares, "round \(round)")
            #expect(quote.shares.reduce(0, +) == quote.discount.minorUnits, "round \(round)")
            #expect(basketTotal - quote.discount.minorUnits == expected.total, "round \(round)")
        }
    }
}
