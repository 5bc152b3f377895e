// PostgresRefusal: the one table of the codes the server's functions refuse with (SQLSTATE class
// SH: basket SHB, checkout SHC, coupons at checkout SHK, orders SHO) and of what each says, in ShopCore's words, from the
// JSON detail the function sends with it. A refusal costs no second query to find its words.

import Foundation
import ShopCore

/// A refusal of one of the server's functions.
package enum PostgresRefusal: String, CaseIterable, Sendable {
    // Basket and favourite functions (PostgresRefusingSchema).
    case noSuchCustomer = "SHB01", noSuchProduct = "SHB02", customerDisabled = "SHB03", outOfStock = "SHB04"
    case basketFull = "SHB05", lineFull = "SHB06", notInBasket = "SHB07"
    // shopsh_checkout (PostgresServerRules; details since PostgresRefusingSchema).
    case checkoutNoCustomer = "SHC01", checkoutDisabled = "SHC02", checkoutEmpty = "SHC03"
    case checkoutShortOfStock = "SHC04", checkoutOrderIDsTaken = "SHC05"
    // shopsh_checkout(customer, address) (PostgresAddressSchema; the client checks first and words it).
    case checkoutNoAddress = "SHC06"
    // shopsh_checkout's coupon (PostgresCouponSchema): CouponRefusal's cases, in CouponRules.quote's order.
    case couponDisabled = "SHK01", couponUsedUp = "SHK02", couponScheduled = "SHK03", couponExpired = "SHK04"
    case couponCustomerLimit = "SHK05", couponOtherCurrency = "SHK06", couponBelowMinimum = "SHK07", couponNoEligibleLine = "SHK08"
    // shopsh_set_order_status (worded by PostgresOrderService, which knows the order).
    case noSuchOrder = "SHO01", notAllowedMove = "SHO02"
    // shopsh_return_units and shopsh_refund (PostgresRefundSchema; worded by PostgresOrderService
    // from the order read again, through RefundRules).
    case notRefundable = "SHR01", badReason = "SHR02", noSuchLine = "SHR03", unitsLeft = "SHR04"
    case amountLeft = "SHR05", stockFull = "SHR06"
    // shopsh_ship and shopsh_deliver (PostgresShipmentSchema; worded by the client through ShipmentRules).
    case notShippable = "SHS01", badShipment = "SHS02", unitsNotLeft = "SHS03", nothingToDeliver = "SHS04"

    /// What the server says at psql (a client without this table sees this and the detail).
    package var serverMessage: String {
        switch self {
        case .noSuchCustomer, .checkoutNoCustomer: return "no such customer"
        case .noSuchProduct: return "no such product"
        case .customerDisabled, .checkoutDisabled: return "the customer is disabled"
        case .outOfStock: return "the product is out of stock"
        case .basketFull: return "the basket holds \(BasketLimits.maxLines) products, the most a basket may hold"
        case .lineFull: return "a basket line holds at most \(BasketLimits.maxQuantity)"
        case .notInBasket: return "the product is not in the basket"
        case .checkoutEmpty: return "the basket is empty"
        case .checkoutShortOfStock: return "not enough stock"
        case .checkoutOrderIDsTaken: return "no free order id"
        case .checkoutNoAddress: return "the customer has no such address"
        case .couponDisabled: return "the coupon is disabled"
        case .couponUsedUp: return "the coupon is used up"
        case .couponScheduled: return "the coupon has not started"
        case .couponExpired: return "the coupon has expired"
        case .couponCustomerLimit: return "the customer used the coupon as often as it allows"
        case .couponOtherCurrency: return "the coupon is in another currency than the basket"
        case .couponBelowMinimum: return "the basket is below the coupon minimum"
        case .couponNoEligibleLine: return "no line of the basket is in the coupon scope"
        case .noSuchOrder: return "no such order"
        case .notAllowedMove: return "an order moves only along the status machine"
        case .notRefundable: return "only paid, shipped or delivered orders take returns and refunds"
        case .badReason: return "a refund needs a reason of 1 to \(RefundRules.maxReasonLength) characters"
        case .noSuchLine: return "the order has no such line"
        case .unitsLeft: return "the line has fewer units left to return"
        case .amountLeft: return "a refund is more than 0 and at most what is left to refund"
        case .stockFull: return "restocking would take the stock past \(ProductLimits.maxStock)"
        case .notShippable: return "only a paid order ships"
        case .badShipment: return "a shipment needs a carrier and a tracking code"
        case .unitsNotLeft: return "a shipment takes units left to ship, each line once"
        case .nothingToDeliver: return "nothing shipped is left to deliver"
        }
    }

    /// What the function's detail holds (each field only where its refusal needs it).
    package struct Detail: Decodable {
        package var customer: String?
        package var product: String?
        package var sku: String?
        package var title: String?
        package var quantity: Int?
        package var adding: Int?

        /// The detail's JSON; ids and quantities may come as numbers or as text.
        package init(json: String) {
            let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
            func text(_ key: String) -> String? {
                switch object[key] {
                case let value as String: return value
                case let value as NSNumber: return value.stringValue
                default: return nil
                }
            }
            customer = text("customer"); product = text("product"); sku = text("sku"); title = text("title")
            quantity = text("quantity").flatMap { Int($0) }; adding = text("adding").flatMap { Int($0) }
        }
    }

    /// ShopCore's line for this refusal, from the function's detail; nil when the detail lacks
    /// what the words need (a function of an older migration), or the caller words it itself.
    package func error(detail text: String?) -> ShopError? {
        let detail = Detail(json: text ?? "{}")
        let customer = detail.customer, product = detail.product.flatMap { Int64($0) }
        switch self {
        case .noSuchCustomer:
            return customer.map { UserReference($0).notFound(suggesting: []) }
        case .noSuchProduct:
            return detail.product.map { ProductRules.noProduct($0) }
        case .customerDisabled:
            return customer.map { BasketRules.disabled($0, BasketRules.adding) }
        case .checkoutDisabled:
            return customer.map { BasketRules.disabled($0, BasketRules.checkingOut) }
        case .outOfStock:
            guard let product, let sku = detail.sku, let title = detail.title else { return nil }
            return BasketRules.outOfStock(product, sku: sku, title: title)
        case .basketFull:
            return customer.map(BasketRules.basketFull)
        case .lineFull:
            guard let customer, let sku = detail.sku, let held = detail.quantity, let adding = detail.adding else { return nil }
            return BasketRules.lineFull(customer, sku: sku, adding: adding, current: held)
        case .notInBasket:
            guard let customer, let product, let sku = detail.sku else { return nil }
            return BasketRules.notInBasket(customer, productID: product, sku: sku)
        case .checkoutNoCustomer:
            return .notFound("the customer was deleted meanwhile; nothing was changed")
        case .checkoutEmpty:
            return customer.map(BasketRules.emptyBasket)
        case .checkoutShortOfStock:
            guard let sku = detail.sku, let title = detail.title else { return nil }
            return BasketRules.stockTaken(sku: sku, title: title)
        case .checkoutOrderIDsTaken:
            return .conflict("checking out: other checkouts kept taking the next order id; try again")
        case .checkoutNoAddress:
            return .notFound("the address was removed meanwhile; nothing was changed")
        case .couponDisabled, .couponUsedUp, .couponScheduled, .couponExpired, .couponCustomerLimit, .couponOtherCurrency,
             .couponBelowMinimum, .couponNoEligibleLine:
            return couponRefusal(detail: text)
        case .noSuchOrder, .notAllowedMove, .notRefundable, .badReason, .noSuchLine, .unitsLeft, .amountLeft, .stockFull,
             .notShippable, .badShipment, .unitsNotLeft, .nothingToDeliver:
            return nil
        }
    }

    /// A coupon refusal of checkout in CouponRefusal's words (the line SQLite says), from the
    /// detail's code and what the words need; nil when the detail lacks them.
    private func couponRefusal(detail text: String?) -> ShopError? {
        let object = (try? JSONSerialization.jsonObject(with: Data((text ?? "{}").utf8))) as? [String: Any] ?? [:]
        func string(_ key: String) -> String? {
            switch object[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        func integer(_ key: String) -> Int64? { string(key).flatMap { Int64($0) } }
        func currency(_ key: String) -> Currency? {
            string(key).map { $0 == Currency.usd.code ? .usd : Currency(code: $0, minorUnitDigits: 2) }
        }
        guard let code = string("code") else { return nil }
        let refusal: CouponRefusal
        switch self {
        case .couponDisabled: refusal = .disabled
        case .couponUsedUp:
            guard let uses = integer("max_uses") else { return nil }
            refusal = .usedUp(maxUses: Int(uses))
        case .couponScheduled:
            guard let day = string("starts").flatMap(CalendarDay.init(iso:)) else { return nil }
            refusal = .scheduled(starts: day)
        case .couponExpired:
            guard let day = string("expires").flatMap(CalendarDay.init(iso:)) else { return nil }
            refusal = .expired(expires: day)
        case .couponCustomerLimit:
            guard let limit = integer("per_customer") else { return nil }
            refusal = .customerLimit(perCustomer: Int(limit))
        case .couponOtherCurrency:
            guard let coupon = currency("currency"), let basket = currency("basket") else { return nil }
            refusal = .otherCurrency(coupon: coupon, basket: basket)
        case .couponBelowMinimum:
            guard let minimum = integer("minimum"), let total = integer("total"), let coupon = currency("currency"),
                  let basket = currency("basket") else { return nil }
            refusal = .belowMinimum(minimum: Money(minorUnits: minimum, currency: coupon), total: Money(minorUnits: total, currency: basket))
        case .couponNoEligibleLine:
            if let category = string("category") {
                refusal = .noEligibleLine(scope: .category(category))
            } else if let ids = object["products"] as? [Any] {
                refusal = .noEligibleLine(scope: .products(ids.compactMap { ($0 as? NSNumber)?.int64Value }))
            } else {
                refusal = .noEligibleLine(scope: .everything)
            }
        default: return nil
        }
        return .conflict(refusal.message(code: code))
    }

    /// The line for a server error with `state` and `detail`, when the state is one of this table's.
    package static func error(state: String, detail: String?) -> ShopError? {
        PostgresRefusal(rawValue: state)?.error(detail: detail)
    }
}
