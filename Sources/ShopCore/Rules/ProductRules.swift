// ProductRules: what a product's fields may hold, for every store: titles, descriptions, brands and
// tags (lengths, no control characters), category slugs, SKUs, prices (in the base currency,
// within ProductLimits), discounts, ratings and stock.

/// The rules a product follows; each check throws one line that says what is allowed.
public enum ProductRules {
    /// No product has `reference` (as typed) as its id, SKU or barcode; a barcode-shaped one with
    /// a wrong check digit says so (Barcode.notFound).
    public static func noProduct(_ reference: String) -> ShopError {
        if Barcode.hasShape(reference.trimmingASCIISpaces) { return Barcode.notFound(reference.trimmingASCIISpaces) }
        return .notFound("no product with id or SKU \"\(reference)\"")
    }

    /// Checks every field of a new product.
    public static func check(_ new: NewProduct) throws(ShopError) {
        try checkTitle(new.title)
        try checkDescription(new.description)
        try checkCategory(new.category)
        if let brand = new.brand { try checkBrand(brand) }
        try checkTags(new.tags)
        try checkPrice(new.price)
        try checkStock(new.stock)
        try checkDiscount(new.discount)
        try checkRating(new.rating)
        if let sku = new.sku { try checkSKU(sku) }
        if let barcode = new.barcode { _ = try Barcode.parseShape(barcode) }
        try ProductDetailRules.check(new.details)
        guard new.reviews.count <= ReviewRules.maxPerProduct else {
            throw .invalidInput("too many reviews: \(new.reviews.count), at most \(ReviewRules.maxPerProduct) a product")
        }
        for review in new.reviews { try ReviewRules.check(review) }
        if let id = new.id, !ProductLimits.idRange.contains(id) {
            throw .invalidInput("invalid product id \(id): ids run from \(ProductLimits.idRange.lowerBound) to \(ProductLimits.idRange.upperBound)")
        }
    }

    /// Checks the fields `changes` sets.
    public static func check(_ changes: ProductChanges) throws(ShopError) {
        if let title = changes.title { try checkTitle(title) }
        if let description = changes.description { try checkDescription(description) }
        if let category = changes.category { try checkCategory(category) }
        if let brand = changes.brand { try checkBrand(brand) }
        if let price = changes.price { try checkPrice(price) }
        if let stock = changes.stock { try checkStock(stock) }
        if let discount = changes.discount { try checkDiscount(discount) }
        if let sku = changes.sku { try checkSKU(sku) }
        if let barcode = changes.barcode, !barcode.isEmpty { _ = try Barcode.parseShape(barcode) }
        if let details = changes.details { try ProductDetailRules.check(details) }
    }

    /// A title: not empty, at most `ProductLimits.maxTitleLength` characters, no control characters.
    public static func checkTitle(_ title: String) throws(ShopError) {
        if title.trimmingASCIISpaces.isEmpty { throw .invalidInput("title must not be empty") }
        try checkText(title, field: "title", maxLength: ProductLimits.maxTitleLength)
    }

    /// A description: at most `ProductLimits.maxDescriptionLength` characters; lines and tabs, but
    /// no other control characters.
    public static func checkDescription(_ description: String) throws(ShopError) {
        try checkText(description, field: "description", maxLength: ProductLimits.maxDescriptionLength, allowsLines: true)
    }

    /// A brand: at most `ProductLimits.maxBrandLength` characters, no control characters (empty clears it).
    public static func checkBrand(_ brand: String) throws(ShopError) {
        try checkText(brand, field: "brand", maxLength: ProductLimits.maxBrandLength)
    }

    /// At most `ProductLimits.maxTags` tags of at most `ProductLimits.maxTagLength` characters,
    /// without control characters or commas (the stores keep tags joined by commas).
    public static func checkTags(_ tags: [String]) throws(ShopError) {
        guard tags.count <= ProductLimits.maxTags else {
            throw .invalidInput("too many tags: \(tags.count), at most \(ProductLimits.maxTags)")
        }
        for tag in tags {
            try checkText(tag, field: "tag", maxLength: ProductLimits.maxTagLength)
            if tag.contains(",") { throw .invalidInput("tag \(tag.quotedForMessage()) must not contain a comma") }
        }
    }

