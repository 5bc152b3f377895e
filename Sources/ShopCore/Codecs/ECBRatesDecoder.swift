// ECBRatesDecoder: reads the ECB euro reference rates in their three published shapes
// (daily XML, daily CSV, full-history CSV) into CurrencyRates, refusing what is not a rate:
// days that do not exist, unknown codes, and a EUR rate other than 1 (EUR is the base).

/// Decodes ECB euro foreign exchange reference rates. Rates are units of a currency per euro.
///
/// Errors are one line naming the line of the file. EUR itself is never returned: a EUR
/// rate of exactly 1 is skipped, any other EUR rate is refused.
public enum ECBRatesDecoder {
    /// Digits kept after the decimal point (the ECB publishes at most 6).
    public static let rateScale = 6

    /// Detects the shape from the content: XML starts with `<`, otherwise CSV (daily or history).
    ///
    /// `knownCodes`, when given, are the only currency codes accepted (the store's ISO 4217 list).
    public static func decode(_ bytes: [UInt8], knownCodes: Set<String>? = nil) throws(ShopError) -> [CurrencyRate] {
        let text = String(decoding: bytes, as: UTF8.self)
        let start = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\u{FEFF}" }
        return start.hasPrefix("<") ? try decodeXML(text, knownCodes: knownCodes) : try decodeCSV(text, knownCodes: knownCodes)
    }

    /// `eurofxref-daily.xml`: `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='USD' rate='1.1684'/>`.
    public static func decodeXML(_ text: String, knownCodes: Set<String>? = nil) throws(ShopError) -> [CurrencyRate] {
        var rates: [CurrencyRate] = []
        var date: String?
        var rest = Substring(text)
        var line = 1
        while let open = rest.firstRange(of: "<Cube") {
            line += rest[..<open.lowerBound].utf8.count { $0 == UInt8(ascii: "\n") }
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[close...]
            line += tag.utf8.count { $0 == UInt8(ascii: "\n") }
            if let time = attribute("time", in: tag) {
                guard CalendarDay(iso: time) != nil else {
                    throw .invalidInput("invalid ECB XML at line \(line): \(time.quotedForMessage()) is not a day (expected YYYY-MM-DD)")
                }
                date = time
            }
            if let code = attribute("currency", in: tag) {
                do throws(ShopError) {
                    guard let rateText = attribute("rate", in: tag) else { throw .invalidInput("\(code.quotedForMessage()) has no rate") }
                    guard let date else { throw .invalidInput("a rate before any date") }
                    if let rate = try rate(date: date, code: code, text: rateText, knownCodes: knownCodes) { rates.append(rate) }
                } catch {
                    throw .invalidInput("invalid ECB XML at line \(line): \(error.message)")
                }
            }
        }
        guard !rates.isEmpty else { throw .invalidInput("no ECB rates found in the XML") }
        return rates
    }

    /// `eurofxref.csv` (`Date, USD, …` / `13 April 2026, 1.1684, …`) or `eurofxref-hist.csv`
    /// (`Date,USD,…` / `2026-04-13,1.1684,…,N/A,…`). `N/A` and empty cells are skipped.
    public static func decodeCSV(_ text: String, knownCodes: Set<String>? = nil) throws(ShopError) -> [CurrencyRate] {
        let records = try CSVReader.records(in: text)
        guard let header = records.first, header.fields.first?.trimmingASCIISpaces == "Date" else {
            throw .invalidInput("invalid ECB CSV: the first line must start with \"Date\"")
        }
        let codes = header.fields.dropFirst().map { $0.trimmingASCIISpaces }
        for code in codes where !code.isEmpty {
            do {
                try check(code: code, knownCodes: knownCodes)
            } catch {
                throw .invalidInput("invalid ECB CSV at line \(header.line): \(error.message)")
            }
        }
        var rates: [CurrencyRate] = []
        for record in records.dropFirst() {
            let dateText = record.fields.first?.trimmingASCIISpaces ?? ""
            guard let date = isoDate(from: dateText) else {
                throw .invalidInput("invalid ECB CSV at line \(record.line): \(dateText.quotedForMessage()) is not a day (expected YYYY-MM-DD or 13 April 2026)")
            }
            if record.fields.dropFirst(codes.count + 1).contains(where: { !$0.trimmingASCIISpaces.isEmpty }) {
                throw .invalidInput("invalid ECB CSV at line \(record.line): more values than the header has currencies")
            }
            for (code, cell) in zip(codes, record.fields.dropFirst()) {
                let value = cell.trimmingASCIISpaces
                if code.isEmpty || value.isEmpty || value == "N/A" { continue }
                do {
                    if let rate = try rate(date: date, code: code, text: value, knownCodes: nil) { rates.append(rate) }
                } catch {
                    throw .invalidInput("invalid ECB CSV at line \(record.line): \(error.message)")
                }
            }
        }
        guard !rates.isEmpty else { throw .invalidInput("no ECB rates found in the CSV") }
        return rates
    }

    // MARK: - Pieces

    /// The rate in `text`, or nil for EUR at exactly 1 (the base needs no rate).
    static func rate(date: String, code: String, text: String, knownCodes: Set<String>?) throws(ShopError) -> CurrencyRate? {
        try check(code: code, knownCodes: knownCodes)
        guard let value = ExactDecimal.parse(text, maxScale: rateScale), value.units > 0 else {
            throw .invalidInput("bad rate \(text.quotedForMessage()) for \(code.quotedForMessage())")
        }
        if code == Currency.eur.code {
            guard value.normalized == ExactDecimal(units: 1, scale: 0) else {
                throw .invalidInput("a EUR rate of \(text.quotedForMessage()): rates are per euro, so EUR can only be 1")
            }
            return nil
        }
        return CurrencyRate(date: date, currency: code, rate: value)
    }

    /// Refuses a code that is not three capital letters, or not among `knownCodes` when given.
    static func check(code: String, knownCodes: Set<String>?) throws(ShopError) {
        guard Currency.isWellFormedCode(code) else { throw .invalidInput("bad currency code \(code.quotedForMessage())") }
        if let knownCodes, code != Currency.eur.code, !knownCodes.contains(code) {
            throw .invalidInput("unknown currency code \(code.quotedForMessage()) (not in the store's ISO 4217 list; see: currency codes)")
        }
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

    /// `2026-04-13` or `13 April 2026` → `2026-04-13`; nil when it is not a real day.
    public static func isoDate(from text: String) -> String? {
        if let day = CalendarDay(iso: text) { return day.description }
        let parts = text.split(separator: " ")
        let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                      "september", "october", "november", "december"]
        guard parts.count == 3, parts[0].utf8.count <= 2, parts[2].utf8.count == 4, let day = Int(parts[0]),
              let month = months.firstIndex(of: parts[1].lowercased()), let year = Int(parts[2]),
              let calendarDay = CalendarDay(year: year, month: month + 1, day: day) else { return nil }
        return calendarDay.description
    }
}
