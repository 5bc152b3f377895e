// FuzzECBRates: libFuzzer target for the ECB reference-rate decoders (daily XML, daily CSV and
// history CSV): each either returns well-formed rates or throws ShopError.invalidInput (with a
// one-line message: checked only with SHOPSH_FUZZ_KNOWN=1 until ECBRatesDecoder escapes file text).
// Run by fuzz/run.

import FuzzSupport
import ShopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzECBRates(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let text = String(decoding: bytes, as: UTF8.self)
    check("decode") { () throws(ShopError) in try ECBRatesDecoder.decode(bytes) }
    check("decodeXML") { () throws(ShopError) in try ECBRatesDecoder.decodeXML(text) }
    check("decodeCSV") { () throws(ShopError) in try ECBRatesDecoder.decodeCSV(text) }
    return 0
}

func check(_ what: String, _ decode: () throws(ShopError) -> [CurrencyRate]) {
    let rates: [CurrencyRate]
    do {
        rates = try decode()
    } catch {
        guard case .invalidInput(let message) = error else {
            require(false, "\(what) threw \(error), expected invalidInput")
            return
        }
        // Dates, codes and rates from the file are quoted escaped (FuzzRegressions/FuzzECBRates/raw-text-in-message).
        require(isOneLineMessage(message), "\(what): message is not one clean line: \(message.debugDescription)")
        return
    }
    require(!rates.isEmpty, "\(what) returned no rates without an error")
    for rate in rates {
        require(CalendarDay(iso: rate.date) != nil, "\(what): bad date \(rate.date.debugDescription)")
        require(Currency.isWellFormedCode(rate.currency), "\(what): bad currency \(rate.currency.debugDescription)")
        require(rate.rate.scale == ECBRatesDecoder.rateScale && rate.rate.units > 0, "\(what): bad rate \(rate.rate)")
    }
}
