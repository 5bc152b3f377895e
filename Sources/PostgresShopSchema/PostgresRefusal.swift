// PostgresRefusal: the one table of the codes the server's functions refuse with (SQLSTATE class
// SH: basket SHB, checkout SHC, orders SHO) and of what each says, in ShopCore's words, from the
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
        case .noSuchOrder, .notAllowedMove, .notRefundable, .badReason, .noSuchLine, .unitsLeft, .amountLeft, .stockFull,
             .notShippable, .badShipment, .unitsNotLeft, .nothingToDeliver:
            return nil
        }
    }

    /// The line for a server error with `state` and `detail`, when the state is one of this table's.
    package static func error(state: String, detail: String?) -> ShopError? {
        PostgresRefusal(rawValue: state)?.error(detail: detail)
    }
}
