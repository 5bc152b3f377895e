// ProductDetailOptions: the options that set a product's barcode and details, shared by
// `products add` and `products update` — an empty value clears a field.

import ArgumentParser
import ShopCore

/// `--barcode`, `--images`, `--weight`, `--dimensions`, `--warranty`, `--shipping`,
/// `--return-policy`, `--availability`.
struct ProductDetailOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The barcode: 13 digits (EAN-13) or 12 (UPC-A), its check digit right (empty clears it).", valueName: "digits"))
    var barcode: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Image URLs, comma-separated; the first is the thumbnail (empty clears them).",
                                                        valueName: "urls"))
    var images: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The weight, a number (empty clears it).", valueName: "number"))
    var weight: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Width x height x depth, e.g. \"15.14 x 13.08 x 22.99\" (empty clears them).",
                                                        valueName: "WxHxD"))
    var dimensions: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The warranty, e.g. \"1 year warranty\" (empty clears it).", valueName: "text"))
    var warranty: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How it ships, e.g. \"Ships in 1 week\" (empty clears it).", valueName: "text"))
    var shipping: String?

    @Option(name: .customLong("return-policy"), parsing: .unconditional,
            help: ArgumentHelp("The return policy, e.g. \"30 days return policy\" (empty clears it).", valueName: "text"))
    var returnPolicy: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The availability status, e.g. \"Low Stock\" (empty clears it).", valueName: "text"))
    var availability: String?

    /// Whether any is given.
    var givesSome: Bool {
        [barcode, images, weight, dimensions, warranty, shipping, returnPolicy, availability].contains { $0 != nil }
    }

    /// The barcode as stored, checked (Barcode.parse); "" to clear it; nil when not given.
    func checkedBarcode() throws(ShopError) -> String? {
        try barcode.map { text throws(ShopError) in
            let trimmed = text.trimmingASCIISpaces
            return trimmed.isEmpty ? "" : try Barcode.parse(trimmed)
        }
    }

    /// The details these options set or clear, each checked (ProductDetailRules).
    func edit() throws(ShopError) -> ProductDetailEdit {
        func setting<T>(_ text: String?, _ parse: (String) throws(ShopError) -> T) throws(ShopError) -> DetailSetting<T>? {
            guard let text else { return nil }
            let trimmed = text.trimmingASCIISpaces
            return trimmed.isEmpty ? .clear : .set(try parse(trimmed))
        }
        func words(_ field: String) -> (String) throws(ShopError) -> String {
            { text throws(ShopError) in
                try ProductRules.checkText(text, field: field, maxLength: ProductDetailRules.maxTextLength)
                return text
            }
        }
        return ProductDetailEdit(
            images: try setting(images) { text throws(ShopError) in
                let urls = text.split(separator: ",").map { String($0).trimmingASCIISpaces }.filter { !$0.isEmpty }
                for url in urls { try ProductDetailRules.checkImage(url) }
                guard urls.count <= ProductDetailRules.maxImages else {
                    throw .invalidInput("too many images: \(urls.count), at most \(ProductDetailRules.maxImages)")
                }
                return urls
            },
            weight: try setting(weight) { text throws(ShopError) in try ProductDetailRules.measure(text, field: "weight") },
            dimensions: try setting(dimensions) { text throws(ShopError) in try Dimensions.parse(text) },
            warranty: try setting(warranty, words("warranty")), shipping: try setting(shipping, words("shipping")),
            returnPolicy: try setting(returnPolicy, words("return policy")), availability: try setting(availability, words("availability")))
    }
}
