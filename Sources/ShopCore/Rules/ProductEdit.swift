// ProductEdit: a change to products as an operator types it for one product or a selection —
// absolute values and relative ones (`--price *0.9 | +5% | -10% | +2.50`, `--discount +5`,
// `--stock +N`) — what it makes of each product (money rounded once, half away from zero, to the
// currency's minor unit), and the diff shown before a bulk change is applied.

/// A price as typed: `19.99` sets it, `*0.9` multiplies it, `+5%` or `-10%` changes it by a
/// percentage, `+2.50` or `-2.50` adds or takes an amount.
public enum PriceEdit: Hashable, Sendable {
    case set(Money)
    /// A factor with up to 4 decimals (`*0.9`): units over 10,000.
    case times(tenThousandths: Int64)
    /// A percentage with up to 2 decimals, signed (`-10%` is -1000).
    case percent(hundredths: Int64)
    /// An amount, signed.
    case add(Money)

    /// How the help names the forms.
    public static let forms = "19.99 sets, *0.9 multiplies, +5% or -10% changes by a percentage, +2.50 or -2.50 adds or takes an amount"

    public static func parse(_ text: String, currency: Currency) throws(ShopError) -> PriceEdit {
        let invalid = ShopError.invalidInput("invalid price change \(text.quotedForMessage()): expected \(forms)")
        if text.hasPrefix("*") {
            guard let factor = ExactDecimal.parse(String(text.dropFirst()), maxScale: 4), factor.units > 0 else { throw invalid }
            return .times(tenThousandths: factor.units)
        }
        guard let sign = text.first, sign == "+" || sign == "-" else { return .set(try Money.parse(text, currency: currency)) }
        let body = String(text.dropFirst())
        if body.hasSuffix("%") {
            guard let percent = ExactDecimal.parse(String(body.dropLast()), maxScale: 2), percent.units > 0 else { throw invalid }
            return .percent(hundredths: sign == "-" ? -percent.units : percent.units)
        }
        guard let amount = ExactDecimal.parse(body, maxScale: currency.minorUnitDigits), amount.units > 0 else { throw invalid }
        return .add(Money(minorUnits: sign == "-" ? -amount.units : amount.units, currency: currency))
    }

    /// Whether the change depends on the price it applies to.
    public var isRelative: Bool {
        if case .set = self { return false }
        return true
    }

    /// The price `price` becomes, rounded once to the minor unit (half away from zero).
    public func applied(to price: Money) throws(ShopError) -> Money {
        switch self {
        case .set(let value): return value
        case .times(let factor): return try price.scaled(by: factor, over: 10_000)
        case .percent(let hundredths):
            let (factor, overflow) = Int64(10_000).addingReportingOverflow(hundredths)
            guard !overflow else { throw ShopError.invalidInput("price change too large") }
            return try price.scaled(by: factor, over: 10_000)
        case .add(let amount): return try price + amount
        }
    }
}

/// A discount as typed: `15` sets it, `+5` or `-2.5` changes it by percentage points.
public enum DiscountEdit: Hashable, Sendable {
    case set(Percentage)
    case add(hundredths: Int)

    public static func parse(_ text: String) throws(ShopError) -> DiscountEdit {
        guard let sign = text.first, sign == "+" || sign == "-" else { return .set(try Percentage.parse(text)) }
        guard let points = ExactDecimal.parse(String(text.dropFirst()), maxScale: 2), points.units > 0,
              points.units <= Int64(Percentage.hundredthsRange.upperBound) else {
            throw .invalidInput("invalid discount change \(text.quotedForMessage()): expected a percentage (15), or +5 or -2.5 points")
        }
        return .add(hundredths: Int(sign == "-" ? -points.units : points.units))
    }

    public func applied(to discount: Percentage) -> Percentage {
        switch self {
        case .set(let value): return value
        case .add(let points): return Percentage(hundredths: discount.hundredths + points)
        }
    }
}