    /// Text a store keeps: at most `maxLength` Unicode scalars, and no control character (C0, DEL,
    /// C1; NUL above all, which no store keeps alike) but, where `allowsLines`, LF, CR and TAB.
    public static func checkText(_ text: String, field: String, maxLength: Int, allowsLines: Bool = false) throws(ShopError) {
        var length = 0
        for scalar in text.unicodeScalars {
            length += 1
            let value = scalar.value
            if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) {
                if allowsLines && (scalar == "\n" || scalar == "\r" || scalar == "\t") { continue }
                let name = value == 0 ? "a NUL character" : "a control character (U+\(String(value, radix: 16, uppercase: true)))"
                throw .invalidInput("\(field) \(text.quotedForMessage()) holds \(name); \(field)s may not")
            }
        }
        guard length <= maxLength else {
            throw .invalidInput("\(field) \(text.quotedForMessage()) is too long: \(length) characters, at most \(maxLength)")
        }
    }

    /// A slug of lower-case letters, digits and '-', at most `ProductLimits.maxCategoryLength` long.
    public static func checkCategory(_ category: String) throws(ShopError) {
        guard !category.isEmpty, category.utf8.count <= ProductLimits.maxCategoryLength, category.utf8.allSatisfy({ byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-")
        }) else {
            throw .invalidInput("invalid category \(category.quotedForMessage()): use a slug of up to \(ProductLimits.maxCategoryLength) lower-case letters, digits and '-', like kitchen-accessories")
        }
    }

    /// A price in the base currency (USD), from 0 to `ProductLimits.maxPriceMinorUnits`: bounded so
    /// that price × quantity × lines can never overflow 64-bit minor units.
    public static func checkPrice(_ price: Money) throws(ShopError) {
        guard price.currency == .usd else {
            throw .invalidInput("prices are kept in \(Currency.usd.code), the shop's base currency, not \(price.currency.code)")
        }
        if price.minorUnits < 0 { throw .invalidInput("price must not be negative") }
        if price.minorUnits > ProductLimits.maxPriceMinorUnits {
            throw .invalidInput("price \(price.decimalString) is too high (at most \(Money(minorUnits: ProductLimits.maxPriceMinorUnits, currency: .usd).decimalString))")
        }
    }

    public static func checkStock(_ stock: Int) throws(ShopError) {
        if stock < 0 || stock > ProductLimits.maxStock {
            throw .invalidInput("stock must be from 0 to \(ProductLimits.maxStock)")
        }
    }

    public static func checkDiscount(_ discount: Percentage) throws(ShopError) {
        guard Percentage.hundredthsRange.contains(discount.hundredths) else {
            throw .invalidInput("invalid discount \(discount): expected a percentage from 0 to 100")
        }
    }

    public static func checkRating(_ rating: Rating) throws(ShopError) {
        guard (0...500).contains(rating.hundredths) else {
            throw .invalidInput("invalid rating \(rating): expected a number from 0 to 5")
        }
    }

    /// Up to 64 printable ASCII characters without spaces, and not a plain number (numbers are ids).
    public static func checkSKU(_ sku: String) throws(ShopError) {
        guard !sku.isEmpty, sku.count <= 64, sku.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidInput("invalid SKU \(sku.quotedForMessage()): use up to 64 printable ASCII characters without spaces")
        }
        if Int64(sku) != nil {
            throw .invalidInput("invalid SKU \(sku.quotedForMessage()): a SKU must not be a plain number (numbers are product ids)")
        }
    }

    /// `KIT-000195` for a product added without a SKU (a store appends `-2`… if it is taken).
    public static func makeSKU(category: String, id: Int64) -> String {
        let prefix = String(category.uppercased().filter { $0.isLetter }.prefix(3))
        let number = String(id)
        return (prefix.isEmpty ? "PRD" : prefix) + "-" + String(repeating: "0", count: max(0, 6 - number.count)) + number
    }
}
