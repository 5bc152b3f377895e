// TerminalEscaping: makes control characters in untrusted text visible instead of obeyed.

/// Escapes control characters so that customer text cannot move the cursor, change colours
/// or reorder a line on the operator's terminal.
///
/// `\n`, `\t` and `\r` become those two-character sequences; other C0 controls, DEL and C1
/// controls become `\x1B`-style hex; the bidi overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069) become `\u{202E}`-style escapes. Everything else is kept.
public enum TerminalEscaping {
    /// The text with control characters made visible.
    public static func escape(_ text: String) -> String {
        guard needsEscaping(text, backslash: false) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        append(text, to: &bytes, backslash: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `escape` would change the text (or, with `backslash`, the tsv escaping would).
    static func needsEscaping(_ text: String, backslash: Bool) -> Bool {
        text.utf8.contains { isSpecial($0, backslash: backslash) }
    }

    /// Appends `text` escaped. With `backslash` (the tsv rule) a backslash becomes `\\`
    /// too, so the escaping can be undone unambiguously.
    static func append(_ text: String, to out: inout [UInt8], backslash: Bool) {
        text.withUTF8Bytes { bytes in
            guard bytes.contains(where: { isSpecial($0, backslash: backslash) }) else {
                out.append(contentsOf: bytes)
                return
            }
            var index = 0
            while index < bytes.count {
                index += appendEscaped(bytes, at: index, to: &out, backslash: backslash)
            }
        }
    }

    // MARK: - Bytes

    /// Bytes that may start something to escape: C0, DEL, backslash (tsv), 0xC2 (C1 controls),
    /// 0xE2 (bidi controls).
    private static func isSpecial(_ byte: UInt8, backslash: Bool) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 || (backslash && byte == UInt8(ascii: "\\"))
    }

    /// The control character that starts at `index`, if one does: its scalar and how many
    /// UTF-8 bytes it takes. This is the rule of what must not reach a terminal raw: C0 controls,
    /// DEL, C1 controls (U+0080–U+009F) and the bidi controls. The JSON writer asks it too, to
    /// write the same characters as JSON escapes when its output reaches a terminal.
    static func control(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int)? {
        let byte = bytes[index]
        switch byte {
        case 0..<0x20, 0x7F:
            return (UInt32(byte), 1)
        case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
            return (UInt32(bytes[index + 1]), 2)   // C2 80…C2 9F is U+0080…U+009F
        case 0xE2 where index + 2 < bytes.count && isBidiControl(scalarAt(bytes, index)):
            return (scalarAt(bytes, index), 3)
        default:
            return nil
        }
    }

    /// Appends the character starting at `index`, escaped if needed; returns how many bytes it used.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int,
                                      to out: inout [UInt8], backslash: Bool) -> Int {
        let byte = bytes[index]
        if backslash && byte == UInt8(ascii: "\\") {
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            return 1
        }
        guard let (scalar, length) = control(in: bytes, at: index) else {
            out.append(byte)
            return 1
        }
        switch scalar {
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case _ where length == 3:
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "{")])
            out.append(hex: scalar, digits: 4)
            out.append(UInt8(ascii: "}"))
        default:
            appendHexEscape(scalar, to: &out)
        }
        return length
    }

    /// The scalar of the three-byte UTF-8 sequence starting at `index`.
    private static func scalarAt(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32 {
        (UInt32(bytes[index] & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
    }

    private static func appendHexEscape(_ value: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x")])
        out.append(hex: value, digits: 2)
    }

    /// The embedding/override controls U+202A–U+202E and the isolates U+2066–U+2069.
    private static func isBidiControl(_ scalar: UInt32) -> Bool {
        (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
    }
}