/// Changes to products, as typed: every field absolute, price, discount and stock also relative.
public struct ProductEdit: Hashable, Sendable {
    public var sku: String?
    public var title: String?
    public var description: String?
    public var category: String?
    public var brand: String?
    public var price: PriceEdit?
    public var discount: DiscountEdit?
    public var stock: StockChange?
    /// A barcode (Barcode.parse's stored form), or empty to clear it.
    public var barcode: String?
    /// The details it sets or clears.
    public var details: ProductDetailEdit

    public init(sku: String? = nil, title: String? = nil, description: String? = nil, category: String? = nil,
                brand: String? = nil, price: PriceEdit? = nil, discount: DiscountEdit? = nil, stock: StockChange? = nil,
                barcode: String? = nil, details: ProductDetailEdit = ProductDetailEdit()) {
        self.sku = sku
        self.title = title
        self.description = description
        self.category = category
        self.brand = brand
        self.price = price
        self.discount = discount
        self.stock = stock
        self.barcode = barcode
        self.details = details
    }

    public var isEmpty: Bool { self == ProductEdit() }

    /// What the edit makes of `product`: the fields it changes (nothing for a field already so),
    /// checked against ProductRules. A relative price must stay above zero, and stock may not go
    /// below it; the error names the product.
    public func changes(for product: Product) throws(ShopError) -> ProductChanges {
        var changes = ProductChanges()
        func named(_ error: ShopError) -> ShopError {
            let name = "product \(product.id) (\(product.sku))"
            return .invalidInput(error.message.contains(name) ? error.message : "\(name): \(error.message)")
        }
        do throws(ShopError) {
            if let sku, sku != product.sku { changes.sku = sku }
            if let title, title != product.title { changes.title = title }
            if let description, description != product.description { changes.description = description }
            if let category, category != product.category { changes.category = category }
            if let brand, brand != (product.brand ?? "") { changes.brand = brand }
            if let price {
                let new = try price.applied(to: product.price)
                if price.isRelative, new.minorUnits <= 0 {
                    throw ShopError.invalidInput("price would be \(new.decimalString) \(new.currency.code); a changed price stays above 0")
                }
                if new != product.price { changes.price = new }
            }
            if let discount {
                let new = discount.applied(to: product.discount)
                if new != product.discount { changes.discount = new }
            }
            if let stock {
                let new = try stock.applied(to: product)
                if new != product.stock { changes.stock = new }
            }
            if let barcode, barcode != (product.barcode ?? "") { changes.barcode = barcode }
            let details = self.details.applied(to: product.details)
            if details != product.details { changes.details = details }
            try ProductRules.check(changes)
        } catch {
            throw named(error)
        }
        return changes
    }
}

/// One product of a change: how it is now and what changes.
public struct ProductChangePlan: Hashable, Sendable {
    public var before: Product
    public var changes: ProductChanges

    public init(before: Product, changes: ProductChanges) {
        self.before = before
        self.changes = changes
    }

    /// Each field that changes, its value now and after, as the output shows them.
    public var fieldChanges: [(field: String, before: String, after: String)] {
        var rows: [(String, String, String)] = []
        func add(_ field: String, _ old: String, _ new: String?) { if let new { rows.append((field, old, new)) } }
        add("sku", before.sku, changes.sku)
        add("title", before.title, changes.title)
        add("category", before.category, changes.category)
        add("brand", before.brand ?? "", changes.brand)
        add("price", before.price.decimalString, changes.price?.decimalString)
        add("discount_percentage", before.discount.description, changes.discount?.description)
        add("stock", String(before.stock), changes.stock.map(String.init))
        add("description", before.description, changes.description)
        add("barcode", before.barcode ?? "", changes.barcode)
        if let details = changes.details {
            let old = ProductDetailEdit.fields(before.details), new = ProductDetailEdit.fields(details)
            for ((field, was), (_, now)) in zip(old, new) where was != now { rows.append((field, was, now)) }
        }
        return rows
    }

