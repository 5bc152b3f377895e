// BasketLine and PricedLine: what a customer is about to buy, and the one place line totals are computed.

/// One line of a basket: a product, how many, and its price now.
public struct BasketLine: Hashable, Sendable {
    public var userID: Int64
    public var productID: Int64
    public var sku: String
    public var title: String
    public var unitPrice: Money
    public var discount: Percentage
    public var quantity: Int
    /// The product's stock when the line was read, if the store said.
    public var stock: Int?

    public init(userID: Int64, productID: Int64, sku: String, title: String, unitPrice: Money,
                discount: Percentage, quantity: Int, stock: Int? = nil) {
        self.userID = userID
        self.productID = productID
        self.sku = sku
        self.title = title
        self.unitPrice = unitPrice
        self.discount = discount
        self.quantity = quantity
        self.stock = stock
    }
}

/// A priced line (basket or order): the one place line totals are computed.
public protocol PricedLine {
    var unitPrice: Money { get }
    var discount: Percentage { get }
    var quantity: Int { get }
}

extension PricedLine {
    /// Price times quantity, before the discount.
    public var total: Money { get throws(ShopError) { try unitPrice.times(quantity) } }
    /// The line total after the discount, rounded once to the minor unit.
    public var discountedTotal: Money { get throws(ShopError) { try total.discounted(by: discount) } }
}

extension BasketLine: PricedLine {}

extension Sequence where Element: PricedLine {
    /// How many items the lines hold in all. The shop's limits keep this far below `Int.max`;
    /// a store edited by hand could pass it, so the sum saturates instead of trapping.
    public var totalQuantity: Int {
        reduce(0) { sum, line in
            let (next, overflow) = sum.addingReportingOverflow(line.quantity)
            return overflow ? .max : next
        }
    }
}
