// String+UTF8Bytes: read-only access to a string's UTF-8 bytes for the byte-level formatters.

extension String {
    /// Calls `body` with the UTF-8 bytes of the string; no copy for native Swift strings.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
