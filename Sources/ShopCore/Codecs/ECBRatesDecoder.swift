// ECBRatesDecoder: reads the ECB euro reference rates in their three published shapes
// (daily XML, daily CSV, full-history CSV) into CurrencyRates.

/// Decodes ECB euro foreign exchange reference rates. Rates are units of a currency per euro.
public enum ECBRatesDecoder {
    /// Digits kept after the decimal point (the ECB publishes at most 6).
    public static let rateScale = 6

    /// Detects the shape from the content: XML starts with `<`, otherwise CSV (daily or history).
    public static func decode(_ bytes: [UInt8]) throws(ShopError) -> [CurrencyRate] {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\u{FEFF}" }
        return start.hasPrefix("<") ? try decodeXML(text) : try decodeCSV(text)
    }

    /// `eurofxref-daily.xml`: `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='USD' rate='1.1684'/>`.
    public static func decodeXML(_ text: String) throws(ShopError) -> [CurrencyRate] {
        var rates: [CurrencyRate] = []
        var date: String?
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<Cube") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[close...]
            if let time = attribute("time", in: tag) {
                guard isISODate(time) else { throw .invalidInput("invalid ECB XML: bad date \"\(time)\"") }
                date = time
            }
            if let code = attribute("currency", in: tag) {
                guard let rateText = attribute("rate", in: tag) else { throw .invalidInput("invalid ECB XML: \(code) has no rate") }
                guard let date else { throw .invalidInput("invalid ECB XML: a rate before any date") }
                rates.append(try rate(date: date, code: code, text: rateText))
            }
        }
        guard !rates.isEmpty else { throw .invalidInput("no ECB rates found in the XML") }
        return rates
    }

    /// `eurofxref.csv` (`Date, USD, …` / `13 April 2026, 1.1684, …`) or `eurofxref-hist.csv`
    /// (`Date,USD,…` / `2026-04-13,1.1684,…,N/A,…`). `N/A` and empty cells are skipped.
    public static func decodeCSV(_ text: String) throws(ShopError) -> [CurrencyRate] {
        let records = try CSVReader.records(in: text)
        guard let header = records.first, header.fields.first?.trimmingASCIISpaces == "Date" else {
            throw .invalidInput("invalid ECB CSV: the first line must start with \"Date\"")
        }
        let codes = header.fields.dropFirst().map { $0.trimmingASCIISpaces }
        var rates: [CurrencyRate] = []
        for record in records.dropFirst() {
            guard let dateText = record.fields.first?.trimmingASCIISpaces,
                  let date = isoDate(from: dateText) else {
                throw .invalidInput("invalid ECB CSV at line \(record.line): bad date \"\(record.fields.first ?? "")\"")
            }
            for (code, cell) in zip(codes, record.fields.dropFirst()) {
                let value = cell.trimmingASCIISpaces
                if code.isEmpty || value.isEmpty || value == "N/A" { continue }
                do {
                    rates.append(try rate(date: date, code: code, text: value))
                } catch {
                    throw .invalidInput("invalid ECB CSV at line \(record.line): \(error.message)")
                }
            }
        }
        guard !rates.isEmpty else { throw .invalidInput("no ECB rates found in the CSV") }
        return rates
    }

    // MARK: - Pieces

    static func rate(date: String, code: String, text: String) throws(ShopError) -> CurrencyRate {
        guard Currency.isWellFormedCode(code) else { throw .invalidInput("bad currency code \"\(code)\"") }
        guard let value = ExactDecimal.parse(text, maxScale: rateScale), value.units > 0 else {
            throw .invalidInput("bad rate \"\(text)\" for \(code)")
        }
        return CurrencyRate(date: date, currency: code, rate: value)
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        for quote in ["'", "\""] {
            if let start = tag.firstRange(of: " \(name)=\(quote)") {
                let value = tag[start.upperBound...]
                if let end = value.firstIndex(of: Character(quote)) { return String(value[..<end]) }
            }
        }
        return nil
    }

    /// `2026-04-13` or `13 April 2026` → `2026-04-13`.
    public static func isoDate(from text: String) -> String? {
        if isISODate(text) { return text }
        let parts = text.split(separator: " ")
        let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                      "september", "october", "november", "december"]
        guard parts.count == 3, let day = Int(parts[0]), (1...31).contains(day),
              let month = months.firstIndex(of: parts[1].lowercased()),
              let year = Int(parts[2]), (1900...9999).contains(year) else { return nil }
        return "\(year)-\(month < 9 ? "0" : "")\(month + 1)-\(day < 10 ? "0" : "")\(day)"
    }

    /// Whether `text` is a `YYYY-MM-DD` date with a plausible month and day.
    public static func isISODate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        let digits = bytes[0..<4] + bytes[5..<7] + bytes[8..<10]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let month = Int(String(decoding: bytes[5..<7], as: UTF8.self)),
              let day = Int(String(decoding: bytes[8..<10], as: UTF8.self)) else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }
}
