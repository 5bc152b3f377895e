// DisplayWidth: how many terminal columns text takes, and cutting text to a number of columns.

/// Terminal column widths of text, measured per grapheme cluster (`Character`).
///
/// A cluster is 2 columns wide when it holds an emoji-presentation scalar or U+FE0F, or when
/// its first scalar is East Asian Wide or Fullwidth (CJK, Hangul, fullwidth forms); 0 when its
/// first scalar is a control, a combining or enclosing mark or a format character; 1 otherwise.
/// Marks, joiners and variation selectors after the first scalar add nothing.
public enum DisplayWidth {
    /// The number of terminal columns `text` takes: `東京` is 4, `👍` is 2, `é` (e + U+0301) is 1.
    public static func of(_ text: String) -> Int {
        if let ascii = printableASCIICount(text) { return ascii }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = of(character)
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// The number of columns one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F...0x9F).contains(first.value) { return 0 }
        if first.value < 0x300 && scalars.count == 1 { return 1 }   // Latin, no marks: the common case
        if scalars.contains(where: { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }) { return 2 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    // MARK: - Helpers

    /// The byte count when every byte is printable ASCII (one column each), else nil.
    private static func printableASCIICount(_ text: String) -> Int? {
        let utf8 = text.utf8
        let allPrintable = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        } ?? utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return allPrintable ? utf8.count : nil
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F, abridged).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x231A...0x231B,    // watch, hourglass
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,    // CJK extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x18AFF,  // Tangut and related
        0x1B000...0x1B2FF,  // Kana supplement, Nushu
        0x1F300...0x1F64F,  // miscellaneous symbols and pictographs, emoticons
        0x1F900...0x1F9FF,  // supplemental symbols and pictographs
        0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extension G and later
    ]

    private static func isWide(_ scalar: UInt32) -> Bool {
        guard scalar >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(scalar) }
    }
}