    /// Checks that `current`, the product as its store now holds it, still has the values this
    /// plan was made from in every field it changes; a conflict naming the first that differs
    /// otherwise (someone changed it since the preview).
    public func checkUnchanged(_ current: Product) throws(ShopError) {
        var now = self
        now.before = current
        for (old, new) in zip(fieldChanges, now.fieldChanges) where old.field == new.field && old.before != new.before {
            throw .conflict("product \(current.id) (\(current.sku)) changed since the preview: its \(old.field) is \(new.before.quotedForMessage()), was \(old.before.quotedForMessage()); nothing was applied")
        }
    }

    /// The plan of `edit` over `products`: one entry per product it changes, in their order. The
    /// first product the edit cannot apply to stops it with a line naming that product.
    public static func plan(_ edit: ProductEdit, over products: [Product]) throws(ShopError) -> [ProductChangePlan] {
        var plans: [ProductChangePlan] = []
        plans.reserveCapacity(products.count)
        for product in products {
            let changes = try edit.changes(for: product)
            if !changes.isEmpty { plans.append(ProductChangePlan(before: product, changes: changes)) }
        }
        return plans
    }
}

/// One detail as an edit sets it: a value, or cleared.
public enum DetailSetting<Value: Hashable & Sendable>: Hashable, Sendable {
    case set(Value)
    case clear

    var value: Value? { if case .set(let value) = self { value } else { nil } }
}

/// The details an edit sets or clears (nil: left alone).
public struct ProductDetailEdit: Hashable, Sendable {
    public var images: DetailSetting<[String]>?
    public var weight: DetailSetting<ExactDecimal>?
    public var dimensions: DetailSetting<Dimensions>?
    public var warranty: DetailSetting<String>?
    public var shipping: DetailSetting<String>?
    public var returnPolicy: DetailSetting<String>?
    public var availability: DetailSetting<String>?

    public init(images: DetailSetting<[String]>? = nil, weight: DetailSetting<ExactDecimal>? = nil,
                dimensions: DetailSetting<Dimensions>? = nil, warranty: DetailSetting<String>? = nil,
                shipping: DetailSetting<String>? = nil, returnPolicy: DetailSetting<String>? = nil,
                availability: DetailSetting<String>? = nil) {
        self.images = images
        self.weight = weight
        self.dimensions = dimensions
        self.warranty = warranty
        self.shipping = shipping
        self.returnPolicy = returnPolicy
        self.availability = availability
    }

    /// The edit that makes any product's details `details`: every field set, or cleared.
    public init(replacingWith details: ProductDetails) {
        func setting<T>(_ value: T?) -> DetailSetting<T> { value.map { .set($0) } ?? .clear }
        self.init(images: details.images.isEmpty ? .clear : .set(details.images), weight: setting(details.weight),
                  dimensions: setting(details.dimensions), warranty: setting(details.warranty), shipping: setting(details.shipping),
                  returnPolicy: setting(details.returnPolicy), availability: setting(details.availability))
    }

    /// `details` with this edit's fields set or cleared.
    public func applied(to details: ProductDetails) -> ProductDetails {
        var result = details
        if let images { result.images = images.value ?? [] }
        if let weight { result.weight = weight.value }
        if let dimensions { result.dimensions = dimensions.value }
        if let warranty { result.warranty = warranty.value }
        if let shipping { result.shipping = shipping.value }
        if let returnPolicy { result.returnPolicy = returnPolicy.value }
        if let availability { result.availability = availability.value }
        return result
    }

    /// Each detail as a diff shows it, in output order.
    static func fields(_ details: ProductDetails) -> [(String, String)] {
        [("images", details.images.joined(separator: ", ")), ("weight", details.weight?.description ?? ""),
         ("dimensions", details.dimensions?.description ?? "")] + details.texts.map { ($0.field, $0.value ?? "") }
    }
}
