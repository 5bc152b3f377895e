// Barcode: the one rule of a product's barcode — EAN-13, or UPC-A (12 digits, kept as the EAN-13
// it is: a leading 0) — its check digit, and how a typed or scanned reference finds one.

/// A product's barcode: 13 digits (an EAN-13; a UPC-A is kept with its leading 0).
public enum Barcode {
    /// Whether `text` has a barcode's shape (12 or 13 ASCII digits): a reference of that shape is
    /// also looked up as a barcode.
    public static func hasShape(_ text: String) -> Bool {
        let count = text.utf8.count
        return (count == 12 || count == 13) && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The barcode as stores keep it (13 digits), for a reference of barcode shape; nil otherwise.
    public static func stored(_ text: String) -> String? {
        guard hasShape(text) else { return nil }
        return text.utf8.count == 12 ? "0" + text : text
    }

    /// The check digit the first 12 digits of `digits` (13 ASCII digits) call for: weights 1 and
    /// 3 from the left, the digit that brings the sum to a multiple of ten.
    public static func checkDigit(_ digits: String) -> Int {
        var sum = 0
        for (offset, byte) in digits.utf8.prefix(12).enumerated() {
            sum += Int(byte - UInt8(ascii: "0")) * (offset % 2 == 0 ? 1 : 3)
        }
        return (10 - sum % 10) % 10
    }

    /// Whether a stored barcode's last digit is the check digit its others call for.
    public static func hasValidCheckDigit(_ stored: String) -> Bool {
        guard let last = stored.utf8.last, stored.utf8.count == 13 else { return false }
        return Int(last - UInt8(ascii: "0")) == checkDigit(stored)
    }

    /// An operator's barcode (`--barcode`): 13 digits (EAN-13) or 12 (UPC-A) whose check digit is
    /// right; the stored form (13 digits). One line says what is wrong otherwise.
    public static func parse(_ text: String) throws(ShopError) -> String {
        let stored = try parseShape(text)
        guard hasValidCheckDigit(stored) else { throw wrongCheckDigit(text, stored) }
        return stored
    }

    /// A barcode of the right shape whatever its check digit (a file's, which an import keeps as
    /// the catalogue has it); the stored form.
    public static func parseShape(_ text: String) throws(ShopError) -> String {
        guard let stored = stored(text) else {
            throw .invalidInput("invalid barcode \(text.quotedForMessage()): expected 13 digits (EAN-13) or 12 (UPC-A)")
        }
        return stored
    }

    /// What a lookup says of a barcode-shaped reference no product has: a wrong check digit is
    /// most likely a misread, and the line says so.
    public static func notFound(_ reference: String) -> ShopError {
        if let stored = stored(reference), !hasValidCheckDigit(stored) { return wrongCheckDigit(reference, stored) }
        return .notFound("no product with id, SKU or barcode \(reference.quotedForMessage())")
    }

    private static func wrongCheckDigit(_ text: String, _ stored: String) -> ShopError {
        let kind = text.utf8.count == 12 ? "UPC-A" : "EAN-13"
        let expected = checkDigit(stored)
        return .invalidInput("invalid barcode \(text.quotedForMessage()): its check digit should be \(expected) (\(kind)); mistyped or misread?")
    }
}
