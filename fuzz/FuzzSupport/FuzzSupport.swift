// FuzzSupport: what the libFuzzer targets under fuzz/ share: the input as bytes, a check that
// stops the run on a broken invariant, and the rules every decoded product and message obey.

#if canImport(Glibc)
import Glibc
#endif
import ShopCore

/// The fuzzer's input as an array (libFuzzer may pass a null pointer for an empty input).
public func fuzzInput(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
}

/// Stops the run when `condition` is false; libFuzzer then saves the input as a crash.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("invariant failed: \(message())", file: file, line: line) }
}

/// Whether `message` is one line without raw control or format characters from the input.
public func isOneLineMessage(_ message: String) -> Bool {
    !message.isEmpty && message.unicodeScalars.allSatisfy { scalar in
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }
}

/// An importer's error: `invalidInput` with a one-line message.
public func requireImportError(_ error: ShopError, _ what: String) {
    guard case .invalidInput(let message) = error else {
        require(false, "\(what) threw \(error), expected invalidInput")
        return
    }
    require(isOneLineMessage(message), "\(what): message is not one clean line: \(message.debugDescription)")
}

/// Every decoded product obeys the import rules: fields in range, SKUs unique ignoring ASCII case.
public func requireValidProducts(_ products: [NewProduct], _ what: String) {
    require(!products.isEmpty, "\(what) returned no products without an error")
    var skus: Set<String> = []
    for product in products {
        require(!product.title.trimmingASCIISpaces.isEmpty && !product.category.trimmingASCIISpaces.isEmpty,
                "\(what): blank title or category")
        require(product.price.currency == .usd && product.price.minorUnits >= 0, "\(what): bad price \(product.price)")
        require((0...10_000).contains(product.discount.hundredths), "\(what): bad discount \(product.discount)")
        require((0...500).contains(product.rating.hundredths), "\(what): bad rating \(product.rating)")
        require(product.stock >= 0 && product.minimumOrderQuantity >= 1, "\(what): bad stock or minimum")
        if let id = product.id { require(ProductLimits.idRange.contains(id), "\(what): id \(id) out of range") }
        if let sku = product.sku {
            require(!sku.isEmpty, "\(what): empty SKU kept")
            let key = String(decoding: sku.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
            require(skus.insert(key).inserted, "\(what): SKU \(sku) twice")
        }
    }
}

/// A UTF-8 byte-order mark.
public let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
